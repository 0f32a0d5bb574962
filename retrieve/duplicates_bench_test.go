package retrieve_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
)

// BenchmarkRetrieveCollapse: retrieve at 100k entries (bolt), 1% of them
// copies of another entry, with collapse on and off (keep_duplicates),
// alternated query by query on one engine so that the machine's load hits
// both alike. The second case is a store without duplicates.
//
//	go test -run XXX -bench RetrieveCollapse -benchtime 1x ./retrieve/
func BenchmarkRetrieveCollapse(b *testing.B) {
	ctx := context.Background()
	qs := queries()
	for _, c := range []struct {
		name   string
		copies bool
	}{{"copies=1%", true}, {"copies=0", false}} {
		b.Run(c.name, func(b *testing.B) {
			st := openBench(b, "bolt", 100_000)
			defer st.Close()
			if c.copies {
				es := corpus(100_000)
				for i := 100; i < len(es); i += 100 {
					cp := store.Entry{Category: es[i].Category, Name: es[i].Name + " copy", Content: es[i].Content}
					if err := st.Put(ctx, cp); err != nil {
						b.Fatal(err)
					}
				}
			}
			eng := retrieve.New(st, retrieve.Options{})
			defer eng.Close()
			if _, err := eng.Retrieve(ctx, retrieve.Request{Query: "warm"}); err != nil {
				b.Fatal(err)
			}
			for _, q := range qs { // the lists' caches, made by a query's first run
				if _, err := eng.Retrieve(ctx, retrieve.Request{Query: q, KeepDuplicates: true}); err != nil {
					b.Fatal(err)
				}
			}
			// Rounds over every query, each query run with collapse on and
			// off back to back (the order alternating by round); per query
			// the fastest of the rounds in each mode, which the machine's
			// load inflates least. ratio is the median of the per-query
			// quotients.
			const rounds = 8
			on, off := make([]time.Duration, len(qs)), make([]time.Duration, len(qs))
			collapsed := 0
			run := func(q string, keep bool) time.Duration {
				t0 := time.Now()
				res, err := eng.Retrieve(ctx, retrieve.Request{Query: q, KeepDuplicates: keep})
				d := time.Since(t0)
				if err != nil {
					b.Fatal(err)
				}
				if !keep {
					for _, it := range res.Items {
						collapsed += len(it.Collapsed)
					}
				}
				return d
			}
			for b.Loop() {
				for r := range rounds {
					for k, q := range qs {
						var a, z time.Duration
						if r%2 == 0 {
							a = run(q, false)
							z = run(q, true)
						} else {
							z = run(q, true)
							a = run(q, false)
						}
						if r == 0 || a < on[k] {
							on[k] = a
						}
						if r == 0 || z < off[k] {
							off[k] = z
						}
					}
				}
			}
			ratios := make([]float64, len(qs))
			for k := range qs {
				ratios[k] = float64(on[k]) / float64(off[k])
			}
			slices.Sort(ratios)
			slices.Sort(on)
			slices.Sort(off)
			b.ReportMetric(float64(on[len(on)/2].Nanoseconds()), "p50-on-ns")
			b.ReportMetric(float64(off[len(off)/2].Nanoseconds()), "p50-off-ns")
			b.ReportMetric(ratios[len(ratios)/2], "ratio")
			b.ReportMetric(float64(collapsed)/float64(rounds*len(qs)), "collapsed/op")
		})
	}
}
