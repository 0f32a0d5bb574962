package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/recallhq/recall/store"
)

// PutBatch validates every entry, then writes them all in one
// transaction: COPY into a temporary table, then one INSERT … ON CONFLICT
// from it. It is all or nothing, the revision moves once, and each
// identity is logged once. When an identity appears more than once, the
// last one wins. The call's deadline is Options.Timeout per 1,000 entries
// (at least one Timeout).
func (s *Store) PutBatch(ctx context.Context, entries []store.Entry) error {
	op := fmt.Sprintf("put batch of %d", len(entries))
	rows := make([][]any, 0, len(entries))
	index := make(map[store.Key]int, len(entries))
	for i, e := range entries {
		e = store.Normalize(e)
		args, err := prepare(fmt.Sprintf("%s: entry %d (%s)", op, i, e.Key()), e)
		if err != nil {
			return err
		}
		if j, dup := index[e.Key()]; dup {
			rows[j] = args
			continue
		}
		index[e.Key()] = len(rows)
		rows = append(rows, args)
	}
	// One lock order for every batch, so two overlapping batches never
	// deadlock.
	slices.SortFunc(rows, func(a, b []any) int {
		return cmp.Or(cmp.Compare(a[0].(string), b[0].(string)), cmp.Compare(a[1].(string), b[1].(string)))
	})
	if len(rows) == 0 {
		return s.use(ctx, op, func(context.Context) error { return nil })
	}
	err := s.useFor(ctx, op, time.Duration(1+len(rows)/1000)*s.opts.Timeout, func(ctx context.Context) error {
		return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, s.q.batchTemp); err != nil {
				return err
			}
			_, err := tx.CopyFrom(ctx, pgx.Identifier{"recall_batch"},
				[]string{"category", "name", "content", "tags", "created", "updated", "extra", "date"},
				pgx.CopyFromRows(rows))
			if err != nil {
				return err
			}
			_, err = tx.Exec(ctx, s.q.batchInsert)
			return err
		})
	})
	if err == nil {
		s.wroteLocally()
	}
	return err
}
