package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/progress"
	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/setup"
	"github.com/recallhq/recall/store"
)

// progressThreshold is how many entries an import needs before it shows a
// progress bar: smaller ones finish before a bar would tell anything.
const progressThreshold = 200

type importOptions struct {
	app *app
	s   setup.Import
}

func newImportCmd(a *app) *cobra.Command {
	o := &importOptions{app: a}
	cmd := documented(&cobra.Command{
		Use:  "import PATH",
		Args: exactArgs("PATH"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.s.CategoryGiven = cmd.Flags().Changed("category")
			into, _ := a.storeLocation() // its error comes back when the store is opened
			opts, err := o.s.Options(a.stdin, into)
			if err != nil {
				return err
			}
			return o.run(cmd.Context(), args[0], opts)
		},
	})
	cmd.Flags().StringVar(&o.s.Category, "category", importer.RootCategory, "category for markdown files in the root of a folder, and for the conversations of a chat export")
	cmd.Flags().StringVar(&o.s.Format, "format", "", "read a file as `FORMAT`: jsonl, mcp-memory, chatgpt, claude or mem0 (default: told by its content)")
	return cmd
}

func (o *importOptions) run(ctx context.Context, path string, opts importer.PathOptions) error {
	plan, err := importer.ReadPath(ctx, path, opts)
	if err != nil {
		return err
	}
	bar := &progress.Phases{W: o.app.stderr}
	var wo importer.WriteOptions
	if len(plan.Items) > progressThreshold { // a bar for a long import, on a terminal
		wo.Progress = func(done, total int) { bar.Update("importing", done, total) }
	}
	var dups service.Duplicates
	with := func(fn func(store.Store) error) error {
		return o.app.withMemory(ctx, create, nil, func(m *service.Memory) error {
			if wo.Progress != nil {
				wo.Progress(0, len(plan.Items)) // the bar shows once the store is open
				defer bar.Finish()
			}
			if err := fn(m.Store()); err != nil {
				return err
			}
			dups, _ = m.DuplicatesOf(ctx, plan.Keys()) // one look at the index, built once
			return nil
		})
	}
	return plan.Import(ctx, with, wo, func(p *importer.Plan, rep importer.Report) { render.WriteImportReport(o.app.stderr, p, rep, dups) })
}
