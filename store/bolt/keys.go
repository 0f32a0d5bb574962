package bolt

import (
	"bytes"
	"context"
	"fmt"
	"iter"

	"go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

var _ store.KeyLister = (*Store)(nil)

// keysChunk is how many keys Keys reads per read transaction: keys are
// small, so more than All's chunkSize entries.
const keysChunk = 4096

// Keys yields every entry's identity in key order (category, then name,
// bytewise) by walking the keys of the entries bucket: no value is
// decoded or checksummed, so a damaged value is listed (All reports it).
// A key that is not category NUL name, or that breaks the naming rules
// (damage: recall writes none such), is an error item wrapping
// store.ErrCorrupt and store.ErrUnreadable, as in All. With a
// category, only the keys with that exact category are visited (one seek
// to its prefix). Like All it reads in chunks, each in its own read
// transaction, and yields between them.
func (s *Store) Keys(ctx context.Context, category string) iter.Seq2[store.Key, error] {
	return func(yield func(store.Key, error) bool) {
		var prefix []byte
		if category != "" {
			category, _ = store.NormalizeKey(category, "")
			if err := store.ValidateKey(category, "x"); err != nil {
				yield(store.Key{}, fmt.Errorf("keys: %w", err))
				return
			}
			prefix = append([]byte(category), 0)
		}
		type item struct {
			k   store.Key
			err error
		}
		var (
			after []byte // last key read; nil before the first chunk
			batch = make([]item, 0, keysChunk)
			done  bool
		)
		for !done {
			batch = batch[:0]
			err := s.use(ctx, "keys", func() error {
				return s.db.View(func(tx *bbolt.Tx) error {
					c := tx.Bucket(bucketEntries).Cursor()
					var k, v []byte
					switch {
					case after != nil:
						if k, v = c.Seek(after); k != nil && bytes.Equal(k, after) {
							k, v = c.Next()
						}
					case prefix != nil:
						k, v = c.Seek(prefix)
					default:
						k, v = c.First()
					}
					for ; k != nil && len(batch) < keysChunk; k, v = c.Next() {
						if prefix != nil && !bytes.HasPrefix(k, prefix) {
							k = nil
							break
						}
						after = append(after[:0], k...)
						if v == nil {
							continue // a nested bucket: not ours
						}
						cat, name, err := decodeKey(k)
						if err == nil {
							// No checksum is read here, so a damaged key is
							// caught by the rules recall writes by (a flipped
							// byte is often a control character or not UTF-8),
							// never listed raw.
							if verr := store.ValidateKey(cat, name); verr != nil {
								err = fmt.Errorf("%w: key %q breaks the naming rules: %v", errCorrupt, k, verr)
							}
						}
						if err != nil {
							batch = append(batch, item{err: fmt.Errorf("keys: %w", err)})
							continue
						}
						batch = append(batch, item{k: store.Key{Category: cat, Name: name}})
					}
					done = k == nil
					return nil
				})
			})
			if err != nil {
				yield(store.Key{}, err)
				return
			}
			for _, it := range batch {
				if err := ctx.Err(); err != nil {
					yield(store.Key{}, fmt.Errorf("keys: %w", err))
					return
				}
				if !yield(it.k, it.err) {
					return
				}
			}
		}
	}
}
