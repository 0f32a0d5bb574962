package postgres

import (
	"context"
	"fmt"
	"iter"

	"github.com/jackc/pgx/v5"

	"github.com/recallhq/recall/store"
)

var (
	_ store.KeyLister  = (*Store)(nil)
	_ store.MetaReader = (*Store)(nil)
)

// Metas reads the metadata of keys in one query (unnest joined to the
// entries table), selecting the size of each content but not the content
// itself. The bounds of a read hold: a row over them is an Err wrapping
// store.ErrUnreadable. Keys are looked up in NFC, as Get does.
func (s *Store) Metas(ctx context.Context, keys []store.Key) ([]store.MetaResult, error) {
	out := make([]store.MetaResult, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	cats, names := make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		cats[i], names[i] = store.NormalizeKey(k.Category, k.Name)
		if err := store.ValidateKey(cats[i], names[i]); err != nil {
			out[i].Err = fmt.Errorf("get %s: %w", k, err)
			cats[i], names[i] = "", "" // matches no row
		}
	}
	err := s.use(ctx, fmt.Sprintf("metas of %d entries", len(keys)), func(ctx context.Context) error {
		rows, err := s.pool.Query(ctx, s.q.metas, cats, names)
		if err != nil {
			return err
		}
		defer rows.Close()
		found := make([]bool, len(keys))
		for rows.Next() {
			var (
				i int64
				r row
			)
			if err := rows.Scan(&i, &r.contentLen, &r.metaLen, &r.tags, &r.created, &r.updated, &r.extra, &r.date); err != nil {
				return err
			}
			i-- // ordinality counts from 1
			if i < 0 || int(i) >= len(keys) {
				return fmt.Errorf("metas: row %d out of range", i+1)
			}
			found[i] = true
			m, err := r.meta()
			if err != nil {
				err = fmt.Errorf("get %s: %w", store.Key{Category: cats[i], Name: names[i]}, err)
			}
			out[i] = store.MetaResult{Meta: m, Err: err}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		for i := range out {
			if !found[i] && out[i].Err == nil {
				out[i].Err = fmt.Errorf("get %s: %w", store.Key{Category: cats[i], Name: names[i]}, store.ErrNotFound)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

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
