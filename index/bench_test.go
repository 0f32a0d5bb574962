package index_test

import (
	"fmt"
	"os"
	"runtime"
	"slices"
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
	tok := index.Spec()
	terms := 0
	for _, d := range in {
		terms += len(tok.Tokens(d.Name + " " + d.Content))
	}
	return in, raw, terms
}

// BenchmarkBuild measures a full index build. Extra metrics: ns per
// indexed token, heap held by the index per entry, not counting the
// entries' text (the snapshot shares the inputs' strings), and the index's
// heap (postings, dictionary, doc table and the content it keeps) over the
// raw text size. RECALL_BENCH_1M=1 runs 1M entries instead.
func BenchmarkBuild(b *testing.B) {
	sz := sizes
	if os.Getenv("RECALL_BENCH_1M") != "" {
		sz = []int{1_000_000}
	}
	for _, n := range sz {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			in, raw, terms := inputs(n)
			tok := index.Spec()
			b.ResetTimer()
			for b.Loop() { // b.Loop keeps each result alive
				index.Build(1, tok, in)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(terms), "ns/token")

			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			s := index.Build(1, tok, in)
			runtime.GC()
			runtime.ReadMemStats(&after)
			// The inputs slice must outlive the second reading: freed in
			// between, it would take its 48 bytes per entry off the figure.
			runtime.KeepAlive(in)
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
	tok := index.Spec()
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
	sz := sizes
	if os.Getenv("RECALL_BENCH_1M") != "" {
		sz = []int{1_000_000}
	}
	for _, n := range sz {
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
					var p paired
					i := 0
					for b.Loop() {
						q := qs[i%len(qs)]
						p.run(i, func() { s.Top(index.TopQuery{Terms: q, Limit: k}) },
							func() { s.Top(index.TopQuery{Terms: q, Limit: k, Pruning: index.PruneNever}) })
						i++
					}
					p.report(b, "pruned", "exhaustive")
				})
			}
		}
	}
}

// BenchmarkSearchOverlay times the same queries on a snapshot and on the
// same snapshot after 300 writes (a third replacing entries, a third new,
// a third deletes) still in its overlay, back to back: the read cost of a
// burst of writes before the compaction lands. Metric: overlay / quiet.
func BenchmarkSearchOverlay(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		in, _, _ := inputs(n)
		s := index.Build(1, nil, in)
		o := s
		extra := synth.New(9, 20_000).Entries(300, 80)
		for i, e := range extra {
			d := in[(i*7919)%len(in)]
			switch i % 3 {
			case 0:
				o = o.With(uint64(2+i), index.Input{Category: d.Category, Name: d.Name, Content: e.Content})
			case 1:
				o = o.With(uint64(2+i), index.Input{Category: e.Category, Name: e.Name + "-new", Content: e.Content})
			default:
				o = o.Without(uint64(2+i), d.Category, d.Name)
			}
		}
		g := synth.New(7, 20_000)
		qs := make([][]string, 64)
		for i := range qs {
			qs[i] = s.Terms(g.Query(3))
		}
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			var p paired
			i := 0
			for b.Loop() {
				q := qs[i%len(qs)]
				p.run(i, func() { o.Search(q, 10) }, func() { s.Search(q, 10) })
				i++
			}
			p.report(b, "overlay", "quiet")
		})
	}
}

// paired times two variants of the same operation back to back, in
// alternating order, so both see the same load on a shared machine, and
// reports each one's median (robust to the preemptions such a machine
// inflicts) and the ratio of the medians.
type paired struct{ a, b []time.Duration }

func (p *paired) run(i int, a, b func()) {
	for r := range 2 {
		t0 := time.Now()
		if (r+i)%2 == 0 {
			a()
			p.a = append(p.a, time.Since(t0))
		} else {
			b()
			p.b = append(p.b, time.Since(t0))
		}
	}
}

func (p *paired) report(b *testing.B, a, bname string) {
	slices.Sort(p.a)
	slices.Sort(p.b)
	ma, mb := p.a[len(p.a)/2], p.b[len(p.b)/2]
	b.ReportMetric(float64(ma.Nanoseconds()), a+"-p50-ns")
	b.ReportMetric(float64(mb.Nanoseconds()), bname+"-p50-ns")
	b.ReportMetric(float64(ma)/float64(mb), a+"/"+bname)
}
