package retrieve_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/cputime"
	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/retrieve"
	boltstore "github.com/recallhq/recall/store/bolt"
)

// BenchmarkRetrieveWhileWriting: retrieves from several goroutines over a
// bolt store (fsync on, as `recall serve` runs it, with the persisted
// index) while one request in ten is a Put that replaces an entry, against
// the same goroutines only retrieving. Each iteration runs one block of
// each kind, in alternating order, so that both see the same background
// load; it reports both throughputs, their ratio (read-only over mixed:
// 1 means writes cost the readers nothing) and the Put latencies of the
// mixed blocks, and the ratio of the process's CPU time over the two
// kinds of block. RECALL_BENCH_ENTRIES sets the store's size (default
// 20,000), RECALL_BENCH_OPS the requests per block (default 2,000);
// RECALL_BENCH_NOSYNC=1 turns the store's fsync off, to see the engine's
// share of a Put without the disk's.
//
//	RECALL_BENCH_ENTRIES=100000 go test -run '^$' -bench RetrieveWhileWriting -benchtime 6x ./retrieve/
func BenchmarkRetrieveWhileWriting(b *testing.B) {
	ctx := context.Background()
	n := envInt(b, "RECALL_BENCH_ENTRIES", 20_000)
	ops := envInt(b, "RECALL_BENCH_OPS", 2_000)
	const clients = 8

	st, err := boltstore.Open(filepath.Join(b.TempDir(), "w.db"), &boltstore.Options{NoSync: os.Getenv("RECALL_BENCH_NOSYNC") != ""})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ents := synth.New(1, 20_000).Entries(n, 80)
	for c := range slices.Chunk(ents, 5_000) {
		if err := st.PutBatch(ctx, c); err != nil {
			b.Fatal(err)
		}
	}
	eng := retrieve.New(st, retrieve.WithIndexCache(retrieve.Options{}, st))
	defer eng.Close()
	if _, err := eng.Load(ctx); err != nil {
		b.Fatal(err)
	}
	qs := queries()
	// Replacements come from a second generator: new text for existing
	// names, so the store's size stays n.
	repl := synth.New(2, 20_000).Entries(4_096, 80)

	var (
		seq  atomic.Int64
		puts []time.Duration
	)
	block := func(writes bool) time.Duration {
		var (
			wg   sync.WaitGroup
			next atomic.Int64
			mu   sync.Mutex
			fail atomic.Pointer[error]
		)
		start := time.Now()
		for range clients {
			wg.Go(func() {
				var mine []time.Duration
				for {
					i := next.Add(1) - 1
					if i >= int64(ops) || fail.Load() != nil {
						break
					}
					var err error
					if writes && i%10 == 0 {
						k := seq.Add(1)
						e := repl[k%int64(len(repl))]
						old := ents[(k*7919)%int64(n)]
						e.Category, e.Name = old.Category, old.Name
						e.Content += " w" + strconv.FormatInt(k, 10)
						t0 := time.Now()
						err = eng.Put(ctx, e)
						mine = append(mine, time.Since(t0))
					} else {
						_, err = eng.Retrieve(ctx, retrieve.Request{Query: qs[i%int64(len(qs))]})
					}
					if err != nil {
						fail.Store(&err)
					}
				}
				mu.Lock()
				puts = append(puts, mine...)
				mu.Unlock()
			})
		}
		wg.Wait()
		if p := fail.Load(); p != nil {
			b.Fatal(*p)
		}
		return time.Since(start)
	}
	var ro, mixed, roCPU, mixedCPU time.Duration
	timed := func(writes bool) {
		c0 := cputime.Process()
		t := block(writes)
		c := cputime.Process() - c0
		if writes {
			mixed, mixedCPU = mixed+t, mixedCPU+c
		} else {
			ro, roCPU = ro+t, roCPU+c
		}
	}
	for i := 0; b.Loop(); i++ {
		timed(i%2 == 1)
		timed(i%2 == 0)
	}
	b.StopTimer()
	rounds := float64(b.N)
	b.ReportMetric(rounds*float64(ops)/ro.Seconds(), "readonly-req/s")
	b.ReportMetric(rounds*float64(ops)/mixed.Seconds(), "mixed-req/s")
	b.ReportMetric(mixed.Seconds()/ro.Seconds(), "slowdown")
	// The process's CPU time of the mixed blocks over the read-only ones:
	// what the writes cost on a machine too loaded for wall time to say.
	b.ReportMetric(mixedCPU.Seconds()/roCPU.Seconds(), "cpu-slowdown")
	slices.Sort(puts)
	pct := func(p int) float64 {
		return float64(puts[min(len(puts)-1, len(puts)*p/100)]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(50), "put-p50-ms")
	b.ReportMetric(pct(99), "put-p99-ms")
	b.ReportMetric(float64(puts[len(puts)-1])/float64(time.Millisecond), "put-max-ms")
}

func envInt(b *testing.B, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		b.Fatalf("%s=%q: want a positive integer", name, v)
	}
	return n
}
