package backup

import (
	"context"
	"fmt"
	"io"
	"iter"

	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/store"
)

// ReadJSONL reads a JSONL backup (what WriteJSONL wrote) from r, whole,
// into the entries Restore takes: first one error per line that could not
// be read ("name:line: reason"), then the entries in file order. name
// tells the errors where lines came from. Its own error is importer's,
// for input it cannot read at all.
func ReadJSONL(ctx context.Context, r io.Reader, name string) (iter.Seq2[store.Entry, error], error) {
	plan, err := importer.ReadJSONL(ctx, r, name)
	if err != nil {
		return nil, err
	}
	return func(yield func(store.Entry, error) bool) {
		for _, s := range plan.Skipped {
			if !yield(store.Entry{}, fmt.Errorf("%s", s)) {
				return
			}
		}
		for _, it := range plan.Items {
			if !yield(it.Entry, nil) {
				return
			}
		}
	}, nil
}
