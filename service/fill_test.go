package service

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
)

// A write through the Memory reaches the vector fill once, through the
// engine's change hook, the one notification every consumer hears (a
// write behind the Memory's back reaches it the same way: feed_test.go).
func TestWriteQueuedOnceForVectors(t *testing.T) {
	ctx := context.Background()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "m.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	emb, _ := hash.New(hash.Config{})
	vec := cache.New(emb, st, cache.Options{})
	m := New(st, Options{Engine: retrieve.Options{Embedder: emb, Vectors: vec}})
	defer m.Close()
	if _, err := m.eng.Snapshot(ctx); err != nil { // an index exists, as in a server
		t.Fatal(err)
	}
	queued := func() []store.Key {
		var keys []store.Key
		for len(m.fill.queue) > 0 {
			keys = append(keys, <-m.fill.queue)
		}
		return keys
	}
	queued()
	want := store.Key{Category: "c", Name: "n"}
	if _, err := m.Add(ctx, AddRequest{Category: "c", Name: "n", Content: "harbour"}); err != nil {
		t.Fatal(err)
	}
	if got := queued(); len(got) != 1 || got[0] != want {
		t.Errorf("after Add, the fill's queue holds %v; want [%v] once", got, want)
	}
	if _, err := m.Append(ctx, "c", "n", "more"); err != nil {
		t.Fatal(err)
	}
	if got := queued(); len(got) != 1 || got[0] != want {
		t.Errorf("after Append, the fill's queue holds %v; want [%v] once", got, want)
	}
}
