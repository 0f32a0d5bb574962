package bolt

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

// The index cache (store.IndexCache): one value in its own bucket, the
// revision it was made at (8 bytes, big endian), the length of the
// caller's data (8 bytes, big endian), the data, and zeros up to a
// multiple of 8 bytes. It lives in the file, so it follows the file
// wherever it goes: a copy or a restored backup carries the cache of its
// own revision, and the revision (bucketMeta's sequence, which only rises)
// tells how far behind the store a copy is; the change history
// (history.go) names what was written since.
//
// Each copy is kept in a bucket of its own (named by 8 random bytes, the
// first one 1; the value under keyData), and keyCurrent names the current
// one: a copy that a process has mapped (MapIndex, indexmap.go) stays in
// the file, untouched, while that process lives, even when a newer copy is
// saved; the next save after it drops it. Its own bucket is what keeps it
// untouched: bbolt copies a page on write, so a value sharing a leaf with
// a key that changes moves with that leaf, while a bucket nobody writes
// keeps its pages. A key and lengths of 8 bytes keep every copy's data at
// a multiple of 8 in the file, as a reader pointing into it needs.
// The bucket is created on the first save; files without it are as valid,
// and a copy of an earlier layout (under the key "snapshot") is dropped by
// the next save.

var (
	bucketIndex = []byte("recall.index")
	keyCurrent  = []byte("current")
	keyData     = []byte("copydata")
)

var (
	_ store.IndexCache  = (*Store)(nil)
	_ store.IndexViewer = (*Store)(nil)
)

const indexValueHeader = 16

// maxIndexValue is the largest copy kept: bbolt's limit for one value.
const maxIndexValue = bbolt.MaxValueSize - indexValueHeader - 8

// SaveIndex keeps data as the copy made at revision rev if rev is still
// the store's revision (store.IndexCache). It does not move the revision.
// A copy too large for one value is not kept.
func (s *Store) SaveIndex(ctx context.Context, rev uint64, data []byte) error {
	if len(data) > maxIndexValue {
		return nil
	}
	return s.use(ctx, "save index", func() error {
		// Drop the old copies in a transaction of their own first: pages
		// freed by a commit are reusable only by later transactions, so the
		// new copy can take the old one's place instead of growing the file
		// by its size at every save. A copy this process mapped stays.
		mappedMu.Lock()
		err := s.db.Update(func(tx *bbolt.Tx) error {
			b := tx.Bucket(bucketIndex)
			if b == nil {
				return nil
			}
			var drop, dropBuckets [][]byte
			_ = b.ForEach(func(k, v []byte) error {
				switch {
				case bytes.Equal(k, keyCurrent), s.pinned(k):
				case v == nil:
					dropBuckets = append(dropBuckets, bytes.Clone(k))
				default:
					drop = append(drop, bytes.Clone(k))
				}
				return nil
			})
			for _, k := range drop {
				if err := b.Delete(k); err != nil {
					return err
				}
			}
			for _, k := range dropBuckets {
				if err := b.DeleteBucket(k); err != nil {
					return err
				}
			}
			return nil
		})
		mappedMu.Unlock()
		if err != nil {
			return err
		}
		return s.db.Update(func(tx *bbolt.Tx) error {
			if tx.Bucket(bucketMeta).Sequence() != rev {
				return nil
			}
			b, err := tx.CreateBucketIfNotExists(bucketIndex)
			if err != nil {
				return err
			}
			key := make([]byte, 8)
			_, _ = rand.Read(key)
			key[0] = 1
			v := make([]byte, indexValueHeader, indexValueHeader+len(data)+8)
			binary.BigEndian.PutUint64(v, rev)
			binary.BigEndian.PutUint64(v[8:], uint64(len(data)))
			v = append(v, data...)
			v = append(v, make([]byte, (8-len(v)%8)%8)...)
			c, err := b.CreateBucket(key)
			if err != nil {
				return err
			}
			if err := c.Put(keyData, v); err != nil {
				return err
			}
			return b.Put(keyCurrent, key)
		})
	})
}

// currentIndex returns the current copy's key, its data (in the file's
// memory map, valid during tx) and the revision it was made at, or a nil
// key when there is none or it is newer than the store (rev is then the
// store's revision). own says whether the copy has pages of its own: a
// bucket small enough to be inline lives in its parent's page, which
// moves whenever the parent is written.
func currentIndex(tx *bbolt.Tx) (key, data []byte, rev uint64, own bool) {
	rev = tx.Bucket(bucketMeta).Sequence()
	b := tx.Bucket(bucketIndex)
	if b == nil {
		return nil, nil, rev, false
	}
	key = b.Get(keyCurrent)
	if len(key) != 8 {
		return nil, nil, rev, false
	}
	c := b.Bucket(key)
	if c == nil {
		return nil, nil, rev, false
	}
	v := c.Get(keyData)
	if len(v) < indexValueHeader {
		return nil, nil, rev, false
	}
	crev, n := binary.BigEndian.Uint64(v), binary.BigEndian.Uint64(v[8:])
	if crev > rev || n > uint64(len(v)-indexValueHeader) {
		return nil, nil, rev, false
	}
	return key, v[indexValueHeader : indexValueHeader+n], crev, c.Root() != 0
}

// LoadIndex returns a copy of the cached data and the revision it was made
// at (store.IndexCache). That revision may be older than the store's: the
// change feed (Changes) names what was written since, as far back as the
// file's change history reaches.
func (s *Store) LoadIndex(ctx context.Context) (data []byte, rev uint64, err error) {
	err = s.use(ctx, "load index", func() error {
		return s.db.View(func(tx *bbolt.Tx) error {
			var key []byte
			key, data, rev, _ = currentIndex(tx)
			if key != nil {
				data = bytes.Clone(data)
			}
			return nil
		})
	})
	if err != nil {
		return nil, 0, err
	}
	return data, rev, nil
}

// ViewIndex calls fn with the cached data, in place in the file's memory
// map, and the revision it was made at, as LoadIndex returns them
// (store.IndexViewer). fn runs in a read transaction but outside the
// store's panic guard, so that a panic of the caller's is not taken for a
// damaged file; a write that must grow the file waits for fn to return.
func (s *Store) ViewIndex(ctx context.Context, fn func(data []byte, rev uint64)) error {
	var (
		tx   *bbolt.Tx
		key  []byte
		data []byte
		rev  uint64
	)
	err := s.use(ctx, "view index", func() error {
		var err error
		if tx, err = s.db.Begin(false); err != nil {
			return err
		}
		key, data, rev, _ = currentIndex(tx)
		return nil
	})
	if tx != nil {
		defer func() { _ = tx.Rollback() }()
	}
	if err != nil || key == nil {
		return err
	}
	fn(data, rev)
	return nil
}
