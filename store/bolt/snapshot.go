package bolt

import (
	"context"
	"io"
	"iter"

	"go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

var (
	_ store.Snapshotter = (*Store)(nil)
	_ store.Sorter      = (*Store)(nil)
)

// AllSorted is All, which already yields in identity order: keys are
// category NUL name, and NUL sorts before every byte a name may hold.
func (s *Store) AllSorted(ctx context.Context) iter.Seq2[store.Entry, error] { return s.All(ctx) }

// WriteSnapshot writes a copy of the store file as one read transaction
// sees it (bbolt's Tx.WriteTo): a consistent bolt file that Open reads,
// entries, revision, change history, vector caches and index copy
// included, made while the store stays open. Readers and writers go on
// meanwhile, except that a write that must grow the file's memory map
// waits for the copy to end (bbolt remaps only without open read
// transactions), and Close waits for it. Cancelling ctx stops the copy at
// the next write to w.
func (s *Store) WriteSnapshot(ctx context.Context, w io.Writer) (int64, error) {
	var n int64
	err := s.use(ctx, "snapshot", func() error {
		return s.db.View(func(tx *bbolt.Tx) error {
			var err error
			n, err = tx.WriteTo(ctxWriter{ctx, w})
			return err
		})
	})
	return n, err
}

// ctxWriter fails a write once ctx is done.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
