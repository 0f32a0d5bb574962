package retrieve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/embed"
	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/embed/openai"
	"github.com/recallhq/recall/fusion"
	"github.com/recallhq/recall/index"
)

func fusionStore() *memStore {
	return newMemStore(
		ent("trips", "三亚之行", "住在海边的民宿，每天沿着海边跑步。 [[people:妈妈]]"),
		ent("preferences", "sea", "Loves the seaside and beaches; swims every morning."),
		ent("preferences", "coffee", "Flat white, no sugar."),
		ent("people", "妈妈", "住在杭州，周日视频。"),
		ent("work", "deadline", "Harbor ships 2025-06-30; running late is not an option."),
	)
}

// synced returns a cache over the hash embedder holding a vector for every
// entry of st, the way `recall embed` leaves it.
func synced(t *testing.T, st *memStore) (*hash.Embedder, *cache.Cache) {
	t.Helper()
	h, err := hash.New(hash.Config{})
	if err != nil {
		t.Fatal(err)
	}
	c := cache.New(h, nil, cache.Options{})
	var texts []string
	for e := range st.All(ctx) {
		texts = append(texts, e.Name+" "+e.Content)
	}
	if _, err := c.Sync(ctx, texts, nil); err != nil {
		t.Fatal(err)
	}
	return h, c
}

func asJSON(t *testing.T, r *Result) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFusionRuns(t *testing.T) {
	st := fusionStore()
	h, c := synced(t, st)
	e := New(st, Options{Embedder: h, Vectors: c})
	res, err := e.Retrieve(ctx, Request{Query: "seaside running 海边", Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	if !res.EmbeddingUsed {
		t.Fatal("embedding_used false with an embedder and cached vectors")
	}
	// Recompute the fusion by hand from the evidence and compare.
	snap, _ := e.Snapshot(ctx)
	terms := snap.Terms("seaside running 海边")
	q, _ := h.Embed(ctx, []string{"seaside running 海边"})
	var bm, cos []float64
	var names []string
	snap.Docs(func(d *indexDoc) bool {
		names = append(names, d.Category+":"+d.Name)
		var s float64
		snap.Score(terms, func(x *indexDoc, v float64) {
			if x == d {
				s = v
			}
		})
		bm = append(bm, s)
		v, _ := h.Embed(ctx, []string{d.Name + " " + d.Content})
		cos = append(cos, float64(embed.Dot(q[0], v[0])))
		return true
	})
	// No α configured: the engine takes the hash embedder's own default.
	want, err := fusion.Fuse(bm, cos, nil, h.DefaultAlpha())
	if err != nil {
		t.Fatal(err)
	}
	wantByName := map[string]float64{}
	for i, n := range names {
		wantByName[n] = want[i]
	}
	hits := 0
	for _, it := range res.Items {
		if it.Source != SourceHit {
			continue
		}
		hits++
		key := it.Category + ":" + it.Name
		if it.CosScore == nil || it.BM25Score == nil {
			t.Fatalf("%s lacks cos_score or bm25_score", key)
		}
		if math.Abs(it.Score-wantByName[key]) > 1e-6 {
			t.Errorf("%s: score %.6f, hand-fused %.6f", key, it.Score, wantByName[key])
		}
	}
	nonzero := 0
	for _, w := range want {
		if w > 0 {
			nonzero++
		}
	}
	if hits != nonzero {
		t.Errorf("%d hits, %d entries with fused score > 0", hits, nonzero)
	}
	// An explicit α wins over the embedder's default.
	res2, err := New(st, Options{Embedder: h, Vectors: c, Alpha: fusion.DefaultAlpha}).Retrieve(ctx, Request{Query: "seaside running 海边", Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	half, _ := fusion.Fuse(bm, cos, nil, fusion.DefaultAlpha)
	for i, n := range names {
		if n == res2.Items[0].Category+":"+res2.Items[0].Name && math.Abs(half[i]-res2.Items[0].Score) > 1e-6 {
			t.Errorf("with α 0.5, %s scored %.6f, hand-fused %.6f", n, res2.Items[0].Score, half[i])
		}
	}
	// A punctuation-only query has no terms but the cosine path may still rank.
	res, err = e.Retrieve(ctx, Request{Query: "？！"})
	if err != nil || !res.EmbeddingUsed {
		t.Fatalf("punctuation query with embedder: used=%v err=%v", res.EmbeddingUsed, err)
	}
}

type indexDoc = index.Doc

// Every failure of the optional path yields exactly the pure-BM25 result
// and no error.
func TestFusionFallsBackToBM25(t *testing.T) {
	st := fusionStore()
	h, c := synced(t, st)
	query := Request{Query: "seaside running 海边 deadline", Budget: Unlimited}
	pure, err := New(st, Options{}).Retrieve(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	want := asJSON(t, pure)

	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"overloaded","type":"server_error"}}`, http.StatusInternalServerError)
	}))
	defer failing.Close()
	refused := httptest.NewServer(http.NotFoundHandler())
	refusedURL := refused.URL
	refused.Close()
	noRetry := embed.Retry{MaxAttempts: 1}
	srv5xx, err := openai.New(openai.Config{APIKey: "k", BaseURL: failing.URL + "/v1", Retry: noRetry})
	if err != nil {
		t.Fatal(err)
	}
	srvRefused, err := openai.New(openai.Config{APIKey: "k", BaseURL: refusedURL + "/v1", Retry: noRetry})
	if err != nil {
		t.Fatal(err)
	}
	empty := cache.New(h, nil, cache.Options{})
	otherDim, _ := hash.New(hash.Config{Dim: 64}) // cache holds 256-dim vectors

	cases := []struct {
		name string
		opts Options
	}{
		{"no embedder", Options{Vectors: c}},
		{"no vectors source", Options{Embedder: h}},
		{"embedder hangs past the timeout", Options{Embedder: hangingEmbedder{}, Vectors: c, EmbedTimeout: 50 * time.Millisecond}},
		{"embedder errors", Options{Embedder: errEmbedder{errors.New("boom")}, Vectors: c}},
		{"embedder panics", Options{Embedder: panicEmbedder{}, Vectors: c}},
		{"HTTP 5xx", Options{Embedder: srv5xx, Vectors: c}},
		{"connection refused", Options{Embedder: srvRefused, Vectors: c}},
		{"no cached vectors", Options{Embedder: h, Vectors: empty}},
		{"query and cache dimensions differ", Options{Embedder: otherDim, Vectors: c}},
		{"cache fails to load", Options{Embedder: h, Vectors: brokenVectors{}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := New(st, tc.opts)
			start := time.Now()
			got, err := e.Retrieve(ctx, query)
			if err != nil {
				t.Fatalf("error surfaced: %v", err)
			}
			if got.EmbeddingUsed {
				t.Fatal("embedding_used true on a failed path")
			}
			if g := asJSON(t, got); g != want {
				t.Fatalf("result differs from pure BM25:\n got %s\nwant %s", g, want)
			}
			// Correctness bound, not a speed target: the hanging embedder
			// must be abandoned at its timeout rather than awaited.
			if tc.opts.EmbedTimeout > 0 && time.Since(start) > 10*time.Second {
				t.Fatalf("retrieve waited %v on a hanging embedder", time.Since(start))
			}
		})
	}
}

func TestQueryVectorLRU(t *testing.T) {
	st := fusionStore()
	_, c := synced(t, st)
	h, _ := hash.New(hash.Config{})
	ce := &countingQueryEmbedder{Embedder: h}
	e := New(st, Options{Embedder: ce, Vectors: c})
	for range 3 {
		if _, err := e.Retrieve(ctx, Request{Query: "seaside"}); err != nil {
			t.Fatal(err)
		}
	}
	if ce.calls != 1 {
		t.Fatalf("query embedded %d times, want 1 (LRU)", ce.calls)
	}
	for i := range 300 {
		_, _ = e.Retrieve(ctx, Request{Query: fmt.Sprint("q", i)})
	}
	_, _ = e.Retrieve(ctx, Request{Query: "seaside"})
	if ce.calls != 302 {
		t.Fatalf("calls = %d: the LRU should have evicted the first query", ce.calls)
	}
}

// Writes through the engine are seen by the fused path: an added entry
// with a cached vector is found, a deleted one disappears.
// Vectors cached after the engine built its table (a sync in the same
// process, a background fill) are used by the next retrieve.
func TestFusionSeesNewVectors(t *testing.T) {
	st := fusionStore()
	h, _ := hash.New(hash.Config{})
	c := cache.New(h, nil, cache.Options{})
	e := New(st, Options{Embedder: h, Vectors: c})
	res, _ := e.Retrieve(ctx, Request{Query: "seaside"})
	if res.EmbeddingUsed {
		t.Fatal("fusion ran with an empty cache")
	}
	var texts []string
	for e := range st.All(ctx) {
		texts = append(texts, e.Name+" "+e.Content)
	}
	if _, err := c.Sync(ctx, texts, nil); err != nil {
		t.Fatal(err)
	}
	res, _ = e.Retrieve(ctx, Request{Query: "seaside"})
	if !res.EmbeddingUsed {
		t.Fatal("vectors synced after the first retrieve were not used")
	}
}

func TestFusionAfterWrites(t *testing.T) {
	st := fusionStore()
	h, c := synced(t, st)
	e := New(st, Options{Embedder: h, Vectors: c})
	if _, err := e.Retrieve(ctx, Request{Query: "kayak"}); err != nil {
		t.Fatal(err)
	}
	add := ent("trips", "kayak", "Kayaking in Halong Bay")
	if _, err := c.Embed(ctx, []string{add.Name + " " + add.Content}); err != nil {
		t.Fatal(err)
	}
	if err := e.Put(ctx, add); err != nil {
		t.Fatal(err)
	}
	res, _ := e.Retrieve(ctx, Request{Query: "kayaking trip"})
	if !res.EmbeddingUsed || len(res.Items) == 0 || res.Items[0].Name != "kayak" || res.Items[0].CosScore == nil {
		t.Fatalf("added entry not ranked first with a cosine: %v", keys(res.Items))
	}
	if err := e.Delete(ctx, "trips", "kayak"); err != nil {
		t.Fatal(err)
	}
	res, _ = e.Retrieve(ctx, Request{Query: "kayaking trip"})
	for _, it := range res.Items {
		if it.Name == "kayak" {
			t.Fatal("deleted entry still retrieved")
		}
	}
}

type hangingEmbedder struct{}

func (hangingEmbedder) Model() string { return "hang" }
func (hangingEmbedder) Embed(context.Context, []string) ([][]float32, error) {
	select {} // ignores its context entirely
}

type errEmbedder struct{ err error }

func (e errEmbedder) Model() string                                        { return "err" }
func (e errEmbedder) Embed(context.Context, []string) ([][]float32, error) { return nil, e.err }

type panicEmbedder struct{}

func (panicEmbedder) Model() string { return "panic" }
func (panicEmbedder) Embed(context.Context, []string) ([][]float32, error) {
	panic("embedder bug")
}

type brokenVectors struct{}

func (brokenVectors) Load(context.Context) error   { return errors.New("corrupt") }
func (brokenVectors) Get(string) ([]float32, bool) { return nil, false }

type countingQueryEmbedder struct {
	*hash.Embedder
	calls int
}

func (c *countingQueryEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.calls++
	return c.Embedder.Embed(ctx, texts)
}

func (brokenVectors) Generation() uint64 { return 0 }

// Vectors cached after the table was built fill the missing rows of the
// same table (refresh), and an entry that had none gains a cos_score.
func TestFusionRefreshesPartialTable(t *testing.T) {
	st := fusionStore()
	h, _ := hash.New(hash.Config{})
	c := cache.New(h, nil, cache.Options{})
	var texts []string
	for e := range st.All(ctx) {
		texts = append(texts, e.Name+" "+e.Content)
	}
	// Everything but the coffee entry first.
	var some []string
	for _, tx := range texts {
		if !strings.HasPrefix(tx, "coffee ") {
			some = append(some, tx)
		}
	}
	if _, err := c.Embed(ctx, some); err != nil {
		t.Fatal(err)
	}
	e := New(st, Options{Embedder: h, Vectors: c})
	cosOf := func() *float64 {
		res, err := e.Retrieve(ctx, Request{Query: "flat white coffee", Budget: Unlimited})
		if err != nil || !res.EmbeddingUsed {
			t.Fatalf("fusion did not run: %v", err)
		}
		for _, it := range res.Items {
			if it.Name == "coffee" {
				return it.CosScore
			}
		}
		t.Fatal("coffee not retrieved")
		return nil
	}
	if cosOf() != nil {
		t.Fatal("coffee has a cos_score before its vector exists")
	}
	before := e.vt.Load()
	if _, err := c.Embed(ctx, texts); err != nil {
		t.Fatal(err)
	}
	if cosOf() == nil {
		t.Fatal("coffee's vector, cached later, was not used")
	}
	if after := e.vt.Load(); after == before || &after.mat[0] != &before.mat[0] {
		t.Fatal("expected a refreshed table sharing the matrix")
	}
}
