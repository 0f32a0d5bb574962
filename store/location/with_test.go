package location

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
)

// WithChosen closes the store after fn, whatever fn returns (the bolt
// file can be opened again at once), passes fn's error through, and
// opens nothing for a context already done or a missing store.
func TestWithChosen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	getenv := func(string) string { return "" }
	if err := WithChosen(ctx, path, Options{}, getenv, func(store.Store) error { t.Fatal("fn ran over a missing store"); return nil }); !errors.Is(err, ErrNotExist) {
		t.Fatalf("missing store: %v", err)
	}
	boom := errors.New("boom")
	for _, want := range []error{nil, boom} {
		ran := false
		err := WithChosen(ctx, path, Options{Create: true}, getenv, func(st store.Store) error {
			ran = true
			return want
		})
		if !ran || !errors.Is(err, want) || (want == nil && err != nil) {
			t.Fatalf("fn returning %v: ran %v, %v", want, ran, err)
		}
		st, err := bolt.Open(path, nil) // the lock is released
		if err != nil {
			t.Fatalf("after WithChosen: %v", err)
		}
		st.Close()
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if err := WithChosen(done, path, Options{}, getenv, func(store.Store) error { t.Fatal("fn ran after cancel"); return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
