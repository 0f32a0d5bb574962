package bolt

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"
	"unsafe"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

// Mapped copies (store.IndexMapper). MapIndex maps the current copy's
// bytes of the file read-only, apart from bbolt's own map (which bbolt
// replaces when the file grows), and hands them to the caller, who points
// into them for as long as the process lives. Two rules keep those bytes
// as they were:
//
//   - a mapping is never unmapped once a caller kept it;
//   - a copy this process mapped is never deleted by it (SaveIndex leaves
//     it, mappedMu orders the two), so bbolt never frees its pages, and
//     only one process has the file open for writing (bbolt's lock). The
//     first save of a later process drops it.
//
// So a server that saves a newer copy keeps the one it mapped in the file
// as well, until it exits: the file holds one copy more than it needs.
// The mappings live in a table of the process, by file and copy key, so
// that a store closed and opened again in the same process (a server's
// memories come and go) maps a copy once and still never deletes it.

var (
	mappedMu sync.Mutex
	mapped   = map[mapKey]mapping{}
)

// mapping is one copy's mapping: the whole of it (page-aligned), and the
// copy's offset and length in the file it was made for.
type mapping struct {
	region []byte
	off    int64
	n      int
}

type mapKey struct {
	dev, ino uint64
	key      [8]byte
}

var _ store.IndexMapper = (*Store)(nil)

// pinned reports whether this process mapped the copy under key; callers
// hold mappedMu.
func (s *Store) pinned(key []byte) bool {
	if len(key) != 8 || !s.ident.ok {
		return false
	}
	_, ok := mapped[mapKey{s.ident.dev, s.ident.ino, [8]byte(key)}]
	return ok
}

// fileIdent is the store file's device and inode, taken at Open.
type fileIdent struct {
	dev, ino uint64
	ok       bool
}

func identify(path string) fileIdent {
	st, ok := stampFile(path)
	return fileIdent{st.dev, st.ino, ok}
}

// MapIndex calls open with the current copy mapped (store.IndexMapper).
// release drops whole pages of what it is given from the process's
// resident set (they stay in the page cache, and come back on first
// touch), so that a reader that checked the whole copy holds only what it
// reads afterwards.
func (s *Store) MapIndex(ctx context.Context, open func(data []byte, rev uint64, release func([]byte)) error) error {
	return s.mapIndex(ctx, false, func(data []byte, rev uint64, _ bool, release func([]byte)) error {
		return open(data, rev, release)
	})
}

var _ store.CheckedIndexMapper = (*Store)(nil)

// MapCheckedIndex is MapIndex with the copy's record (indexrecord.go):
// checked is true when <path>.verified-index says this very copy was
// checked whole with the file in its present state, and a call with
// checked false whose open returns nil is recorded.
func (s *Store) MapCheckedIndex(ctx context.Context, open func(data []byte, rev uint64, checked bool, release func([]byte)) error) error {
	return s.mapIndex(ctx, true, open)
}

// mapIndex is MapIndex and, with records, MapCheckedIndex.
func (s *Store) mapIndex(ctx context.Context, records bool, open func(data []byte, rev uint64, checked bool, release func([]byte)) error) error {
	if !s.ident.ok || !canMap {
		return fmt.Errorf("map index %s: %w", s.path, store.ErrNotMapped)
	}
	var (
		mk      mapKey
		region  []byte
		data    []byte
		rev     uint64
		fresh   bool
		old     mapping // what mapped held for mk before, if had
		had     bool
		found   bool
		mapErr  error
		aligned = true
	)
	// The stamp before the copy is read: a write during the check makes
	// the one after it unequal, and nothing is recorded.
	var (
		stamp   fileStamp
		stamped bool
		start   time.Time
	)
	if records {
		stamp, stamped = stampFile(s.path)
		start = time.Now()
	}
	mappedMu.Lock()
	err := s.use(ctx, "map index", func() error {
		return s.db.View(func(tx *bbolt.Tx) error {
			key, v, crev, own := currentIndex(tx)
			if key == nil {
				return nil
			}
			found, rev = true, crev
			mk = mapKey{s.ident.dev, s.ident.ino, [8]byte(key)}
			// A copy small enough to sit in an inline bucket is not in the
			// map but in memory bbolt copied it to: leave it to ViewIndex.
			off := int64(uintptr(unsafe.Pointer(unsafe.SliceData(v))) - s.db.Info().Data)
			if fi, err := os.Stat(s.path); !own || err != nil || off < 0 || off+int64(len(v)) > fi.Size() || off%8 != 0 {
				aligned = false
				return nil
			}
			start := off &^ (int64(osPageSize) - 1)
			// The same copy mapped before, by a Store of this file that was
			// closed since, is mapped once; a copy that moved (the file was
			// written by other means meanwhile) is mapped again.
			if m, ok := mapped[mk]; ok && m.off == off && m.n == len(v) {
				region = m.region
			} else {
				region, mapErr = mapFile(s.path, start, int(off-start)+len(v))
				if mapErr != nil {
					return nil
				}
				fresh = true
				old, had = m, ok
				mapped[mk] = mapping{region, off, len(v)}
			}
			data = region[off-start : off-start+int64(len(v))]
			return nil
		})
	})
	mappedMu.Unlock()
	switch {
	case err != nil:
		return err
	case !found:
		return nil
	case !aligned:
		return fmt.Errorf("map index %s: %w (copy not in the file's map, or not 8-aligned there)", s.path, store.ErrNotMapped)
	case mapErr != nil:
		return fmt.Errorf("map index %s: %w (%v)", s.path, store.ErrNotMapped, mapErr)
	}
	var mark copyMark
	checked := false
	if stamped {
		mark = markOf(mk.key, data)
		checked = indexCheckedBefore(s.path, stamp, mark)
	}
	if err := open(data, rev, checked, dropResident); err != nil {
		if fresh {
			mappedMu.Lock()
			if had {
				mapped[mk] = old
			} else {
				delete(mapped, mk)
			}
			mappedMu.Unlock()
			unmapFile(region)
		}
		return err
	}
	if stamped && !checked {
		recordIndexChecked(s.path, stamp, start, mark)
	}
	return nil
}
