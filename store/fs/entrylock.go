package fs

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"

	"github.com/recallhq/recall/store"
)

// Entry locks. Every write to an entry (Put, Delete, Update) holds the
// entry's lock from before it reads the old file until after the rename:
// within the process a mutex per key (keyLocks), across processes a lock on
// <root>/.recall/lock that the kernel drops when its holder dies, so a
// crashed writer never leaves an entry locked. On Linux the cross-process
// lock is an open-file-description byte-range lock on one byte chosen by
// the key's hash (writes to different entries rarely wait for each other);
// elsewhere it is a flock of the whole file.

// lockSlots is how many bytes of the lock file the keys hash onto.
const lockSlots = 1 << 20

// testHookLockWait, when set by a test, is called with the slot's offset
// each time a cross-process slot lock finds the slot held and starts to
// wait (Linux only).
var testHookLockWait func(off int64)

func (s *Store) lockPath() string { return filepath.Join(s.root, ".recall", "lock") }

func lockSlot(k store.Key) int64 {
	h := fnv.New64a()
	h.Write([]byte(k.Category))
	h.Write([]byte{0})
	h.Write([]byte(k.Name))
	return int64(h.Sum64() % lockSlots)
}

// lockEntry blocks until the caller holds k's lock in this process and
// across processes, or ctx ends.
func (s *Store) lockEntry(ctx context.Context, k store.Key) (unlock func(), err error) {
	if err := s.checkRecallDir(filepath.Dir(s.lockPath())); err != nil {
		return nil, fmt.Errorf("lock %s: %w", k, err)
	}
	release := s.locks.lock(k)
	if err := os.MkdirAll(filepath.Dir(s.lockPath()), 0o755); err != nil {
		release()
		return nil, fmt.Errorf("lock %s: %w", k, err)
	}
	xunlock, err := lockRange(ctx, s.lockPath(), lockSlot(k))
	if err != nil {
		release()
		return nil, fmt.Errorf("lock %s: %w", k, err)
	}
	return func() { xunlock(); release() }, nil
}

// lockEntries is lockEntry for many keys at once (PutBatch): it returns
// once the caller holds every key's lock, in this process and across
// processes. keys must be sorted and distinct.
//
// Deadlock-free by order: first every in-process mutex, in key order, then
// every cross-process slot, in slot order, on one open file description
// (two keys on one slot take it once). A holder of any slot therefore
// holds all its mutexes and waits only for slots, which everyone takes in
// ascending order; a single-entry writer holds at most one slot and waits
// for nothing while holding it.
func (s *Store) lockEntries(ctx context.Context, keys []store.Key) (unlock func(), err error) {
	if err := s.checkRecallDir(filepath.Dir(s.lockPath())); err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	releases := make([]func(), 0, len(keys))
	releaseAll := func() {
		for i := len(releases) - 1; i >= 0; i-- {
			releases[i]()
		}
	}
	for _, k := range keys {
		releases = append(releases, s.locks.lock(k))
	}
	if err := os.MkdirAll(filepath.Dir(s.lockPath()), 0o755); err != nil {
		releaseAll()
		return nil, fmt.Errorf("lock: %w", err)
	}
	slots := make([]int64, len(keys))
	for i, k := range keys {
		slots[i] = lockSlot(k)
	}
	slices.Sort(slots)
	xunlock, err := lockRanges(ctx, s.lockPath(), slices.Compact(slots))
	if err != nil {
		releaseAll()
		return nil, fmt.Errorf("lock: %w", err)
	}
	return func() { xunlock(); releaseAll() }, nil
}
