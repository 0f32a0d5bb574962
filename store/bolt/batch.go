package bolt

import (
	"context"
	"fmt"
	"slices"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

var _ store.Batcher = (*Store)(nil)

// Bounds of one batch transaction. A transaction holds its dirty pages in
// memory until it commits, so a large import commits in steps.
const (
	batchTxEntries = 10_000
	batchTxBytes   = 32 << 20
)

// PutBatch writes entries many to a transaction, each exactly as Put
// would (putTx: same upsert and timestamp rules, one revision per entry).
// Every entry is validated first; if one is invalid nothing is written and
// the error names it. Later entries with the same identity replace earlier
// ones. A batch larger than one transaction's bounds commits in several:
// after a crash, each transaction is all there or not at all (bbolt), so
// each entry is absent, or its old version, or complete. On success every
// entry is durable (unless Options.NoSync).
func (s *Store) PutBatch(ctx context.Context, entries []store.Entry) error {
	entries = slices.Clone(entries)
	extras := make([][]byte, len(entries))
	for i := range entries {
		entries[i] = store.Normalize(entries[i])
		e := entries[i]
		extra, err := prepare("put batch: entry "+fmt.Sprint(i)+" "+e.Key().String(), e)
		if err != nil {
			return err
		}
		extras[i] = extra
	}
	for start := 0; start < len(entries); {
		end, size := start, 0
		for end < len(entries) && end-start < batchTxEntries &&
			(end == start || size+len(entries[end].Content) <= batchTxBytes) {
			size += len(entries[end].Content)
			end++
		}
		keys := make([]store.Key, 0, end-start)
		for i := start; i < end; i++ {
			keys = append(keys, entries[i].Key())
		}
		err := s.use(ctx, "put batch", func() error {
			return s.write(ctx, func(tx *bbolt.Tx) error {
				for i := start; i < end; i++ {
					if err := putTx(tx, "put batch: "+entries[i].Key().String(), entries[i], extras[i]); err != nil {
						return err
					}
				}
				return nil
			}, keys...)
		})
		if err != nil {
			return err
		}
		start = end
	}
	return nil
}
