package index_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/internal/synth"
)

var sizes = []int{1_000, 10_000, 100_000}

func inputs(n int) ([]index.Input, int, int) {
	es := synth.New(42, 20_000).Entries(n, 80)
	in := make([]index.Input, len(es))
	raw := 0
	for i, e := range es {
		in[i] = index.Input{Category: e.Category, Name: e.Name, Content: e.Content}
		raw += len(e.Category) + len(e.Name) + len(e.Content)
	}
	tok := index.NewTokenizer(index.SegmentOff)
	terms := 0
	for _, d := range in {
		terms += len(tok.Tokens(d.Name + " " + d.Content))
	}
	return in, raw, terms
}

// BenchmarkBuild measures a full index build. Extra metrics: ns per
// indexed token, heap held by the index per entry, and the index's heap
// (postings, dictionary, doc table and the content it keeps) over the raw
// text size.
func BenchmarkBuild(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			in, raw, terms := inputs(n)
			tok := index.NewTokenizer(index.SegmentOff)
			b.ResetTimer()
			var s *index.Snapshot
			for b.Loop() {
				s = index.Build(1, tok, in)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(terms), "ns/token")

			var before, after runtime.MemStats
			s = nil
			runtime.GC()
			runtime.ReadMemStats(&before)
			s = index.Build(1, tok, in)
			runtime.GC()
			runtime.ReadMemStats(&after)
			held := float64(after.HeapAlloc) - float64(before.HeapAlloc)
			b.ReportMetric(held/float64(n), "heapB/entry")
			// The inputs' content strings are shared with the snapshot, so
			// add them back to count what the index holds in all.
			b.ReportMetric((held+float64(raw))/float64(raw), "heap/raw")
			runtime.KeepAlive(s)
		})
	}
}

func BenchmarkSearch(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			in, _, _ := inputs(n)
			s := index.Build(1, nil, in)
			g := synth.New(7, 20_000)
			qs := make([][]string, 64)
			for i := range qs {
				qs[i] = s.Terms(g.Query(3))
			}
			i := 0
			for b.Loop() {
				s.Search(qs[i%len(qs)], 10)
				i++
			}
		})
	}
}

func BenchmarkTokenize(b *testing.B) {
	in, raw, terms := inputs(1000)
	tok := index.NewTokenizer(index.SegmentOff)
	var buf []string
	b.SetBytes(int64(raw))
	for b.Loop() {
		for _, d := range in {
			buf = tok.AppendTokens(buf[:0], d.Content)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(terms), "ns/token")
}

// BenchmarkSearchPruning compares the pruned top-k with exhaustive scoring
// on the same queries, timed back to back in alternating order so that
// both see the same load: synthetic 3-term queries, and questions with
// four of the corpus's most common words around two rarer ones. The
// metrics are the mean time of each and the speed-up.
func BenchmarkSearchPruning(b *testing.B) {
	for _, n := range sizes {
		in, _, _ := inputs(n)
		s := index.Build(1, nil, in)
		g := synth.New(7, 20_000)
		c := synth.New(42, 20_000).Common(6)
		for _, kind := range []string{"synth3", "stopwords"} {
			qs := make([][]string, 64)
			for i := range qs {
				q := g.Query(3)
				if kind == "stopwords" {
					q = c[i%6] + " " + c[(i+1)%6] + " " + c[(i+3)%6] + " " + g.Query(2) + " " + c[(i+4)%6]
				}
				qs[i] = s.Terms(q)
			}
			for _, k := range []int{10, 100} {
				b.Run(fmt.Sprintf("entries=%d/%s/k=%d", n, kind, k), func(b *testing.B) {
					var tp, te time.Duration
					i := 0
					for b.Loop() {
						q := qs[i%len(qs)]
						for r := range 2 {
							exh := (r+i)%2 == 0
							t0 := time.Now()
							mode := index.PruneAuto
							if exh {
								mode = index.PruneNever
							}
							s.Top(index.Query{Terms: q, Limit: k, Pruning: mode})
							if exh {
								te += time.Since(t0)
							} else {
								tp += time.Since(t0)
							}
						}
						i++
					}
					b.ReportMetric(float64(tp.Nanoseconds())/float64(i), "pruned-ns/op")
					b.ReportMetric(float64(te.Nanoseconds())/float64(i), "exhaustive-ns/op")
					b.ReportMetric(float64(te)/float64(tp), "speedup")
				})
			}
		}
	}
}
