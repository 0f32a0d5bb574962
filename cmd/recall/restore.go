package main

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/backup"
	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/store"
)

type restoreOptions struct {
	app   *app
	force bool
}

func newRestoreCmd(a *app) *cobra.Command {
	o := &restoreOptions{app: a}
	cmd := documented(&cobra.Command{
		Use:  "restore BACKUP",
		Args: exactArgs("BACKUP"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), args[0])
		},
	})
	cmd.Flags().BoolVar(&o.force, "force", false, "restore into a store that holds entries, replacing them all")
	return cmd
}

func (o *restoreOptions) run(ctx context.Context, src string) error {
	entries, closeSrc, err := o.open(ctx, src)
	if err != nil {
		return err
	}
	defer closeSrc()
	return o.app.withStore(ctx, create, func(st store.Store) error {
		rep, err := backup.Restore(ctx, entries, st, backup.RestoreOptions{Force: o.force})
		render.WriteUnreadable(o.app.stderr, rep.Unreadable)
		if errors.Is(err, backup.ErrNotEmpty) {
			return fmt.Errorf("%w; --force replaces what it holds with the backup", err)
		}
		if err != nil {
			return err
		}
		render.WriteRestoreSummary(o.app.stderr, rep)
		if n := len(rep.Unreadable); n > 0 {
			return fmt.Errorf("%s of the backup could not be read", plural(n, "entry", "entries"))
		}
		return nil
	})
}

// open reads the backup: a JSONL file's lines, or a store's entries.
func (o *restoreOptions) open(ctx context.Context, src string) (iter.Seq2[store.Entry, error], func(), error) {
	if backup.FormatFor(src) == backup.FormatJSONL {
		f, err := os.Open(src)
		if err != nil {
			return nil, nil, fmt.Errorf("restore: %w", err)
		}
		defer f.Close()
		entries, err := backup.ReadJSONL(ctx, f, src)
		if err != nil {
			return nil, nil, fmt.Errorf("restore %w", err)
		}
		return entries, func() {}, nil
	}
	if loc, err := o.app.storeLocation(); err == nil && loc == src {
		return nil, nil, fmt.Errorf("restore %s: that is the store itself", src)
	}
	st, err := o.app.openStoreAt(ctx, src, mustExist)
	if err != nil {
		return nil, nil, fmt.Errorf("restore: %w", err)
	}
	return st.All(ctx), func() { st.Close() }, nil
}
