package main

import (
	"context"

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
		return render.WriteExportReport(o.app.stderr, "exported", rep, err)
	})
}
