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
	cmd := &cobra.Command{
		Use:   "reindex",
		Short: "Build the index and report what it holds and skipped",
		Long: `Reindex builds the BM25 index from every entry and reports how many it
indexed, which entries it could not read and why (on stderr), and how long the
build took.

The index itself is derived data: a process builds it from the store when it
first needs it, and keeps a disposable copy (in the .db file, or under
.recall/ in a folder) so that the next one starts without analysing every
entry. Reindex always reads every entry, checks that each can be read, shows
what a full build costs, and saves its build as that copy. The exit status is
1 when an entry was skipped. It also reports each supersession cycle (and the
entry it keeps) and each supersedes link that names no entry (docs/validity.md).`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.analysis.validate(cmd, o.app); err != nil {
				return err
			}
			an, err := o.analysis.build(o.app)
			if err != nil {
				return err
			}
			return o.run(cmd, an)
		},
	}
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
		for _, e := range stats.Skipped {
			fmt.Fprintf(o.app.stderr, "skipped %s\n", oneLine(e.Error()))
		}
		fmt.Fprintf(o.app.stdout, "indexed %s in %v (analyzer %s)\n",
			plural(stats.Entries, "entry", "entries"), took.Round(time.Microsecond), an.Name())
		if snap, err := eng.Snapshot(ctx); err == nil {
			if err := render.WriteValidityProblems(o.app.stdout, eng.Validity(snap)); err != nil {
				return err
			}
		}
		if n := len(stats.Skipped); n > 0 {
			return fmt.Errorf("reindex: %s could not be read", plural(n, "entry", "entries"))
		}
		return nil
	})
}
