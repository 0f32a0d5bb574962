package retrieve

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
)

func openBolt(t *testing.T, n int) *boltstore.Store {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "m.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for i := range n {
		if err := st.Put(ctx, ent("c", fmt.Sprintf("n%d", i), fmt.Sprintf("harbour boat %d", i))); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// Close waits for a background compaction under way: when it returns,
// the compaction has finished, not merely been asked to.
func TestCloseWaitsForCompaction(t *testing.T) {
	st := openBolt(t, 40) // the overlay asks for compaction past 32 documents
	e := New(st, Options{})
	started, release := make(chan struct{}), make(chan struct{})
	e.hookCompact = func() { close(started); <-release }
	waiting := make(chan struct{})
	e.hookCloseWait = func() { close(waiting) }
	if _, err := e.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if err := e.Put(ctx, ent("c", fmt.Sprintf("w%d", i), "written")); err != nil {
			t.Fatal(err)
		}
		select {
		case <-started:
		default:
			if i > 1000 {
				t.Fatal("no background compaction started")
			}
			continue
		}
		break
	}
	closed := make(chan struct{})
	go func() { e.Close(); close(closed) }()
	select {
	case <-closed:
		close(release)
		t.Fatal("Close returned while a background compaction was running")
	case <-waiting:
	}
	close(release)
	<-closed
	_ = e.lock(ctx)
	busy := e.compacting
	e.unlock()
	if busy {
		t.Fatal("Close returned before the compaction finished")
	}
	// After Close the Engine still answers, and starts no goroutine.
	if err := e.Put(ctx, ent("c", "after", "written after close")); err != nil {
		t.Fatal(err)
	}
	if res, err := e.Retrieve(ctx, Request{Query: "after"}); err != nil || len(res.Items) != 1 {
		t.Fatalf("retrieve after Close: %+v, %v", res, err)
	}
	if e.spawn(func() {}) {
		t.Error("spawn started a goroutine after Close")
	}
}

// gatedVectors is a real vector backend whose LoadVectors waits for gate
// (and tells entered) before it reads: a slow disk, deterministically.
type gatedVectors struct {
	store.VectorCache
	entered chan struct{}
	gate    chan struct{}
}

func (g *gatedVectors) LoadVectors(ctx context.Context, model string, fn func(string, []float32) error) error {
	select {
	case g.entered <- struct{}{}:
	default:
	}
	<-g.gate
	return g.VectorCache.LoadVectors(ctx, model, fn)
}

// A fused retrieve does not wait for a vector load under way (here the
// background fill's, holding the cache's load lock) beyond its budget: with
// a 200 ms deadline it answers with BM25, in time, and once the load is
// done the next retrieve fuses (SPEC §6).
func TestRetrieveDoesNotWaitForVectorLoad(t *testing.T) {
	st := openBolt(t, 20)
	h, _ := hash.New(hash.Config{})
	var texts []string
	for e, err := range st.All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, index.EntryText(e.Name, e.Content))
	}
	if _, err := cache.New(h, st, cache.Options{}).Sync(ctx, texts, nil); err != nil {
		t.Fatal(err)
	}
	g := &gatedVectors{VectorCache: st, entered: make(chan struct{}, 1), gate: make(chan struct{})}
	vec := cache.New(h, g, cache.Options{})
	e := New(st, Options{Embedder: h, Vectors: vec})
	defer e.Close()
	go vec.Load(context.Background()) // someone else's load (the fill's), stuck in the backend
	<-g.entered

	type answer struct {
		res *Result
		err error
	}
	got := make(chan answer, 1)
	go func() {
		dctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		res, err := e.Retrieve(dctx, Request{Query: "harbour boat 7"})
		got <- answer{res, err}
	}()
	var a answer
	select {
	case a = <-got:
	case <-time.After(30 * time.Second): // a guard against a hang, not a timing
		close(g.gate)
		t.Fatal("a retrieve with a 200 ms deadline waited for the vector load")
	}
	if a.err != nil || a.res.EmbeddingUsed || len(a.res.Items) == 0 || a.res.Items[0].Name != "n7" {
		t.Fatalf("retrieve during the load = %+v, %v; want the BM25 answer", a.res, a.err)
	}
	close(g.gate)
	res, err := e.Retrieve(ctx, Request{Query: "harbour boat 7"})
	if err != nil || !res.EmbeddingUsed {
		t.Fatalf("retrieve after the load = %+v, %v; want a fused answer", res, err)
	}
}
