package service_test

import (
	"context"
	"iter"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
)

// allCounter counts the full reads of a store.
type allCounter struct {
	store.Store
	n atomic.Int32
}

func (c *allCounter) All(ctx context.Context) iter.Seq2[store.Entry, error] {
	c.n.Add(1)
	return c.Store.All(ctx)
}

// A server's warm-up loads the store's persisted index copy when it is
// current, instead of reading and analysing every entry (issue 12: a
// server's first retrieve at 100k entries was a full build, 5-20 s).
func TestStartLoadsPersistedIndex(t *testing.T) {
	ctx := context.Background()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "m.db"), &boltstore.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.PutBatch(ctx, synth.New(3, 2_000).Entries(300, 30)); err != nil {
		t.Fatal(err)
	}
	start := func() (*service.Memory, *allCounter) {
		t.Helper()
		c := &allCounter{Store: st}
		m := service.New(c, service.Options{Engine: retrieve.Options{Persist: st}})
		if err := m.Start(ctx); err != nil {
			t.Fatal(err)
		}
		waitIndexed(t, m)
		return m, c
	}
	m, c := start() // no copy yet: a full build, saved
	if c.n.Load() != 1 {
		t.Fatalf("first start read the store %d times, want 1", c.n.Load())
	}
	if err := m.Close(); err != nil { // waits for the save
		t.Fatal(err)
	}
	m, c = start()
	defer m.Close()
	if n := c.n.Load(); n != 0 {
		t.Errorf("second start read the whole store %d times; want the persisted copy loaded", n)
	}
	if h, _ := m.Health(ctx); h.Revision == 0 || !h.Indexed {
		t.Errorf("health after load: %+v", h)
	}
}
