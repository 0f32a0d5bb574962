package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/backup"
	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/store"
)

func newBackupCmd(a *app) *cobra.Command {
	cmd := documented(&cobra.Command{
		Use:  "backup DEST",
		Args: exactArgs("DEST"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBackup(cmd.Context(), a, args[0])
		},
	})
	return cmd
}

func runBackup(ctx context.Context, a *app, dest string) error {
	err := a.withStore(ctx, mustExist, func(st store.Store) error {
		rep, err := backup.Backup(ctx, st, dest, backup.Options{})
		return render.WriteBackupReport(a.stderr, dest, rep, err)
	})
	if errors.Is(err, store.ErrLocked) {
		return fmt.Errorf("%w; a running 'recall serve' serves a backup of it at GET /v1/backup", err)
	}
	return err
}
