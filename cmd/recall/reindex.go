package main

import (
	"github.com/spf13/cobra"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

type reindexOptions struct {
	app      *app
	analysis analyzerFlags
}

func newReindexCmd(a *app) *cobra.Command {
	o := &reindexOptions{app: a}
	cmd := documented(&cobra.Command{
		Use:  "reindex",
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			an, err := o.analysis.config(o.app).NewAnalyzer()
			if err != nil {
				return err
			}
			return o.run(cmd, an)
		},
	})
	o.analysis.register(cmd, "CJK segmentation `MODE`: auto, on or off (as for retrieve)")
	return cmd
}

func (o *reindexOptions) run(cmd *cobra.Command, an *index.Analyzer) error {
	return o.app.withStore(cmd.Context(), mustExist, func(st store.Store) error {
		// The next retrieve loads this build.
		rep, err := service.Reindex(cmd.Context(), st, an)
		if err != nil {
			return err
		}
		return render.WriteReindexReport(o.app.stdout, o.app.stderr, rep, an.Name())
	})
}
