package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/backup"
	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/location"
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
	if loc, err := o.app.storeLocation(); err == nil && loc == src && backup.FormatFor(src) != backup.FormatJSONL {
		return fmt.Errorf("restore %s: that is the store itself", src)
	}
	entries, done, err := backup.Open(ctx, src, func(ctx context.Context, name string) (store.Store, error) {
		opts := o.app.locationOptions(false)
		st, _, err := location.Open(ctx, name, &opts)
		return st, err
	})
	if err != nil {
		return err
	}
	defer done()
	return o.app.withStore(ctx, create, func(st store.Store) error {
		rep, err := backup.Restore(ctx, entries, st, backup.RestoreOptions{Force: o.force})
		if errors.Is(err, backup.ErrNotEmpty) {
			err = fmt.Errorf("%w; --force replaces what it holds with the backup", err)
		}
		return render.WriteRestoreReport(o.app.stderr, rep, err)
	})
}
