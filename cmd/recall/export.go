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
	cmd := documented(&cobra.Command{
		Use:  "export",
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.output != "" && backup.FormatFor(o.output) == backup.FormatSnapshot {
				return usagef(cmd, "--output %s: export writes .jsonl or a folder; a .db copy is 'recall backup %s'", o.output, o.output)
			}
			return o.run(cmd.Context())
		},
	})
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
