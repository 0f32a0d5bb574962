package retrieve_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
	"github.com/recallhq/recall/store/fs"
)

// Benchmarks of the whole read path on generated memories (mixed Chinese
// and English, about 80 terms each). The index is warm: the first
// retrieve builds it outside the timer. Run:
//
//	go test -run XXX -bench . -benchtime 2000x ./retrieve/
var benchSizes = []int{1_000, 10_000, 100_000}

var (
	corpusMu sync.Mutex
	corpora  = map[int][]store.Entry{}
)

func corpus(n int) []store.Entry {
	corpusMu.Lock()
	defer corpusMu.Unlock()
	if c, ok := corpora[n]; ok {
		return c
	}
	c := synth.New(42, 20_000).Entries(n, 80)
	corpora[n] = c
	return c
}

func queries() []string {
	g := synth.New(7, 20_000)
	qs := make([]string, 256)
	for i := range qs {
		qs[i] = g.Query(3)
	}
	return qs
}

// openBench fills a store of the backend with n entries. fs entries are
// written as files directly (no fsync) and bolt ones without fsync: the
// benchmark is about reading.
func openBench(b *testing.B, backend string, n int) store.Store {
	b.Helper()
	es := corpus(n)
	dir := b.TempDir()
	switch backend {
	case "fs":
		for _, e := range es {
			p := filepath.Join(dir, e.Category, e.Name+".md")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(e.Content), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		st, err := fs.Open(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		return st
	default:
		st, err := bolt.Open(filepath.Join(dir, "bench.db"), &bolt.Options{NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range es {
			if err := st.Put(context.Background(), e); err != nil {
				b.Fatal(err)
			}
		}
		return st
	}
}

// BenchmarkRetrieve: limit 10, budget 800, links on, warm index.
func BenchmarkRetrieve(b *testing.B) {
	ctx := context.Background()
	qs := queries()
	for _, backend := range []string{"fs", "bolt"} {
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("%s/entries=%d", backend, n), func(b *testing.B) {
				st := openBench(b, backend, n)
				defer st.Close()
				eng := retrieve.New(st, retrieve.Options{})
				if _, err := eng.Retrieve(ctx, retrieve.Request{Query: "warm"}); err != nil {
					b.Fatal(err)
				}
				timed(b, func(i int) {
					if _, err := eng.Retrieve(ctx, retrieve.Request{Query: qs[i%len(qs)]}); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

// timed runs op b.N times and reports, besides the mean, the median
// latency (p50-ns) and the 99th percentile (p99-ns).
func timed(b *testing.B, op func(i int)) {
	b.Helper()
	var ds []time.Duration
	i := 0
	for b.Loop() {
		t0 := time.Now()
		op(i)
		ds = append(ds, time.Since(t0))
		i++
	}
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(ds[len(ds)*99/100].Nanoseconds()), "p99-ns")
}

// randomEmbedder gives each text a deterministic pseudo-random unit vector:
// the speed of the fused path does not depend on what the vectors mean.
type randomEmbedder struct{ dim int }

func (e randomEmbedder) Model() string { return fmt.Sprintf("random:%d", e.dim) }

func (e randomEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		var seed uint64
		for _, c := range []byte(t) {
			seed = seed*131 + uint64(c)
		}
		r := rand.New(rand.NewPCG(seed, 1))
		v := make([]float32, e.dim)
		var s float32
		for j := range v {
			v[j] = float32(r.NormFloat64())
			s += v[j] * v[j]
		}
		for j := range v {
			v[j] /= sqrt32(s)
		}
		out[i] = v
	}
	return out, nil
}

func sqrt32(x float32) float32 {
	z := x
	for range 20 {
		z = (z + x/z) / 2
	}
	return z
}

// BenchmarkFusedRetrieve: the same retrieve with every entry's vector
// cached, excluding the query embedding (the query vector is in the LRU
// after the first call). Compare with BenchmarkMemoryRead in the same run:
// the cosine scan reads entries × dim × 4 bytes per query.
func BenchmarkFusedRetrieve(b *testing.B) {
	ctx := context.Background()
	qs := queries()
	for _, n := range []int{10_000, 100_000} {
		for _, dim := range []int{384, 768} {
			b.Run(fmt.Sprintf("entries=%d/dim=%d", n, dim), func(b *testing.B) {
				st := openBench(b, "bolt", n)
				defer st.Close()
				emb := randomEmbedder{dim: dim}
				c := cache.New(emb, nil, cache.Options{BatchSize: 1024})
				var texts []string
				for _, e := range corpus(n) {
					texts = append(texts, e.Name+" "+e.Content)
				}
				if _, err := c.Sync(ctx, texts, nil); err != nil {
					b.Fatal(err)
				}
				eng := retrieve.New(st, retrieve.Options{Embedder: emb, Vectors: c})
				for _, q := range qs { // warm index, vector table and query LRU
					if _, err := eng.Retrieve(ctx, retrieve.Request{Query: q}); err != nil {
						b.Fatal(err)
					}
				}
				res, _ := eng.Retrieve(ctx, retrieve.Request{Query: qs[0]})
				if !res.EmbeddingUsed {
					b.Fatal("fusion did not run")
				}
				b.SetBytes(int64(n * dim * 4))
				timed(b, func(i int) {
					if _, err := eng.Retrieve(ctx, retrieve.Request{Query: qs[i%len(qs)]}); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

// BenchmarkMemoryRead is the yardstick for the cosine scan: a plain
// sequential read (sum) of as many float32s as 10k and 100k × 384 vectors
// hold, on one core.
func BenchmarkMemoryRead(b *testing.B) {
	for _, n := range []int{10_000 * 384, 100_000 * 384} {
		b.Run(fmt.Sprintf("floats=%d", n), func(b *testing.B) {
			xs := make([]float32, n)
			for i := range xs {
				xs[i] = float32(i % 7)
			}
			b.SetBytes(int64(n * 4))
			var sink float32
			for b.Loop() {
				sink += sumFloat32(xs)
			}
			_ = sink
		})
	}
}

// sumFloat32 reads xs once, with eight independent sums so that the adds
// never wait on each other and memory is the only limit.
func sumFloat32(xs []float32) float32 {
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	n := len(xs) &^ 7
	for i := 0; i < n; i += 8 {
		x := xs[i : i+8 : i+8]
		s0 += x[0]
		s1 += x[1]
		s2 += x[2]
		s3 += x[3]
		s4 += x[4]
		s5 += x[5]
		s6 += x[6]
		s7 += x[7]
	}
	return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7
}
