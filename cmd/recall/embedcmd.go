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
	app         *app
	embedder    embedderFlags
	batch       int
	concurrency int
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
	cmd.Flags().IntVar(&o.batch, "batch", 64, "texts per embedding request `N`")
	cmd.Flags().IntVar(&o.concurrency, "concurrency", 2, "embedding requests in flight `N`")
	return cmd
}

func (o *embedOptions) run(cmd *cobra.Command) error {
	if o.batch < 1 || o.concurrency < 1 {
		return usagef(cmd, "--batch and --concurrency must be at least 1")
	}
	emb, err := o.embedder.config(setup.Config{Getenv: o.app.getenv}).NewEmbedder()
	if err != nil {
		return err
	}
	if emb == nil {
		return usagef(cmd, "choose an embedder with --embedder (hash works offline)")
	}
	ctx := cmd.Context()
	return o.app.withStore(ctx, mustExist, func(st store.Store) error {
		bar := &progress.Phases{W: o.app.stderr}
		defer bar.Finish()
		rep, err := service.EmbedAll(ctx, st, emb, service.EmbedOptions{BatchSize: o.batch, Concurrency: o.concurrency,
			Progress: func(done, total int) { bar.Update("embedding", done, total) },
			Skip:     func(err error) { fmt.Fprintf(o.app.stderr, "skipped: %v\n", err) }})
		if err != nil {
			return err
		}
		bar.Finish()
		fmt.Fprintln(o.app.stderr, rep)
		return nil
	})
}
