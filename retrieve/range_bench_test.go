package retrieve

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/synth"
)

// BenchmarkRetrieveRange measures a retrieve restricted to a time range
// against the same retrieve without one, at 100k entries dated over five
// years, for ranges from a day (about 55 entries) to all five years. Each
// round runs the two, alternately, on the same query (generated words,
// limit 10, links on, default budget), so both see the same machine
// load; the metrics are the p50 of each and their ratio. "phrase" is the
// range read from a phrase in the query ("... in May 2023"), parser
// included. Run:
//
//	go test -run XXX -bench RetrieveRange -benchtime 400x ./retrieve/
func BenchmarkRetrieveRange(b *testing.B) {
	const n = 100_000
	start := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	span := 5 * 365 * 24 * time.Hour
	es := synth.New(42, 20_000).Entries(n, 80)
	r := rand.New(rand.NewPCG(22, 22))
	for i := range es {
		es[i].Meta.Date = start.Add(time.Duration(r.Int64N(int64(span))))
	}
	e := New(newMemStore(es...), Options{})
	if _, err := e.Retrieve(ctx, Request{Query: "warm"}); err != nil {
		b.Fatal(err)
	}
	g := synth.New(7, 20_000)
	qs := make([]string, 256)
	for i := range qs {
		qs[i] = g.Query(3)
	}
	day := 24 * time.Hour
	for _, w := range []struct {
		name  string
		width time.Duration
	}{{"day", day}, {"week", 7 * day}, {"month", 30 * day}, {"year", 365 * day}, {"all", span}, {"phrase", 0}} {
		b.Run(w.name, func(b *testing.B) {
			with := make([]time.Duration, 0, b.N)
			without := make([]time.Duration, 0, b.N)
			rr := rand.New(rand.NewPCG(1, 2))
			b.ResetTimer()
			for i := range b.N {
				q := qs[i%len(qs)]
				req := Request{Query: q, NoTime: true}
				ranged := req
				switch w.width {
				case 0:
					ranged = Request{Query: q + " in May 2023", Now: start.Add(span)}
				case span:
					ranged.After, ranged.Before = start, start.Add(span)
				default:
					ranged.After = start.Add(time.Duration(rr.Int64N(int64(span - w.width))))
					ranged.Before = ranged.After.Add(w.width)
				}
				pair := [2]Request{req, ranged}
				if i%2 == 1 { // alternate which runs first
					pair[0], pair[1] = pair[1], pair[0]
				}
				for _, rq := range pair {
					t0 := time.Now()
					if _, err := e.Retrieve(ctx, rq); err != nil {
						b.Fatal(err)
					}
					d := time.Since(t0)
					if rq.NoTime && rq.After.IsZero() {
						without = append(without, d)
					} else {
						with = append(with, d)
					}
				}
			}
			b.StopTimer()
			pw, po := p50(with), p50(without)
			b.ReportMetric(float64(pw.Microseconds()), "µs-p50-range")
			b.ReportMetric(float64(po.Microseconds()), "µs-p50-none")
			b.ReportMetric(float64(pw)/float64(po), "ratio")
		})
	}
}

func p50(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
