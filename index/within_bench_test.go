package index

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/synth"
)

// BenchmarkTopWithin is retrieve's BenchmarkRetrieveRange at the index
// alone: Top (limit 10) inside a time range against Top without one, at
// 100k documents dated uniformly over five years, the same 256 generated
// 3-word queries, each round running the two alternately. It reports the
// p50 of each, their ratio, the share of ranged queries each scorer
// answered, and the heap the first range made (byDate, once per base
// segment) per document. Run:
//
//	go test -run XXX -bench TopWithin -benchtime 3000x -count 3 ./index/
func BenchmarkTopWithin(b *testing.B) {
	const n = 100_000
	start := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	span := 5 * 365 * 24 * time.Hour
	es := synth.New(42, 20_000).Entries(n, 80)
	r := rand.New(rand.NewPCG(22, 22))
	in := make([]Input, len(es))
	for i, e := range es {
		in[i] = Input{Category: e.Category, Name: e.Name, Content: e.Content,
			Date: start.Add(time.Duration(r.Int64N(int64(span))))}
	}
	s := Build(1, nil, in)
	// What the first range costs the heap: the documents sorted by date
	// and each one's rank in that order (byDate), made once per base.
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s.In(TimeRange{From: start, To: start.Add(24 * time.Hour)})
	runtime.GC()
	runtime.ReadMemStats(&after)
	sortedHeap := (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / n
	g := synth.New(7, 20_000)
	qs := make([][]string, 256)
	for i := range qs {
		qs[i] = s.Terms(g.Query(3))
	}
	day := 24 * time.Hour
	for _, w := range []struct {
		name  string
		width time.Duration
	}{{"day", day}, {"week", 7 * day}, {"month", 30 * day}, {"year", 365 * day}, {"all", span}} {
		b.Run(w.name, func(b *testing.B) {
			with := make([]time.Duration, 0, b.N)
			without := make([]time.Duration, 0, b.N)
			rr := rand.New(rand.NewPCG(1, 2))
			var chosen [impactScorer + 1]int
			var dst []Scored
			b.ResetTimer()
			for i := range b.N {
				terms := qs[i%len(qs)]
				from := start
				if w.width != span {
					from = start.Add(time.Duration(rr.Int64N(int64(span - w.width))))
				}
				tr := TimeRange{From: from, To: from.Add(w.width), Loc: time.UTC}
				for j := range 2 {
					ranged := (i+j)%2 == 1 // alternate which runs first
					t0 := time.Now()
					q := TopQuery{Terms: terms, Limit: 10}
					if ranged {
						q.Within = s.In(tr)
					}
					var err error
					dst, err = s.AppendTop(dst[:0], q)
					if err != nil {
						b.Fatal(err)
					}
					d := time.Since(t0)
					if ranged {
						with = append(with, d)
					} else {
						without = append(without, d)
					}
				}
				if i < len(qs) {
					chosen[s.chosen(TopQuery{Terms: terms, Limit: 10, Within: s.In(tr)})]++
				}
			}
			b.StopTimer()
			pw, po := p50(with), p50(without)
			b.ReportMetric(float64(pw.Nanoseconds())/1e3, "µs-p50-range")
			b.ReportMetric(float64(po.Nanoseconds())/1e3, "µs-p50-none")
			b.ReportMetric(float64(pw)/float64(po), "ratio")
			b.ReportMetric(sortedHeap, "byDateB/entry")
			total := 0
			for _, c := range chosen {
				total += c
			}
			for sc, c := range chosen {
				if c > 0 {
					b.ReportMetric(float64(c)/float64(total), "share-"+scorer(sc).String())
				}
			}
		})
	}
}

// chosen is the scorer Top picks for q.
func (s *Snapshot) chosen(q TopQuery) scorer {
	p := s.plan(q.Terms)
	if p == nil {
		return exhaustiveScorer
	}
	p.h.k = q.Limit
	if q.Within != nil && q.Within.all {
		q.Within = nil
	}
	p.h.within = q.Within
	return s.choose(p, q).scorer
}

func p50(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
