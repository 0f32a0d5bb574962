package backup

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/recallhq/recall/store"
)

// Sorted yields st's entries in identity order (category, then name,
// bytewise). A store.Sorter (bolt, PostgreSQL, a folder store) streams
// them as it walks, holding one chunk of entries (a folder store: its
// pending folders and one folder's names) at a time. Any other store is
// listed first, identities only (store.KeyLister, else All with each
// content dropped as soon as it is read), the identities sorted, and each
// entry read with Get: memory of the identities, not of the entries.
//
// An error item concerns one entry (named) or, when the sequence then
// ends, the walk as a whole, as for store.Store.All. An entry deleted
// between the listing and its Get is passed over.
func Sorted(ctx context.Context, st store.Store) iter.Seq2[store.Entry, error] {
	if s, ok := st.(store.Sorter); ok {
		return s.AllSorted(ctx)
	}
	return func(yield func(store.Entry, error) bool) {
		var keys []store.Key
		for k, err := range keysOf(ctx, st) {
			if err != nil {
				if !yield(store.Entry{}, err) || whole(ctx, err) {
					return
				}
				continue
			}
			keys = append(keys, k)
		}
		slices.SortFunc(keys, compareKeys)
		for _, k := range keys {
			e, err := st.Get(ctx, k.Category, k.Name)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				err = fmt.Errorf("%s: %w", k, err)
			}
			if !yield(e, err) || (err != nil && whole(ctx, err)) {
				return
			}
		}
	}
}

func compareKeys(a, b store.Key) int {
	if c := strings.Compare(a.Category, b.Category); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// whole reports whether err ends the walk rather than concerning one
// entry: the context is done, or the store is closed or out of reach.
func whole(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, store.ErrClosed) || errors.Is(err, store.ErrUnavailable)
}
