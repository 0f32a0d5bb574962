package postgres

import (
	"context"
	"fmt"
	"iter"

	"github.com/jackc/pgx/v5"

	"github.com/recallhq/recall/store"
)

var _ store.KeyLister = (*Store)(nil)

// keysChunk is how many identities Keys reads per query.
const keysChunk = 4096

// Keys yields every entry's identity in key order (category, then name,
// bytewise) by selecting the two key columns only, keysChunk rows per query,
// resuming after the last key read (so, like All, it is not a snapshot). A
// row whose key breaks the naming rules is an error item, as in All. With a
// category, only that category's rows are read, through the primary key.
func (s *Store) Keys(ctx context.Context, category string) iter.Seq2[store.Key, error] {
	return func(yield func(store.Key, error) bool) {
		if category != "" {
			category, _ = store.NormalizeKey(category, "")
			if err := store.ValidateKey(category, "x"); err != nil {
				yield(store.Key{}, fmt.Errorf("keys: %w", err))
				return
			}
		}
		type item struct {
			k   store.Key
			err error
		}
		var (
			after store.Key // "" sorts before every stored key
			batch = make([]item, 0, keysChunk)
		)
		for {
			n, next := 0, after
			err := s.use(ctx, "keys", func(ctx context.Context) error {
				batch, n, next = batch[:0], 0, after
				var (
					rows pgx.Rows
					err  error
				)
				if category == "" {
					rows, err = s.pool.Query(ctx, s.q.keysAll, after.Category, after.Name, keysChunk)
				} else {
					rows, err = s.pool.Query(ctx, s.q.keysCategory, category, after.Name, keysChunk)
				}
				if err != nil {
					return err
				}
				defer rows.Close()
				for rows.Next() {
					var k store.Key
					if err := rows.Scan(&k.Category, &k.Name); err != nil {
						return err
					}
					n++
					next = k
					if err := checkStoredKey(k.Category, k.Name); err != nil {
						batch = append(batch, item{err: rowError{k, fmt.Errorf("keys: %w", err)}})
						continue
					}
					batch = append(batch, item{k: k})
				}
				return rows.Err()
			})
			if err != nil {
				yield(store.Key{}, err)
				return
			}
			after = next
			for _, it := range batch {
				if err := ctx.Err(); err != nil {
					yield(store.Key{}, fmt.Errorf("keys: %w", err))
					return
				}
				if !yield(it.k, it.err) {
					return
				}
			}
			if n < keysChunk {
				return
			}
		}
	}
}
