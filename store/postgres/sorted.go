package postgres

import (
	"context"
	"iter"

	"github.com/recallhq/recall/store"
)

var _ store.Sorter = (*Store)(nil)

// AllSorted is All, which already yields in identity order (ORDER BY
// category, name on columns of collation "C": bytewise).
func (s *Store) AllSorted(ctx context.Context) iter.Seq2[store.Entry, error] { return s.All(ctx) }
