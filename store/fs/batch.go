package fs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/recallhq/recall/store"
)

var _ store.Batcher = (*Store)(nil)

// batchWorkers is how many files PutBatch writes at once. Where each file
// is fsynced, the time of a write is mostly that fsync, which the disk
// serves better many at a time, so this is above the core count.
const batchWorkers = 32

// batchChunk is how many entries PutBatch locks, writes and syncs
// together. A chunk holds one open file per worker, never one per entry.
const batchChunk = 1024

// PutBatch writes the entries, each exactly as Put writes one (same
// rendering, same upsert rules), far faster than one Put each. Every entry
// is validated first; if one is invalid nothing is written and the error
// names it. When one identity appears more than once, the last one is
// written.
//
// The distinct identities are sorted and written in chunks of up to
// batchChunk. For each chunk PutBatch takes every entry's lock (see
// lockEntries for the order that keeps it deadlock-free), writes all the
// temp files in parallel, makes them durable, renames each over its
// entry's file, fsyncs each folder it renamed into once, and releases the
// locks. The temp files are made durable by one syncfs(2) of the file
// system where canSyncFS allows it, else by an fsync of each file as it is
// written (so is a file on another file system than the root's, in a
// category folder that is a mount point: the root's syncfs misses it).
//
// After a crash mid-batch each entry is absent (or its old version) or
// complete: no file is renamed into place before its content is durable,
// and a crash before the rename leaves only a hidden temp file, which the
// next Open removes once it is old. When PutBatch returns nil every entry
// is durable. On an error some chunks (or entries of the failing chunk
// renamed before the failure) may have been written, each complete; the
// error names the entry that failed, and the failing chunk's temp files
// are removed.
func (s *Store) PutBatch(ctx context.Context, entries []store.Entry) error {
	if err := s.check(ctx, "put batch"); err != nil {
		return err
	}
	entries = slices.Clone(entries)
	for i := range entries {
		entries[i] = store.Normalize(entries[i])
		e := entries[i]
		if err := store.Validate(e); err != nil {
			return fmt.Errorf("put batch: entry %d: %w", i, err)
		}
		if err := checkKey(e.Category, e.Name); err != nil {
			return fmt.Errorf("put batch: entry %d: %w", i, err)
		}
		if err := checkMeta(e.Meta); err != nil {
			return fmt.Errorf("put batch: entry %d %s: %w", i, e.Key(), metaFieldError(err))
		}
		if err := checkRendered(e); err != nil {
			return fmt.Errorf("put batch: entry %d %s: %w", i, e.Key(), err)
		}
	}
	// The last write of each identity wins.
	last := make(map[store.Key]int, len(entries))
	for i, e := range entries {
		last[e.Key()] = i
	}
	todo := make([]store.Entry, 0, len(last))
	for i, e := range entries {
		if last[e.Key()] == i {
			todo = append(todo, e)
		}
	}
	slices.SortFunc(todo, func(a, b store.Entry) int {
		return cmp.Or(strings.Compare(a.Category, b.Category), strings.Compare(a.Name, b.Name))
	})
	if err := s.checkBatchCase(todo); err != nil {
		return fmt.Errorf("put batch: %w", err)
	}
	for chunk := range slices.Chunk(todo, batchChunk) {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("put batch: %w", err)
		}
		if err := s.putChunk(ctx, chunk); err != nil {
			return fmt.Errorf("put batch: %w", err)
		}
	}
	return nil
}

// putChunk writes es (sorted, distinct identities) as PutBatch describes.
func (s *Store) putChunk(ctx context.Context, es []store.Entry) error {
	keys := make([]store.Key, len(es))
	for i, e := range es {
		keys[i] = e.Key()
	}
	unlock, err := s.lockEntries(ctx, keys)
	if err != nil {
		return err
	}
	defer unlock()

	// Opened before any temp file is written: syncfs reports the
	// writeback errors of its file system since this open.
	useSyncFS := s.syncFS
	var root *os.File
	if useSyncFS {
		if root, err = os.Open(s.root); err != nil {
			return fmt.Errorf("%w: root folder %s: %v", store.ErrUnavailable, s.root, err)
		}
		defer root.Close()
	}

	temps := make([]tempFile, len(es))
	var (
		mu       sync.Mutex
		firstErr error
		failedAt = len(es)
		next     atomic.Int64
		wg       sync.WaitGroup
	)
	for range min(batchWorkers, len(es)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(es) {
					return
				}
				mu.Lock()
				stop := firstErr != nil
				mu.Unlock()
				if stop || ctx.Err() != nil {
					return
				}
				t, err := s.writeChunkFile(es[i], !useSyncFS)
				if err != nil {
					mu.Lock()
					if i < failedAt {
						firstErr, failedAt = err, i
					}
					mu.Unlock()
					continue
				}
				temps[i] = t
			}
		}()
	}
	wg.Wait()
	removeTemps := func(ts []tempFile) {
		for _, t := range ts {
			if t.tmp != "" {
				os.Remove(t.tmp)
			}
		}
	}
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	if firstErr != nil {
		removeTemps(temps)
		return firstErr
	}
	if useSyncFS {
		if err := syncFS(root); err != nil {
			removeTemps(temps)
			return fmt.Errorf("sync %s: %w", s.root, err)
		}
	}
	// Every temp file is durable: rename them into place. The renames
	// are visible at once, so each counts in the feed as it happens, even
	// if a later step fails.
	dirs := map[string]bool{}
	for i, t := range temps {
		if err := s.commitTemp(t); err != nil {
			firstErr = fmt.Errorf("put %s: %w", es[i].Key(), err)
			removeTemps(temps[i+1:])
			break
		}
		s.feed.Add(es[i].Key())
		dirs[filepath.Dir(t.final)] = true
	}
	// Sync every folder renamed into, even after a failure, so the
	// entries that did land are durable.
	for dir := range dirs {
		if err := syncDir(dir); err != nil && !errors.Is(err, iofs.ErrNotExist) && firstErr == nil {
			// A folder a concurrent Delete removed took its entries with it.
			firstErr = fmt.Errorf("sync %s: %w", dir, err)
		}
	}
	return firstErr
}

// checkBatchCase is checkCase among the entries of one batch: on a
// case-insensitive file system two of them whose paths differ only by case
// at some level would be one file (or one folder) there, and the later
// rename would replace the other acknowledged entry. checkCase, at each
// write, sees only what is on disk already.
func (s *Store) checkBatchCase(es []store.Entry) error {
	if s.foldsCase() != CaseInsensitive {
		return nil
	}
	seen := make(map[string]string, len(es)) // folded path prefix -> its spelling
	for _, e := range es {
		var segs []string
		if e.Category != RootCategory {
			segs = strings.Split(store.CategoryPath(e.Category), "/")
		}
		segs = append(segs, store.UnescapeName(e.Name)+ext)
		for i := range segs {
			p := strings.Join(segs[:i+1], "/")
			f := strings.ToLower(strings.ToUpper(p))
			q, ok := seen[f]
			if !ok {
				seen[f] = p
				continue
			}
			if q == p || !strings.EqualFold(q, p) {
				continue
			}
			field, value := "category", e.Category
			if i == len(segs)-1 {
				field, value = "name", e.Name
			}
			return &store.FieldError{Field: field, Value: value,
				Reason: fmt.Sprintf("differs only by case from %q in the same batch, and this folder's file system does not tell case apart", strings.TrimSuffix(q, ext))}
		}
	}
	return nil
}

// writeChunkFile renders e (whose lock the caller holds) and writes its temp
// file, fsynced when sync is set.
func (s *Store) writeChunkFile(e store.Entry, sync bool) (tempFile, error) {
	w, err := s.renderLocked(e)
	if err != nil {
		return tempFile{}, err
	}
	t, err := s.writeTemp(w.dir, w.base, w.data, w.perm, sync)
	if err != nil {
		return tempFile{}, fmt.Errorf("put %s: %w", e.Key(), err)
	}
	return t, nil
}

// checkRendered refuses, before anything is written, an entry whose front
// matter would exceed the limit writeFileLocked enforces, so that a batch
// with such an entry writes nothing. Timestamps render at a fixed width,
// so stamping them with now measures what the write will render.
func checkRendered(e store.Entry) error {
	m := e.Meta
	now := time.Now().UTC().Truncate(time.Second)
	if m.Created.IsZero() {
		m.Created = now
	}
	if m.Updated.IsZero() {
		m.Updated = now
	}
	data, err := renderFile(m, "")
	if err != nil {
		return metaFieldError(err)
	}
	if len(data) > maxFrontMatterBytes {
		return &store.FieldError{Field: "meta", Value: "front matter",
			Reason: fmt.Sprintf("is %d bytes, the limit is %d", len(data), maxFrontMatterBytes)}
	}
	return nil
}
