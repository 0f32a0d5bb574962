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
	cmd := &cobra.Command{
		Use:   "import PATH",
		Short: "Import a folder of markdown files or a .jsonl file",
		Long: `Import adds (or updates) entries from PATH, which is either

  - a folder of markdown files, such as an Obsidian vault: the folder path
    is the category (trips/2024/Kyoto Trip.md is trips/2024:Kyoto Trip), the
    file name without .md the name, and YAML front matter the metadata, read
    exactly as a folder store reads its files (tags, aliases and every other
    key kept). Notes at the top of the vault take --category (default
    "` + importer.RootCategory + `"). created and updated come from the front
    matter, else from the file's times. .obsidian/, .trash/, other names
    starting with a dot, and files not ending in .md (attachments) are
    ignored and counted; symbolic links are reported, never followed.
  - a file of recall's JSON lines (.jsonl, .ndjson, or - for stdin), one
    JSON object per line:
    {"category": "...", "name": "...", "content": "...", "meta": {...}}
    meta is optional and holds tags (a list of strings), created and updated
    (RFC 3339 times or dates) and any other keys. Other top-level keys, a
    key given twice, empty tags or tags with control characters, and text
    that is not valid Unicode are errors, so nothing is silently dropped or
    mangled. Blank lines are ignored.
  - a file another tool wrote, told by its content (--format forces one):
      mcp-memory  the reference MCP memory server's memory.jsonl (or
                  memory.json): each entity an entry in the category of its
                  entityType, its observations the content, one per line,
                  and each relation a line "relationType [[type:name]]"
                  linking the two entities
      chatgpt     conversations.json of a ChatGPT data export
      claude      conversations.json of a claude.ai data export
                  (one entry per conversation, in category "chatgpt" or
                  "claude", or --category: named by its title and the
                  first 8 characters of its id, created and updated from
                  the conversation, its messages as content, each under a
                  "### User (time)" heading; for ChatGPT the branch last
                  shown, without system and hidden messages)
      mem0        mem0's memories as get_all returns them (an array, or
                  {"results": [...]}): one entry per memory, named by its
                  id, in category "mem0", its categories as tags
    Records that do not fit are reported with the reason, like bad lines.

Every input is read and checked before the store is opened. Invalid lines
and notes are skipped and reported on stderr, one per line, with the line
number or path, the reason and, when a name is at fault, a name that would
be accepted; the rest is imported. When two lines or notes name the same
category:name, the first wins and the later one is reported. An entry equal
to the one stored is not written again, so importing the same notes twice
writes nothing the second time. A summary ends the output:
"imported N, unchanged U, skipped S" and, for a folder, what was ignored.
The exit status is 0 when something was imported or unchanged (or the
input held nothing), 1 when every item was skipped or the store failed.`,
		Example: `  recall import ~/Obsidian/MyVault
  recall import --category inbox ~/notes
  recall import memories.jsonl
  recall import ~/Downloads/chatgpt-export/conversations.json
  recall import --format mcp-memory memory.json
  jq -c '.[]' export.json | recall import -`,
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
	}
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
