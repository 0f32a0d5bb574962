package postgres

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
)

// Benchmarks against the server of RECALL_TEST_POSTGRES_URL; see
// docs/performance.md for figures and commands.

var (
	benchMu      sync.Mutex
	benchCorpora = map[int][]store.Entry{}
)

// benchCorpus returns n generated notes (internal/synth, seeded).
func benchCorpus(n int) []store.Entry {
	benchMu.Lock()
	defer benchMu.Unlock()
	if c, ok := benchCorpora[n]; ok {
		return c
	}
	c := synth.New(42, 20_000).Entries(n, 80)
	benchCorpora[n] = c
	return c
}

// renamed returns es under category prefix/…, so that each benchmark
// iteration inserts new rows.
func renamed(es []store.Entry, prefix string) []store.Entry {
	out := make([]store.Entry, len(es))
	for i, e := range es {
		e.Category = prefix + "-" + e.Category
		out[i] = e
	}
	return out
}

// BenchmarkImport writes n entries per iteration: one Put each, or one
// PutBatch. The metric entries/s is what bulk import achieves.
func BenchmarkImport(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		es := benchCorpus(n)
		b.Run(fmt.Sprintf("PutBatch/n=%d", n), func(b *testing.B) {
			s := openNew(b)
			i := 0
			for b.Loop() {
				if err := s.PutBatch(ctx, renamed(es, fmt.Sprint("it", i))); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "entries/s")
		})
		if n > 1_000 {
			continue // one Put each is slow; 1,000 tells the rate
		}
		b.Run(fmt.Sprintf("Put/n=%d", n), func(b *testing.B) {
			s := openNew(b)
			i := 0
			for b.Loop() {
				for _, e := range renamed(es, fmt.Sprint("it", i)) {
					if err := s.Put(ctx, e); err != nil {
						b.Fatal(err)
					}
				}
				i++
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "entries/s")
		})
	}
}

// fillBench returns a store holding n generated entries (one PutBatch).
func fillBench(b *testing.B, n int) *Store {
	b.Helper()
	s := openNew(b)
	if err := s.PutBatch(ctx, benchCorpus(n)); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkColdStart is what an engine's first retrieve costs over
// PostgreSQL: read every entry (All) and build the index.
func BenchmarkColdStart(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			s := fillBench(b, n)
			q := synth.New(7, 20_000).Query(3)
			for b.Loop() {
				eng := retrieve.New(s, retrieve.Options{})
				if _, err := eng.Retrieve(ctx, retrieve.Request{Query: q, Limit: 10, Budget: 800}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("AllOnly/n=%d", n), func(b *testing.B) {
			s := fillBench(b, n)
			for b.Loop() {
				got := 0
				for _, err := range s.All(ctx) {
					if err != nil {
						b.Fatal(err)
					}
					got++
				}
				if got != n {
					b.Fatalf("All yielded %d, want %d", got, n)
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "entries/s")
		})
	}
}

// BenchmarkRetrieveWarm: limit 10, budget 800, links on, warm index, as
// in the other backends' retrieve benchmark. Each retrieve asks the store
// for its revision (one round trip), which is what PostgreSQL adds.
func BenchmarkRetrieveWarm(b *testing.B) {
	for _, n := range []int{10_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			s := fillBench(b, n)
			eng := retrieve.New(s, retrieve.Options{})
			g := synth.New(7, 20_000)
			qs := make([]string, 256)
			for i := range qs {
				qs[i] = g.Query(3)
			}
			if _, err := eng.Retrieve(ctx, retrieve.Request{Query: qs[0], Limit: 10, Budget: 800}); err != nil {
				b.Fatal(err)
			}
			lat := make([]time.Duration, 0, b.N)
			i := 0
			for b.Loop() {
				start := time.Now()
				if _, err := eng.Retrieve(ctx, retrieve.Request{Query: qs[i%len(qs)], Limit: 10, Budget: 800}); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
				i++
			}
			reportPercentiles(b, lat, "µs")
		})
	}
}

// BenchmarkVisibility measures how long a write committed on one host
// takes to show in another host's Changes, under a steady load of one
// write every 10 ms (b.N writes). The other host works as an engine
// would: woken by its subscription, it asks Changes since the revision it
// knows.
func BenchmarkVisibility(b *testing.B) {
	schema := newSchema(b)
	a := openSchema(b, schema, nil)
	r := openSchema(b, schema, nil)
	ch, cancel := r.Subscribe()
	defer cancel()
	deadline := time.Now().Add(5 * time.Second)
	for !r.Listening() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	since := revision(b, r)

	var (
		committed = make([]time.Time, b.N) // by the writer
		seenAt    = map[string]time.Time{} // by the reader
		done      = make(chan struct{})
	)
	go func() { // host r: the reader
		defer close(done)
		for len(seenAt) < b.N {
			select {
			case <-ch:
			case <-time.After(10 * time.Second):
				return
			}
			cs, err := r.Changes(ctx, since)
			if err != nil || cs.Reset {
				b.Errorf("changes: %+v %v", cs, err)
				return
			}
			now := time.Now()
			since = cs.Rev
			for _, k := range cs.Keys {
				if _, ok := seenAt[k.Name]; !ok {
					seenAt[k.Name] = now
				}
			}
		}
	}()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	b.ResetTimer()
	for i := range b.N {
		<-tick.C
		if err := a.Put(ctx, store.Entry{Category: "load", Name: fmt.Sprint("w", i), Content: "x"}); err != nil {
			b.Fatal(err)
		}
		committed[i] = time.Now() // acknowledged
	}
	<-done
	b.StopTimer()
	if len(seenAt) != b.N {
		b.Fatalf("reader saw %d of %d writes", len(seenAt), b.N)
	}
	lat := make([]time.Duration, b.N)
	for i, t0 := range committed {
		// The reader may learn of a write before Put has returned to the
		// writer: that counts as no delay.
		lat[i] = max(0, seenAt[fmt.Sprint("w", i)].Sub(t0))
	}
	reportPercentiles(b, lat, "ms")
}

func reportPercentiles(b *testing.B, lat []time.Duration, unit string) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	div := float64(time.Microsecond)
	if unit == "ms" {
		div = float64(time.Millisecond)
	}
	b.ReportMetric(float64(lat[len(lat)/2])/div, "p50-"+unit)
	b.ReportMetric(float64(lat[len(lat)*99/100])/div, "p99-"+unit)
}

// BenchmarkRevision is the round trip every retrieve pays to learn whether
// its snapshot is current.
func BenchmarkRevision(b *testing.B) {
	s := openNew(b)
	for b.Loop() {
		if _, err := s.Revision(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
