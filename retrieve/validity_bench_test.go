package retrieve

import (
	"fmt"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/store"
)

// BenchmarkRetrieveValidity measures a retrieve on a store whose entries
// carry supersedes and expires against the same retrieve on the same
// entries without them, at 100k entries. With "1pct" one entry in 100
// supersedes another and one in 100 expires (half of those have expired
// at the request's now); "10pct" has ten times as many. Each round runs
// the two engines, alternately, on the same query (generated words, limit
// 10, links on, default budget); the metrics are the p50 of each and
// their ratio. Run:
//
//	go test -run XXX -bench RetrieveValidity -benchtime 400x ./retrieve/
func BenchmarkRetrieveValidity(b *testing.B) {
	const n = 100_000
	now := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	plain := synth.New(42, 20_000).Entries(n, 80)
	plainEng := New(newMemStore(plain...), Options{})
	if _, err := plainEng.Retrieve(ctx, Request{Query: "warm"}); err != nil {
		b.Fatal(err)
	}
	g := synth.New(7, 20_000)
	qs := make([]string, 256)
	for i := range qs {
		qs[i] = g.Query(3)
	}
	for _, every := range []int{100, 10} {
		b.Run(fmt.Sprintf("%dpct", 100/every), func(b *testing.B) {
			es := synth.New(42, 20_000).Entries(n, 80)
			for i := range es {
				switch i % every {
				case 0:
					if i+1 < len(es) {
						es[i].Meta.Extra = map[string]any{store.MetaSupersedes: []any{"[[" + es[i+1].Key().String() + "]]"}}
					}
				case every / 2:
					at := now.Add(time.Duration(i%2*2-1) * time.Hour) // half past, half to come
					es[i].Meta.Extra = map[string]any{store.MetaExpires: at.Format(time.RFC3339)}
				}
			}
			eng := New(newMemStore(es...), Options{})
			if _, err := eng.Retrieve(ctx, Request{Query: "warm", Now: now}); err != nil {
				b.Fatal(err)
			}
			with := make([]time.Duration, 0, b.N)
			without := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				req := Request{Query: qs[i%len(qs)], NoTime: true, Now: now}
				engs := [2]*Engine{plainEng, eng}
				if i%2 == 1 { // alternate which runs first
					engs[0], engs[1] = engs[1], engs[0]
				}
				for _, e := range engs {
					t0 := time.Now()
					if _, err := e.Retrieve(ctx, req); err != nil {
						b.Fatal(err)
					}
					d := time.Since(t0)
					if e == eng {
						with = append(with, d)
					} else {
						without = append(without, d)
					}
				}
			}
			b.StopTimer()
			pw, po := p50(with), p50(without)
			b.ReportMetric(float64(pw.Microseconds()), "µs-p50-validity")
			b.ReportMetric(float64(po.Microseconds()), "µs-p50-none")
			b.ReportMetric(float64(pw)/float64(po), "ratio")
		})
	}
}

// BenchmarkValidityOf measures working out the superseded set of one
// snapshot (what Engine.Validity does once per snapshot) at 100k entries
// of which 10k supersede a neighbour and 10k expire. Run:
//
//	go test -run XXX -bench ValidityOf ./retrieve/
func BenchmarkValidityOf(b *testing.B) {
	es := synth.New(42, 20_000).Entries(100_000, 80)
	for i := range es {
		switch i % 10 {
		case 0:
			es[i].Meta.Extra = map[string]any{store.MetaSupersedes: []any{"[[" + es[i+1].Key().String() + "]]"}}
		case 5:
			es[i].Meta.Extra = map[string]any{store.MetaExpires: "2025-06-01"}
		}
	}
	e := New(newMemStore(es...), Options{})
	snap, err := e.Snapshot(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if v := validityOf(snap); len(v.Superseded()) != 10_000 {
		b.Fatalf("%d superseded", len(v.Superseded()))
	}
	b.ResetTimer()
	for range b.N {
		validityOf(snap)
	}
}
