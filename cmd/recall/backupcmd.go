package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/backup"
	"github.com/recallhq/recall/store"
)

func newBackupCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "backup DEST",
		Short: "Write a backup of the store, safe while it is in use",
		Long: `Backup writes a copy of the store at DEST, which must not exist, while other
processes go on using the store. DEST's name chooses the format:

  - DEST ending in .db: for a bolt store, a consistent copy of the whole
    file as one read transaction sees it (vector caches and index copy
    included); for a folder or PostgreSQL store, a bolt file of its
    entries. '--store DEST' opens either;
  - DEST ending in .jsonl or .ndjson: every entry as JSONL ('recall export');
  - any other DEST: a folder of markdown files ('recall export --output').

A backup of a PostgreSQL store is one instant (one REPEATABLE READ
transaction). A JSONL or folder backup of a bolt or folder store holds each
entry whole, but entries written while it runs may or may not be in it. Nothing at DEST looks complete before it
is: the backup is written under a temporary name beside DEST, synced to
disk and renamed. A bolt file that a running 'recall serve' holds cannot
be opened by a second process: fetch its backup from the server instead
(GET /v1/backup). For a whole PostgreSQL database, pg_dump is the tool;
'recall backup x.jsonl' copies recall's entries. Restore with 'recall
restore'.`,
		Example: `  recall --store memory.db backup memory-2026-12-03.db
  recall --store ~/notes/memory backup ~/backups/memory-2026-12-03.jsonl
  curl -fsS -H "Authorization: Bearer $TOKEN" http://127.0.0.1:7411/v1/backup -o memory-backup.db`,
		Args: exactArgs("DEST"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBackup(cmd.Context(), a, args[0])
		},
	}
	return cmd
}

func runBackup(ctx context.Context, a *app, dest string) error {
	err := a.withStore(ctx, mustExist, func(st store.Store) error {
		rep, err := backup.Backup(ctx, st, dest, backup.Options{})
		if err == nil && rep.Format == backup.FormatSnapshot {
			fmt.Fprintf(a.stderr, "backup %s: snapshot of %d bytes\n", dest, rep.Bytes)
			return nil
		}
		return a.reportExport("backup "+dest+": "+rep.Format.String()+",", rep, err)
	})
	if errors.Is(err, store.ErrLocked) {
		return fmt.Errorf("%w; a running 'recall serve' serves a backup of it at GET /v1/backup", err)
	}
	return err
}
