package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/retrieve"
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
	ctx := cmd.Context()
	return o.app.withStore(ctx, mustExist, func(st store.Store) error {
		start := time.Now()
		// The next retrieve loads this build.
		eng := retrieve.New(st, retrieve.WithIndexCache(retrieve.Options{Analyzer: an}, st))
		defer eng.Close()
		stats, err := eng.Rebuild(ctx)
		took := time.Since(start)
		if err != nil {
			return err
		}
		skips := &render.Skips{W: o.app.stderr}
		for _, e := range stats.Skipped {
			skips.Add(e)
		}
		fmt.Fprintf(o.app.stdout, "indexed %s in %v (analyzer %s)\n",
			plural(stats.Entries, "entry", "entries"), took.Round(time.Microsecond), an.Name())
		if snap, err := eng.Snapshot(ctx); err == nil {
			if err := render.WriteValidityProblems(o.app.stdout, eng.Validity(snap)); err != nil {
				return err
			}
		}
		return skips.Err("reindex")
	})
}
