package main

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/backup"
	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/store"
)

type exportOptions struct {
	app    *app
	output string
}

func newExportCmd(a *app) *cobra.Command {
	o := &exportOptions{app: a}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write every entry as JSONL (stdout or a file) or as a folder of markdown files",
		Long: `Export writes every entry of the store, with all its metadata (tags,
created, updated and every other key), in identity order (category, then
name, bytewise):

  - to stdout, or to --output FILE ending in .jsonl or .ndjson: one JSON
    object per line, {"category","name","content","meta"}, exactly what
    'recall import' reads back;
  - to --output DIR (any other name): a folder store, one markdown file per
    entry at DIR/<category>/<name>.md with YAML front matter, which
    '--store DIR' opens and 'recall import DIR' reads.

Export streams: it holds one entry at a time, not the store. A file or
folder is written under a temporary name and renamed when complete; an
existing one is never replaced. Entries the store cannot read are named on
stderr and the exit status is 1; every other entry is exported. Importing
an export into an empty store of any backend gives the same entries, every
field and timestamp included (PostgreSQL keeps times to the microsecond).
For a backup of a store in use (a running server), see 'recall backup'.`,
		Example: `  recall export > memory.jsonl
  recall export --output memory.jsonl
  recall export --output ~/memory-export          # a folder of markdown files
  recall --store memory.db export | recall --store postgres://localhost/recall import -`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.output != "" && backup.FormatFor(o.output) == backup.FormatSnapshot {
				return usagef(cmd, "--output %s: export writes .jsonl or a folder; a .db copy is 'recall backup %s'", o.output, o.output)
			}
			return o.run(cmd.Context())
		},
	}
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "write to `PATH` (a .jsonl file, or a folder) instead of stdout")
	return cmd
}

func (o *exportOptions) run(ctx context.Context) error {
	return o.app.withStore(ctx, mustExist, func(st store.Store) error {
		var (
			rep backup.Report
			err error
		)
		if o.output == "" {
			rep, err = backup.WriteJSONL(ctx, st, o.app.stdout, backup.Options{})
		} else {
			rep, err = backup.Backup(ctx, st, o.output, backup.Options{})
		}
		return o.app.reportExport("exported", rep, err)
	})
}

// reportExport names the unreadable entries and prints the summary on
// stderr; an unreadable entry makes the command fail after the rest was
// written.
func (a *app) reportExport(verb string, rep backup.Report, err error) error {
	render.WriteUnreadable(a.stderr, rep.Unreadable)
	if err != nil {
		return err
	}
	render.WriteExportSummary(a.stderr, verb, rep)
	if n := len(rep.Unreadable); n > 0 {
		return errors.New(plural(n, "entry", "entries") + " could not be read and " + map[bool]string{true: "is", false: "are"}[n == 1] + " not in the output")
	}
	return nil
}
