package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/embed/cache"
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
		be, ok := st.(cache.Backend)
		if !ok {
			return errors.New("this store cannot hold vectors")
		}
		skipped := 0
		texts, err := service.IndexedTexts(ctx, st, func(err error) {
			fmt.Fprintf(o.app.stderr, "skipped: %v\n", err)
			skipped++
		})
		if err != nil {
			return err
		}
		c := cache.New(emb, be, cache.Options{BatchSize: o.batch, Concurrency: o.concurrency})
		bar := progress.New(o.app.stderr, len(texts), "embedding")
		start := time.Now()
		stats, err := c.Sync(ctx, texts, func(done, total int) {
			if bar != nil {
				_ = bar.Set(done)
			}
		})
		if bar != nil {
			_ = bar.Finish()
		}
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("interrupted after embedding %d of %d; run it again to continue", stats.Embedded, stats.Texts-stats.Cached)
			}
			return fmt.Errorf("embed with %s: %w (%d embedded before the error are kept)", c.Model(), err, stats.Embedded)
		}
		fmt.Fprintf(o.app.stderr, "%s: %d entries, %d already cached, %d embedded, %d stale vectors dropped, %d skipped (%s)\n",
			c.Model(), stats.Texts, stats.Cached, stats.Embedded, stats.Pruned, skipped, time.Since(start).Round(time.Millisecond))
		return nil
	})
}
