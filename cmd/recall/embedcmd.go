package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/progress"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/setup"
	"github.com/recallhq/recall/store"
)

type embedOptions struct {
	app      *app
	embedder embedderFlags
	s        setup.Embed
}

func newEmbedCmd(a *app) *cobra.Command {
	o := &embedOptions{app: a}
	cmd := documented(&cobra.Command{
		Use: "embed",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef(cmd, "embed takes no arguments")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	})
	o.embedder.register(cmd, false)
	cmd.Flags().IntVar(&o.s.Batch, "batch", 64, "texts per embedding request `N`")
	cmd.Flags().IntVar(&o.s.Concurrency, "concurrency", 2, "embedding requests in flight `N`")
	return cmd
}

func (o *embedOptions) run(cmd *cobra.Command) error {
	emb, opts, err := o.s.Embedder(o.embedder.config(setup.Config{Getenv: o.app.getenv}))
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	return o.app.withStore(ctx, mustExist, func(st store.Store) error {
		bar := &progress.Phases{W: o.app.stderr}
		defer bar.Finish()
		opts.Progress = func(done, total int) { bar.Update("embedding", done, total) }
		opts.Skip = func(err error) { fmt.Fprintf(o.app.stderr, "skipped: %v\n", err) }
		rep, err := service.EmbedAll(ctx, st, emb, opts)
		if err != nil {
			return err
		}
		bar.Finish()
		fmt.Fprintln(o.app.stderr, rep)
		return nil
	})
}
