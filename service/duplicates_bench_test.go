package service_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/internal/cputime"
	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
)

// dupCorpus is n generated entries, every 100th a copy of the one before.
func dupCorpus(n int) []store.Entry {
	es := synth.New(42, 20_000).Entries(n, 80)
	for i := 100; i < len(es); i += 100 {
		es[i].Content = es[i-1].Content
	}
	return es
}

// BenchmarkImportDuplicates: an import of 100k entries into a new bolt
// store (importer.Plan.Write, batched) and its duplicate report
// (Memory.DuplicatesOf: the index built once, with the persisted copy,
// and looked at), detection on and off (retrieve.Options.NoDuplicates:
// the same build without it). Each iteration is one pair over the same
// corpus, off then on (on then off every other pair, so that neither
// always runs second), so -benchtime 12x is twelve pairs. ratio-median
// is the median of the pairs' wall-clock quotients on/off, and
// cpu-ratio-median that of their process CPU time (user + system, all
// goroutines, the copy's save included): the figures to read on a loaded
// machine. sec-on and sec-off are the mean seconds of each, ratio their
// quotient, and cpu-ratio the quotient of the total CPU times.
//
//	go test -run XXX -bench ImportDuplicates -benchtime 12x ./service/
func BenchmarkImportDuplicates(b *testing.B) {
	ctx := context.Background()
	es := dupCorpus(100_000)
	plan := &importer.Plan{}
	for i, e := range es {
		plan.Items = append(plan.Items, importer.Item{Where: fmt.Sprint(i), Entry: e})
	}
	keys := plan.Keys()
	// run imports the corpus once and reports its wall and CPU time.
	run := func(nodup bool) (wall, cpu time.Duration) {
		st, err := bolt.Open(filepath.Join(b.TempDir(), "m.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		c0, t0 := cputime.Process(), time.Now()
		if _, err := plan.Write(ctx, st, importer.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
		m := service.New(st, service.Options{Engine: retrieve.Options{Persist: st, NoDuplicates: nodup}})
		d, err := m.DuplicatesOf(ctx, keys)
		if err != nil {
			b.Fatal(err)
		}
		m.Close() // waits for the copy's save
		wall, cpu = time.Since(t0), cputime.Process()-c0
		if !nodup && d.Count < 900 {
			b.Fatalf("%d duplicates reported", d.Count)
		}
		return wall, cpu
	}
	var on, off, cpuOn, cpuOff time.Duration
	var ratios, cpuRatios []float64
	i := 0
	for b.Loop() {
		var w, c [2]time.Duration // [0] off, [1] on
		for _, k := range [][2]int{{0, 1}, {1, 0}}[i%2] {
			w[k], c[k] = run(k == 0)
		}
		off, on, cpuOff, cpuOn = off+w[0], on+w[1], cpuOff+c[0], cpuOn+c[1]
		ratios = append(ratios, w[1].Seconds()/w[0].Seconds())
		cpuRatios = append(cpuRatios, c[1].Seconds()/c[0].Seconds())
		i++
	}
	if i > 0 {
		b.ReportMetric(on.Seconds()/float64(i), "sec-on")
		b.ReportMetric(off.Seconds()/float64(i), "sec-off")
		b.ReportMetric(on.Seconds()/off.Seconds(), "ratio")
		b.ReportMetric(median(ratios), "ratio-median")
		b.ReportMetric(cpuOn.Seconds()/cpuOff.Seconds(), "cpu-ratio")
		b.ReportMetric(median(cpuRatios), "cpu-ratio-median")
	}
}

// median is the median of xs (the mean of the middle two for an even
// count), which it sorts.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// BenchmarkAddDuplicates: Memory.Add of a new entry into a bolt store of
// 100k entries with a warm index, detection on and off, alternated add
// by add on two memories over two stores. us-on and us-off are the mean
// microseconds of an add, ratio their quotient.
// RECALL_BENCH_COPY=1 makes every add a near copy of a stored entry.
//
//	go test -run XXX -bench AddDuplicates -benchtime 2000x ./service/
func BenchmarkAddDuplicates(b *testing.B) {
	ctx := context.Background()
	es := dupCorpus(100_000)
	var ms [2]*service.Memory
	for k := range ms {
		st, err := bolt.Open(filepath.Join(b.TempDir(), "m.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		if err := st.PutBatch(ctx, es); err != nil {
			b.Fatal(err)
		}
		ms[k] = service.New(st, service.Options{Engine: retrieve.Options{NoDuplicates: k == 1}})
		defer ms[k].Close()
		if _, err := ms[k].Engine().Snapshot(ctx); err != nil {
			b.Fatal(err)
		}
	}
	// New notes (another seed), or, with RECALL_BENCH_COPY=1, a near copy
	// of a stored one each time (the worst case: every add has a pair).
	fresh := synth.New(43, 20_000).Entries(5_000, 80)
	copies := os.Getenv("RECALL_BENCH_COPY") != ""
	var el [2]time.Duration
	var n [2]int
	i := 0
	for b.Loop() {
		k := i % 2
		e := fresh[(i/2)%len(fresh)]
		content := e.Content
		if copies {
			e = es[(i/2*7919)%len(es)]
			content = e.Content + " written"
		}
		t0 := time.Now()
		if _, err := ms[k].Add(ctx, service.AddRequest{Category: e.Category, Name: fmt.Sprint(e.Name, " w", i), Content: content}); err != nil {
			b.Fatal(err)
		}
		el[k] += time.Since(t0)
		n[k]++
		i++
	}
	if n[0] > 0 && n[1] > 0 {
		a, z := float64(el[0].Microseconds())/float64(n[0]), float64(el[1].Microseconds())/float64(n[1])
		b.ReportMetric(a, "us-on")
		b.ReportMetric(z, "us-off")
		b.ReportMetric(a/z, "ratio")
	}
}
