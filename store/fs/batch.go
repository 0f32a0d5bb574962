package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"slices"
	"sync"
	"time"

	"github.com/recallhq/recall/store"
)

var _ store.Batcher = (*Store)(nil)

// batchWorkers is how many files PutBatch writes at once. The time of a
// write is mostly its fsync, which the disk and the file system's journal
// serve better many at a time, so this is above the core count.
const batchWorkers = 32

// PutBatch writes the entries' files in parallel, each exactly as Put
// writes one (writeFileLocked: same entry lock, temp file, fsync, rename,
// same upsert rules), and then fsyncs each folder it wrote into once,
// instead of once per entry. Every entry is validated first; if one is
// invalid nothing is written and the error names it. When one identity
// appears more than once, the last one is written.
//
// After a crash mid-batch each entry is absent (or its old version) or
// complete: a file is renamed into place only once its content is synced.
// When PutBatch returns nil every entry is durable. On an error some
// entries may have been written (each complete); the error names the
// first that failed.
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
		if err := checkMeta(e.Meta); err != nil {
			return fmt.Errorf("put batch: entry %d %s: %w", i, e.Key(), metaFieldError(err))
		}
		if err := checkRendered(e); err != nil {
			return fmt.Errorf("put batch: entry %d %s: %w", i, e.Key(), err)
		}
	}
	// The last write of each identity wins; workers never race on one.
	last := make(map[store.Key]int, len(entries))
	for i, e := range entries {
		last[e.Key()] = i
	}
	jobs := make(chan int)
	var (
		mu       sync.Mutex
		dirs     = map[string]bool{}
		firstErr error
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}
	for range min(batchWorkers, len(last)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				e := entries[i]
				unlock, err := s.lockEntry(ctx, e.Key())
				if err != nil {
					fail(fmt.Errorf("put batch: %s: %w", e.Key(), err))
					continue
				}
				dir, err := s.writeFileLocked(e)
				unlock()
				if err != nil {
					fail(fmt.Errorf("put batch: %w", err))
					continue
				}
				mu.Lock()
				dirs[dir] = true
				mu.Unlock()
			}
		}()
	}
	for i, e := range entries {
		if last[e.Key()] != i {
			continue
		}
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	// Sync every folder written into, even after a failure, so the
	// entries that did land are durable.
	for dir := range dirs {
		if err := syncDir(dir); err != nil && !errors.Is(err, iofs.ErrNotExist) {
			// A folder a concurrent Delete removed took its entries with it.
			fail(fmt.Errorf("put batch: sync %s: %w", dir, err))
		}
	}
	if firstErr == nil && ctx.Err() != nil {
		return fmt.Errorf("put batch: %w", ctx.Err())
	}
	return firstErr
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
