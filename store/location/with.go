package location

import (
	"context"
	"fmt"

	"github.com/recallhq/recall/store"
)

// WithChosen opens the store OpenChosen opens, runs fn over it, and
// always closes it (which releases a bolt file's lock), as each one-shot
// recall command does. A failed Close is returned, wrapped "close store:",
// when fn succeeded; fn's own error wins otherwise. A ctx already done is
// returned before anything is opened.
func WithChosen(ctx context.Context, flag string, opts Options, getenv func(string) string, fn func(store.Store) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	st, _, err := OpenChosen(ctx, flag, opts, getenv)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := st.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close store: %w", cerr)
		}
	}()
	return fn(st)
}
