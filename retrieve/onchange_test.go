package retrieve_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
)

// OnChange reports each published change: a full build as Reset, then
// the keys of writes through the engine and straight to the store.
func TestOnChange(t *testing.T) {
	ctx := context.Background()
	st := openFolder(t, fillFolder(t, 10), false)
	var (
		mu  sync.Mutex
		got []store.ChangeSet
	)
	e := retrieve.New(st, retrieve.Options{OnChange: func(cs store.ChangeSet) {
		mu.Lock()
		got = append(got, cs)
		mu.Unlock()
	}})
	defer e.Close()
	warm(t, e)
	if err := e.Put(ctx, store.Entry{Category: "a", Name: "x", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := st.Delete(ctx, "c1", "n1"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	var keys []string
	for _, cs := range got[1:] {
		for _, k := range cs.Keys {
			keys = append(keys, k.String())
		}
	}
	if len(got) < 2 || !got[0].Reset || !slices.Equal(keys, []string{"a:x", "c1:n1"}) {
		t.Fatalf("OnChange saw %+v", got)
	}
}
