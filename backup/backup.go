package backup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
)

// Format is the kind of file or folder a backup is.
type Format int

const (
	// FormatSnapshot is the backend's own consistent copy
	// (store.Snapshotter; bolt: a .db file).
	FormatSnapshot Format = iota + 1
	// FormatJSONL is recall's JSONL, one entry per line (WriteJSONL).
	FormatJSONL
	// FormatFolder is a folder store of markdown files (WriteFolder).
	FormatFolder
	// FormatBolt is a bolt store file holding a copy of the entries, the
	// .db backup of a store that is no store.Snapshotter (an export into
	// bolt: each entry whole; one instant only from PostgreSQL).
	FormatBolt
)

func (f Format) String() string {
	switch f {
	case FormatSnapshot:
		return "snapshot"
	case FormatJSONL:
		return "jsonl"
	case FormatFolder:
		return "folder"
	case FormatBolt:
		return "bolt"
	}
	return "unknown"
}

// FormatFor is the format a backup at dest takes, by its name, as
// --store reads a path: a name ending in .jsonl or .ndjson is JSONL, one
// ending in .db a snapshot (FormatBolt from a store that is no
// store.Snapshotter), anything else a folder.
func FormatFor(dest string) Format {
	switch strings.ToLower(filepath.Ext(dest)) {
	case ".jsonl", ".ndjson":
		return FormatJSONL
	case ".db":
		return FormatSnapshot
	}
	return FormatFolder
}

// ErrExists is wrapped by Backup's error when dest exists: a backup never
// replaces anything.
var ErrExists = errors.New("already exists")

// Backup writes a backup of st, which may be in use by others (a running
// server, other processes), at dest, which must not exist, in the format
// FormatFor(dest) names:
//
//   - dest ending in .db: st's consistent copy of one instant through
//     store.Snapshotter (bolt); from a store that is no Snapshotter (a
//     folder, PostgreSQL), a bolt store file of its entries (FormatBolt),
//     written under a temporary name as the others;
//   - JSONL: WriteJSONL;
//   - a folder: WriteFolder.
//
// Every backup of a PostgreSQL store is one instant (its AllSorted reads
// one REPEATABLE READ transaction). A JSONL or folder backup of a bolt or
// folder store is consistent per entry (each entry is whole, as one read
// sees it) but not across entries: entries written while it runs may or
// may not be in it. For PostgreSQL, pg_dump gives a copy of the whole
// database (see the README).
//
// Nothing at dest looks complete until it is: a file is written under a
// temporary name beside dest ("<dest>.partial-…"), synced, and renamed
// (then the directory synced); a folder likewise (WriteFolder). A process
// killed mid-way leaves at most the temporary, never dest.
func Backup(ctx context.Context, st store.Store, dest string, opts Options) (Report, error) {
	format := FormatFor(dest)
	if _, err := os.Lstat(dest); err == nil {
		return Report{Format: format}, fmt.Errorf("backup: %s %w", dest, ErrExists)
	} else if !errors.Is(err, os.ErrNotExist) {
		return Report{Format: format}, fmt.Errorf("backup: %w", err)
	}
	var (
		rep Report
		err error
	)
	switch format {
	case FormatFolder:
		rep, err = WriteFolder(ctx, st, dest, opts)
	case FormatJSONL:
		err = writeFileAtomic(dest, func(w io.Writer) error {
			var werr error
			rep, werr = WriteJSONL(ctx, st, w, opts)
			return werr
		})
	case FormatSnapshot:
		snap, ok := st.(store.Snapshotter)
		if !ok {
			format = FormatBolt
			rep, err = writeBolt(ctx, st, dest, opts)
			break
		}
		err = writeFileAtomic(dest, func(w io.Writer) error {
			var werr error
			rep.Bytes, werr = snap.WriteSnapshot(ctx, w)
			return werr
		})
	}
	rep.Format = format
	if err != nil && !strings.HasPrefix(err.Error(), "backup") && !strings.HasPrefix(err.Error(), "export") {
		err = fmt.Errorf("backup: %w", err)
	}
	return rep, err
}

// writeBolt exports st's entries into a new bolt store file at dest,
// built under a temporary name, synced (bolt syncs each commit) and
// renamed when complete.
func writeBolt(ctx context.Context, st store.Store, dest string, opts Options) (Report, error) {
	f, err := os.CreateTemp(filepath.Dir(dest), filepath.Base(dest)+".partial-")
	if err != nil {
		return Report{}, err
	}
	tmp := f.Name()
	f.Close()
	os.Remove(tmp) // bolt creates the file itself, mode 0600
	ok := false
	defer func() {
		if !ok {
			os.Remove(tmp)
		}
	}()
	out, err := boltstore.Open(tmp, nil)
	if err != nil {
		return Report{}, err
	}
	rep, err := copyEntries(ctx, Sorted(ctx, st), out, opts)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return rep, err
	}
	if err := renameSynced(tmp, dest); err != nil {
		return rep, err
	}
	ok = true
	return rep, nil
}

// writeFileAtomic writes a file at path through fill: into a temporary
// file beside it, synced, renamed over nothing (Backup checked that path
// is free), and the directory synced. On error the temporary is removed.
func writeFileAtomic(path string, fill func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".partial-")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := f.Chmod(0o600); err != nil { // memories are personal
		return err
	}
	if err := fill(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := renameSynced(tmp, path); err != nil {
		return err
	}
	ok = true
	return nil
}

// renameSynced renames from to to, refusing when to exists, and syncs
// the directory so that the rename survives a crash. (Between the check
// and the rename another process could create to; a backup's name is the
// user's own choice, so this is not guarded further.)
func renameSynced(from, to string) error {
	if _, err := os.Lstat(to); err == nil {
		return fmt.Errorf("%s %w", to, ErrExists)
	}
	if err := os.Rename(from, to); err != nil {
		return err
	}
	return syncDir(filepath.Dir(to))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
