package postgres

import (
	"context"
	"fmt"
	"iter"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/recallhq/recall/store"
)

var _ store.Sorter = (*Store)(nil)

// AllSorted yields what All yields, in the same order (category, then
// name, on columns of collation "C": bytewise), and all of it as of one
// instant: it reads in one REPEATABLE READ, READ ONLY transaction, so an
// export or a backup of a live store holds exactly the entries committed
// when it began (both entries of a PutBatch, or neither), whatever is
// written while it runs. This is what a JSONL backup of a PostgreSQL
// store is made of.
//
// The transaction has a connection of its own, opened for the walk and
// closed when it ends, outside the pool: the loop body may call any
// method of the store (they use the pool), and Close does not wait for
// the walk, which then ends with an error wrapping store.ErrClosed. The
// rows are read as All reads them, chunkSize at a time in key order, each
// query with Options.Timeout, and yielded between queries: memory of one
// chunk, however large the store. The transaction stays open (idle) while
// the loop body runs; a server with idle_in_transaction_session_timeout
// set ends a walk whose body pauses longer than that, with an error item.
// A failure after the transaction began (a lost connection) ends the walk
// with one error item; it is not retried, since a new transaction would
// be another instant.
func (s *Store) AllSorted(ctx context.Context) iter.Seq2[store.Entry, error] {
	return func(yield func(store.Entry, error) bool) {
		var (
			conn *pgx.Conn
			tx   pgx.Tx
		)
		err := s.use(ctx, "all", func(ctx context.Context) error {
			c, err := pgx.ConnectConfig(ctx, s.connCfg.Copy())
			if err != nil {
				return err
			}
			t, err := c.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
			if err != nil {
				_ = c.Close(context.Background())
				return err
			}
			conn, tx = c, t
			return nil
		})
		if err != nil {
			yield(store.Entry{}, err)
			return
		}
		defer func() {
			cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = tx.Rollback(cctx) // read only: nothing to keep
			_ = conn.Close(cctx)
		}()
		walkChunks(ctx, yield, func(first bool, afterCat, afterName string, batch []item) ([]item, error) {
			s.mu.RLock()
			defer s.mu.RUnlock()
			if s.closed {
				return batch, fmt.Errorf("all: %w", store.ErrClosed)
			}
			cctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
			defer cancel()
			batch, err := s.readChunk(cctx, tx, first, afterCat, afterName, batch)
			if err != nil {
				if ctx.Err() != nil {
					err = ctx.Err()
				}
				return batch, fmt.Errorf("all: %w", s.wrapErr(err))
			}
			return batch, nil
		})
	}
}
