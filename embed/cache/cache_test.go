package cache

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingEmbedder records how often each text was embedded and how many
// calls were in flight at once.
type countingEmbedder struct {
	model    string
	mu       sync.Mutex
	perText  map[string]int
	calls    int
	inFlight atomic.Int32
	maxSeen  atomic.Int32
	delay    time.Duration
	// block, when set, makes calls after the first n wait for ctx.
	blockAfter int
}

func newCounting(model string) *countingEmbedder {
	return &countingEmbedder{model: model, perText: map[string]int{}, blockAfter: -1}
}

func (e *countingEmbedder) Model() string { return e.model }

func (e *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	n := e.inFlight.Add(1)
	defer e.inFlight.Add(-1)
	for {
		m := e.maxSeen.Load()
		if n <= m || e.maxSeen.CompareAndSwap(m, n) {
			break
		}
	}
	e.mu.Lock()
	e.calls++
	call := e.calls
	e.mu.Unlock()
	if e.blockAfter >= 0 && call > e.blockAfter {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if e.delay > 0 {
		time.Sleep(e.delay)
	}
	out := make([][]float32, len(texts))
	e.mu.Lock()
	for i, t := range texts {
		e.perText[t]++
		out[i] = []float32{float32(len(t)), 1}
	}
	e.mu.Unlock()
	return out, nil
}

func (e *countingEmbedder) count(t string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.perText[t]
}

func (e *countingEmbedder) total() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, c := range e.perText {
		n += c
	}
	return n
}

// memBackend is an in-memory Backend that also counts its calls.
type memBackend struct {
	mu      sync.Mutex
	m       map[string]map[string][]float32
	puts    int
	deletes int
}

func newMemBackend() *memBackend { return &memBackend{m: map[string]map[string][]float32{}} }

func (b *memBackend) LoadVectors(_ context.Context, model string, fn func(string, []float32) error) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for k, v := range b.m[model] {
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return nil
}

func (b *memBackend) PutVectors(_ context.Context, model string, keys []string, vecs [][]float32) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m[model] == nil {
		b.m[model] = map[string][]float32{}
	}
	for i, k := range keys {
		b.m[model][k] = vecs[i]
	}
	b.puts++
	return nil
}

func (b *memBackend) DeleteVectors(_ context.Context, model string, keys []string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, k := range keys {
		delete(b.m[model], k)
	}
	b.deletes++
	return nil
}

func (b *memBackend) size(model string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.m[model])
}

var ctx = context.Background()

func texts(n int, prefix string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s entry %d", prefix, i)
	}
	return out
}

func TestSyncLifecycle(t *testing.T) {
	be := newMemBackend()
	emb := newCounting("m1")
	c := New(emb, be, Options{BatchSize: 4})
	docs := texts(10, "v1")
	st, err := c.Sync(ctx, docs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st != (SyncStats{Texts: 10, Embedded: 10}) || emb.total() != 10 || be.size("m1") != 10 {
		t.Fatalf("first sync: %+v, embedded %d, stored %d", st, emb.total(), be.size("m1"))
	}

	// A new process (new Cache over the same backend): nothing to embed.
	emb2 := newCounting("m1")
	c2 := New(emb2, be, Options{BatchSize: 4})
	st, err = c2.Sync(ctx, docs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if emb2.total() != 0 || st.Cached != 10 || st.Embedded != 0 {
		t.Fatalf("unchanged entries re-embedded: %+v, %d texts", st, emb2.total())
	}

	// One entry changes, one is deleted: exactly one embed, one prune.
	changed := append([]string{}, docs[:8]...)
	changed[3] = "v2 entry 3 edited"
	st, err = c2.Sync(ctx, changed, nil)
	if err != nil {
		t.Fatal(err)
	}
	if emb2.total() != 1 || emb2.count("v2 entry 3 edited") != 1 {
		t.Fatalf("after an edit embedded %d texts", emb2.total())
	}
	// Pruned: the old text of entry 3 and the two deleted entries.
	if st.Pruned != 3 || be.size("m1") != 8 {
		t.Fatalf("prune: %+v, backend holds %d", st, be.size("m1"))
	}
	if _, ok := c2.Get(Key(docs[9])); ok {
		t.Fatal("deleted entry kept its vector in memory")
	}

	// Another model never sees m1's vectors.
	emb3 := newCounting("m2")
	c3 := New(emb3, be, Options{})
	if _, err := c3.Sync(ctx, changed, nil); err != nil {
		t.Fatal(err)
	}
	if emb3.total() != 8 || be.size("m1") != 8 || be.size("m2") != 8 {
		t.Fatalf("model change: embedded %d, m1 %d, m2 %d", emb3.total(), be.size("m1"), be.size("m2"))
	}
}

func TestEmbedUsesCacheAndDedupes(t *testing.T) {
	emb := newCounting("m")
	c := New(emb, nil, Options{BatchSize: 3})
	in := []string{"a", "b", "a", "c", "b"}
	vs, err := c.Embed(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 5 || vs[0][0] != 1 || vs[2][0] != 1 {
		t.Fatalf("vectors %v", vs)
	}
	if emb.total() != 3 {
		t.Fatalf("embedded %d texts for 3 distinct", emb.total())
	}
	if _, err := c.Embed(ctx, []string{"c", "a"}); err != nil || emb.total() != 3 {
		t.Fatalf("cached texts re-embedded: %d (%v)", emb.total(), err)
	}
	if vs, err := c.Embed(ctx, nil); vs != nil || err != nil {
		t.Fatalf("empty input: %v %v", vs, err)
	}
}

func TestConcurrentMissesCollapse(t *testing.T) {
	emb := newCounting("m")
	emb.delay = 5 * time.Millisecond
	c := New(emb, newMemBackend(), Options{BatchSize: 2, Concurrency: 3})
	docs := texts(20, "x")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vs, err := c.Embed(ctx, docs)
			if err != nil {
				t.Error(err)
				return
			}
			for i, v := range vs {
				if v == nil || int(v[0]) != len(docs[i]) {
					t.Errorf("wrong vector for %q", docs[i])
				}
			}
		}()
	}
	wg.Wait()
	for _, d := range docs {
		if n := emb.count(d); n != 1 {
			t.Fatalf("%q embedded %d times", d, n)
		}
	}
	if m := emb.maxSeen.Load(); m > 3*8 {
		t.Fatalf("%d calls in flight", m)
	}
}

func TestConcurrencyBounded(t *testing.T) {
	emb := newCounting("m")
	emb.delay = 3 * time.Millisecond
	c := New(emb, nil, Options{BatchSize: 1, Concurrency: 2})
	if _, err := c.Embed(ctx, texts(20, "y")); err != nil {
		t.Fatal(err)
	}
	if m := emb.maxSeen.Load(); m > 2 {
		t.Fatalf("%d embedder calls in flight, limit 2", m)
	}
}

// Ctrl-C in the middle of a sync keeps the batches already done, and the
// next sync embeds only the rest.
func TestInterruptedSyncResumes(t *testing.T) {
	be := newMemBackend()
	emb := newCounting("m")
	emb.blockAfter = 3 // the 4th call waits until cancelled
	c := New(emb, be, Options{BatchSize: 5, Concurrency: 1})
	docs := texts(40, "z")
	cctx, cancel := context.WithCancel(ctx)
	var last int
	done := make(chan error, 1)
	go func() {
		_, err := c.Sync(cctx, docs, func(d, _ int) { last = d })
		done <- err
	}()
	deadline := time.After(10 * time.Second)
	for be.size("m") < 15 {
		select {
		case <-deadline:
			t.Fatal("sync made no progress")
		case <-time.After(time.Millisecond):
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted sync returned %v", err)
	}
	if be.size("m") != 15 || last != 15 {
		t.Fatalf("kept %d vectors, progress %d; want 15", be.size("m"), last)
	}
	emb2 := newCounting("m")
	st, err := New(emb2, be, Options{BatchSize: 5}).Sync(ctx, docs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if emb2.total() != 25 || st.Cached != 15 || st.Embedded != 25 {
		t.Fatalf("resume embedded %d (%+v), want 25", emb2.total(), st)
	}
}

type failingEmbedder struct{ err error }

func (f failingEmbedder) Model() string { return "f" }
func (f failingEmbedder) Embed(context.Context, []string) ([][]float32, error) {
	return nil, f.err
}

func TestEmbedderErrorPropagates(t *testing.T) {
	boom := errors.New("boom")
	c := New(failingEmbedder{boom}, newMemBackend(), Options{BatchSize: 2})
	if _, err := c.Embed(ctx, texts(7, "e")); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	// Nothing is left pending: a second call fails the same way, not hangs.
	errc := make(chan error, 1)
	go func() { _, err := c.Embed(ctx, texts(7, "e")); errc <- err }()
	select {
	case err := <-errc:
		if !errors.Is(err, boom) {
			t.Fatalf("second err = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("second Embed hung on a pending call")
	}
}
