package retrieve_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
)

// BenchmarkBoltColdStart: a new engine's Load and Close over a bolt file
// of n generated entries (synth, 80 terms each; n is RECALL_BENCH_N, else
// 10k), as a one-shot command runs them, after k writes since the file's
// index copy was saved. "build-k" is a full build from every entry and its
// save (what every Load after a write did before the file kept a change
// history, and what a Load still does without one), taken in the same
// round just before the k writes, so each pair is measured side by side;
// "catchup-k" is the Load that brings the copy up to date by re-reading
// the k changed entries. Writes are single Puts (each one `recall add`),
// overwriting existing entries. Each metric is the median over rounds:
// ms of Load plus Close (Close waits for a save of the copy), and MB
// allocated by them.
//
//	RECALL_BENCH_N=100000 go test -run '^$' -bench BoltColdStart -benchtime 3x -timeout 30m ./retrieve/
func BenchmarkBoltColdStart(b *testing.B) {
	ctx := context.Background()
	n := 10_000
	if v, err := strconv.Atoi(os.Getenv("RECALL_BENCH_N")); err == nil && v > 0 {
		n = v
	}
	// A history as long as the store, so that k = n/4 is within it.
	st, err := bolt.Open(filepath.Join(b.TempDir(), "m.db"), &bolt.Options{NoSync: true, History: max(bolt.DefaultHistory, n)})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ents := synth.New(1, 20_000).Entries(n, 80)
	if err := st.PutBatch(ctx, ents); err != nil {
		b.Fatal(err)
	}
	// run is one process's Load and Close, with a copy (Load) or without
	// (Rebuild, then the save a full build makes).
	run := func(cached bool) (time.Duration, float64) {
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		e := retrieve.New(st, retrieve.Options{Persist: st})
		start := time.Now()
		if cached {
			_, err = e.Load(ctx)
		} else {
			_, err = e.Rebuild(ctx)
		}
		if err != nil {
			b.Fatal(err)
		}
		e.Close()
		took := time.Since(start)
		runtime.ReadMemStats(&m1)
		return took, float64(m1.TotalAlloc-m0.TotalAlloc) / (1 << 20)
	}
	ks := []int{1, 100, 1000}
	if n >= 20_000 {
		ks = append(ks, 2000, 10_000, n/4) // rewriting most of a small store says little
	}
	times := map[string][]time.Duration{}
	allocs := map[string][]float64{} // MB
	version := 0
	for b.Loop() {
		for _, k := range ks {
			t, mb := run(false) // also saves a copy at the current revision
			times[fmt.Sprint("build-", k)] = append(times[fmt.Sprint("build-", k)], t)
			allocs[fmt.Sprint("build-", k)] = append(allocs[fmt.Sprint("build-", k)], mb)
			for i := range k {
				e := ents[(version*7919+i*104729)%len(ents)]
				version++
				e.Content += " edit" + strconv.Itoa(version)
				e.Meta = store.Meta{}
				if err := st.Put(ctx, e); err != nil {
					b.Fatal(err)
				}
			}
			t, mb = run(true)
			times[fmt.Sprint("catchup-", k)] = append(times[fmt.Sprint("catchup-", k)], t)
			allocs[fmt.Sprint("catchup-", k)] = append(allocs[fmt.Sprint("catchup-", k)], mb)
		}
	}
	b.StopTimer()
	for _, k := range ks {
		for _, what := range []string{"build-", "catchup-"} {
			name := what + strconv.Itoa(k)
			b.ReportMetric(median(times[name]).Seconds()*1000, "ms-"+name)
			mb := slices.Sorted(slices.Values(allocs[name]))
			b.ReportMetric(mb[len(mb)/2], "MB-"+name)
		}
	}
}

// BenchmarkServerRestart: a server's Engine over a bolt file of n
// generated entries (RECALL_BENCH_N, else 10k; the file's default change
// history) takes k writes through Engine.Put (RECALL_BENCH_K, else 20,000:
// more than bolt.DefaultHistory), then closes; the next process's Engine
// Loads and answers its first retrieve. Metrics, medians over rounds:
// "ms-close" (Close saves a copy that far behind, since issue 28) and
// "ms-restart" (the Load and first retrieve after it: a full build when no
// copy the history can bring up to date is left).
//
//	RECALL_BENCH_N=100000 go test -run '^$' -bench ServerRestart -benchtime 3x -timeout 30m ./retrieve/
func BenchmarkServerRestart(b *testing.B) {
	ctx := context.Background()
	n, k := 10_000, 20_000
	if v, err := strconv.Atoi(os.Getenv("RECALL_BENCH_N")); err == nil && v > 0 {
		n = v
	}
	if v, err := strconv.Atoi(os.Getenv("RECALL_BENCH_K")); err == nil && v > 0 {
		k = v
	}
	st, err := bolt.Open(filepath.Join(b.TempDir(), "m.db"), &bolt.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	gen := synth.New(1, 20_000)
	ents := gen.Entries(n, 80)
	if err := st.PutBatch(ctx, ents); err != nil {
		b.Fatal(err)
	}
	query := gen.Query(3)
	var closes, restarts []time.Duration
	version := 0
	for b.Loop() {
		e := retrieve.New(st, retrieve.Options{Persist: st})
		if _, err := e.Load(ctx); err != nil {
			b.Fatal(err)
		}
		for i := range k {
			ent := ents[(version*7919+i*104729)%len(ents)]
			version++
			ent.Content += " edit" + strconv.Itoa(version)
			ent.Meta = store.Meta{}
			if err := e.Put(ctx, ent); err != nil {
				b.Fatal(err)
			}
		}
		t0 := time.Now()
		e.Close()
		closes = append(closes, time.Since(t0))
		t0 = time.Now()
		e = retrieve.New(st, retrieve.Options{Persist: st})
		if _, err := e.Load(ctx); err != nil {
			b.Fatal(err)
		}
		if _, err := e.Retrieve(ctx, retrieve.Request{Query: query}); err != nil {
			b.Fatal(err)
		}
		restarts = append(restarts, time.Since(t0))
		e.Close()
	}
	b.StopTimer()
	b.ReportMetric(median(closes).Seconds()*1000, "ms-close")
	b.ReportMetric(median(restarts).Seconds()*1000, "ms-restart")
}
