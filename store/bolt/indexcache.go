package bolt

import (
	"bytes"
	"context"
	"encoding/binary"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

// The index cache (store.IndexCache): one value in its own bucket, the
// revision it was made at (8 bytes, big endian) then the caller's data.
// It lives in the file, so it follows the file wherever it goes: a copy or
// a restored backup carries the cache of its own revision, and the
// revision (bucketMeta's sequence, which only rises) tells how far behind
// the store a copy is; the change history (history.go) names what was
// written since.
// The bucket is created on the first save; files without it are as valid.

var (
	bucketIndex = []byte("recall.index")
	keyIndex    = []byte("snapshot")
)

var (
	_ store.IndexCache  = (*Store)(nil)
	_ store.IndexViewer = (*Store)(nil)
)

// maxIndexValue is the largest copy kept: bbolt's limit for one value.
const maxIndexValue = bbolt.MaxValueSize - 8

// SaveIndex keeps data as the copy made at revision rev if rev is still
// the store's revision (store.IndexCache). It is one write transaction;
// it does not move the revision. A copy too large for one value is not
// kept.
func (s *Store) SaveIndex(ctx context.Context, rev uint64, data []byte) error {
	if len(data) > maxIndexValue {
		return nil
	}
	return s.use(ctx, "save index", func() error {
		// Drop the old copy in a transaction of its own first: pages freed
		// by a commit are reusable only by later transactions, so the new
		// copy can take the old one's place instead of growing the file by
		// its size at every save.
		err := s.db.Update(func(tx *bbolt.Tx) error {
			if b := tx.Bucket(bucketIndex); b != nil && b.Get(keyIndex) != nil {
				return b.Delete(keyIndex)
			}
			return nil
		})
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
			v := make([]byte, 8, 8+len(data))
			binary.BigEndian.PutUint64(v, rev)
			return b.Put(keyIndex, append(v, data...))
		})
	})
}

// LoadIndex returns a copy of the cached data and the revision it was made
// at (store.IndexCache). That revision may be older than the store's: the
// change feed (Changes) names what was written since, as far back as the
// file's change history reaches.
func (s *Store) LoadIndex(ctx context.Context) (data []byte, rev uint64, err error) {
	err = s.use(ctx, "load index", func() error {
		return s.db.View(func(tx *bbolt.Tx) error {
			rev = tx.Bucket(bucketMeta).Sequence()
			b := tx.Bucket(bucketIndex)
			if b == nil {
				return nil
			}
			v := b.Get(keyIndex)
			if len(v) < 8 || binary.BigEndian.Uint64(v) > rev {
				return nil
			}
			data, rev = bytes.Clone(v[8:]), binary.BigEndian.Uint64(v)
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
		data []byte
		rev  uint64
	)
	err := s.use(ctx, "view index", func() error {
		var err error
		if tx, err = s.db.Begin(false); err != nil {
			return err
		}
		rev = tx.Bucket(bucketMeta).Sequence()
		if b := tx.Bucket(bucketIndex); b != nil {
			if v := b.Get(keyIndex); len(v) >= 8 && binary.BigEndian.Uint64(v) <= rev {
				data, rev = v[8:], binary.BigEndian.Uint64(v)
			}
		}
		return nil
	})
	if tx != nil {
		defer func() { _ = tx.Rollback() }()
	}
	if err != nil || data == nil {
		return err
	}
	fn(data, rev)
	return nil
}
