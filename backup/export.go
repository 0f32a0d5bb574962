package backup

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/store"
	fsstore "github.com/recallhq/recall/store/fs"
)

// Options tune an export. The zero value is the default.
type Options struct {
	// Progress, when set, is called after each entry with how many were
	// written so far. It runs on the export's goroutine.
	Progress func(done int)
}

// Report is what an export or a backup wrote.
type Report struct {
	Entries int // entries written
	// Unreadable are the entries the store could not read (a damaged file
	// or record), each "where: reason"; they are not in the output. An
	// export with unreadable entries is complete for every other entry.
	Unreadable []string
	// Bytes is the size of a snapshot (Backup through store.Snapshotter);
	// zero otherwise.
	Bytes int64
	// Format is what Backup wrote: FormatSnapshot, FormatJSONL or
	// FormatFolder.
	Format Format
}

// WriteJSONL writes every entry of st to w, one JSONL line each in
// identity order (see Sorted), through importer.AppendRecord: exactly
// what `recall import` reads back. It holds one entry (and what the
// store's ordered walk keeps: a chunk, or a folder store's pending
// folders; for a store that is not a store.Sorter, the list of
// identities) in memory, never the store. The error is for the export as a whole (w failed, ctx done,
// the store closed or unavailable); an entry the store cannot read is
// reported in Report.Unreadable and the export goes on.
func WriteJSONL(ctx context.Context, st store.Store, w io.Writer, opts Options) (Report, error) {
	var rep Report
	bw := bufio.NewWriterSize(w, 64<<10)
	var line []byte
	for e, err := range Sorted(ctx, st) {
		if err != nil {
			if whole(ctx, err) {
				return rep, fmt.Errorf("export: %w", err)
			}
			rep.Unreadable = append(rep.Unreadable, err.Error())
			continue
		}
		var aerr error
		if line, aerr = importer.AppendRecord(line[:0], e); aerr != nil {
			rep.Unreadable = append(rep.Unreadable, aerr.Error())
			continue
		}
		if _, err := bw.Write(line); err != nil {
			return rep, fmt.Errorf("export: %w", err)
		}
		rep.Entries++
		if opts.Progress != nil {
			opts.Progress(rep.Entries)
		}
	}
	if err := ctx.Err(); err != nil {
		return rep, fmt.Errorf("export: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return rep, fmt.Errorf("export: %w", err)
	}
	return rep, nil
}

// folderBatch is how many entries WriteFolder hands the folder store at
// once (one directory sync per folder per batch).
const folderBatch = 512

// WriteFolder writes every entry of st as a folder store at dir, which
// must not exist: one markdown file per entry at <dir>/<category>/<name>.md
// with its metadata in YAML front matter (tags, created, updated and
// every other key), the layout `--store DIR` opens and `recall import DIR`
// reads. The folder is built under a temporary name beside dir
// ("<dir>.partial-…"), every file synced, and renamed to dir only when
// complete, so an interrupted export never leaves a dir that looks whole.
// Errors and Unreadable are as for WriteJSONL.
func WriteFolder(ctx context.Context, st store.Store, dir string, opts Options) (Report, error) {
	var rep Report
	if _, err := os.Lstat(dir); err == nil {
		return rep, fmt.Errorf("export: %s already exists", dir)
	} else if !errors.Is(err, os.ErrNotExist) {
		return rep, fmt.Errorf("export: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".partial-")
	if err != nil {
		return rep, fmt.Errorf("export: %w", err)
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	out, err := fsstore.Open(tmp, nil)
	if err != nil {
		return rep, fmt.Errorf("export: %w", err)
	}
	defer out.Close()
	rep, err = copyEntries(ctx, Sorted(ctx, st), out, opts)
	if err != nil {
		return rep, fmt.Errorf("export: %w", err)
	}
	if err := out.Close(); err != nil {
		return rep, fmt.Errorf("export: %w", err)
	}
	// The folder store's own bookkeeping is not part of an export.
	if err := os.RemoveAll(filepath.Join(tmp, ".recall")); err != nil {
		return rep, fmt.Errorf("export: %w", err)
	}
	if err := renameSynced(tmp, dir); err != nil {
		return rep, fmt.Errorf("export: %w", err)
	}
	done = true
	return rep, nil
}

// copyEntries writes entries into dst, through store.Batcher when dst
// offers it, keeping every field (timestamps are given, so none is
// stamped anew).
func copyEntries(ctx context.Context, entries func(func(store.Entry, error) bool), dst store.Store, opts Options) (Report, error) {
	var rep Report
	batcher, _ := dst.(store.Batcher)
	var pending []store.Entry
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		if err := batcher.PutBatch(ctx, pending); err != nil {
			return err
		}
		pending = pending[:0]
		return nil
	}
	for e, err := range entries {
		if err != nil {
			if whole(ctx, err) {
				return rep, err
			}
			rep.Unreadable = append(rep.Unreadable, err.Error())
			continue
		}
		if batcher != nil {
			pending = append(pending, e)
			if len(pending) == folderBatch {
				if err := flush(); err != nil {
					return rep, err
				}
			}
		} else if err := dst.Put(ctx, e); err != nil {
			return rep, fmt.Errorf("%s: %w", e.Key(), err)
		}
		rep.Entries++
		if opts.Progress != nil {
			opts.Progress(rep.Entries)
		}
	}
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	return rep, flush()
}
