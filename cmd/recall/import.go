package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/progress"
	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/store"
)

// progressThreshold is how many entries an import needs before it shows a
// progress bar: smaller ones finish before a bar would tell anything.
const progressThreshold = 200

type importOptions struct {
	app *app
	// category is given to markdown files directly in a vault's root,
	// and (when set) to the conversations of a chat export.
	category    string
	categorySet bool
	format      string
}

func newImportCmd(a *app) *cobra.Command {
	o := &importOptions{app: a}
	cmd := documented(&cobra.Command{
		Use:  "import PATH",
		Args: exactArgs("PATH"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := store.ValidateName("category", o.category); err != nil {
				return usagef(cmd, "--category: %v", err)
			}
			if o.format != "" {
				if _, err := importer.ParseFormat(o.format); err != nil {
					return usagef(cmd, "--format: %v", err)
				}
			}
			o.categorySet = cmd.Flags().Changed("category")
			return o.run(cmd.Context(), args[0])
		},
	})
	cmd.Flags().StringVar(&o.category, "category", importer.RootCategory, "category for markdown files in the root of a folder, and for the conversations of a chat export")
	cmd.Flags().StringVar(&o.format, "format", "", "read a file as `FORMAT`: jsonl, mcp-memory, chatgpt, claude or mem0 (default: told by its content)")
	return cmd
}

func (o *importOptions) run(ctx context.Context, path string) error {
	plan, err := o.read(ctx, path)
	if err != nil {
		return err
	}
	var rep importer.Report
	if len(plan.Items) > 0 {
		opened := false
		err := o.app.withStore(ctx, create, func(st store.Store) error {
			opened = true
			var werr error
			rep, werr = o.write(ctx, st, plan)
			return werr
		})
		if err != nil && !opened {
			return err // the store cannot be opened (locked, say): no counts to report
		}
		if err != nil {
			render.WriteImportReport(o.app.stderr, plan, rep)
			return err
		}
	}
	render.WriteImportReport(o.app.stderr, plan, rep)
	if skipped := len(plan.Skipped) + len(rep.Rejected); rep.Imported()+rep.Unchanged == 0 && skipped > 0 {
		return fmt.Errorf("import: nothing imported, all %s skipped", plural(skipped, "item was", "items were"))
	}
	return nil
}

// read turns PATH into a plan.
func (o *importOptions) read(ctx context.Context, path string) (*importer.Plan, error) {
	opts := importer.PathOptions{Format: importer.Format(o.format), RootCategory: o.category}
	if o.categorySet {
		opts.Category = o.category
	}
	if path == "-" {
		if o.app.stdin == nil {
			return nil, errors.New("import -: no stdin")
		}
		return importer.ReadInput(ctx, o.app.stdin, "stdin", true, opts)
	}
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		if err := o.checkNotStore(path); err != nil {
			return nil, err
		}
	}
	return importer.ReadPath(ctx, path, opts)
}

// checkNotStore refuses to import an fs store into itself, which would
// only rewrite every file.
func (o *importOptions) checkNotStore(vault string) error {
	loc, err := o.app.storeLocation()
	if err != nil {
		return err
	}
	a, errA := filepath.Abs(vault)
	b, errB := filepath.Abs(loc)
	if errA == nil && errB == nil && a == b {
		return fmt.Errorf("import %s: that folder is the store itself", vault)
	}
	return nil
}

// write writes the plan, with a progress bar on a terminal for a long one.
func (o *importOptions) write(ctx context.Context, st store.Store, plan *importer.Plan) (importer.Report, error) {
	var opts importer.WriteOptions
	if n := len(plan.Items); n > progressThreshold {
		if bar := progress.New(o.app.stderr, n, "importing"); bar != nil {
			defer func() { _ = bar.Finish() }()
			opts.Progress = func(done, _ int) { _ = bar.Set(done) }
		}
	}
	return plan.Write(ctx, st, opts)
}
