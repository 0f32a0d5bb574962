package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recallhq/recall/bench"
	"github.com/recallhq/recall/bench/plain"
	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/internal/synth"
)

// rankingQuerySets are the query sets of BenchmarkRanking, over the
// stop-word corpus (stopWordCorpus: English notes with stop words, Chinese
// and mixed ones): English questions with stop words (stopWordQueries),
// English queries of three content words, and Chinese queries of about
// three bigrams.
func rankingQuerySets() map[string][]string {
	g := synth.New(11, 20_000)
	var en, zh []string
	for len(en) < 128 || len(zh) < 128 {
		q := g.Query(3)
		switch {
		case q == "":
		case q[0] < 0x80 && len(en) < 128:
			en = append(en, q)
		case q[0] >= 0x80 && len(zh) < 128:
			zh = append(zh, q)
		}
	}
	return map[string][]string{"en-stop": stopWordQueries(), "en": en, "zh": zh}
}

// rankingInputs are the corpus's documents as recall's index takes them.
func rankingInputs(ds *bench.Dataset) []index.Input {
	in := make([]index.Input, len(ds.Docs))
	for i, d := range ds.Docs {
		in[i] = index.Input{Category: "c", Name: d.ID, Content: d.Text}
	}
	return in
}

// ranker is one engine's ranking: the top k of a query, analysed.
type ranker struct {
	name string
	top  func(q string, k int) error
}

// rankers are recall's ranking (Snapshot.AppendTop on the analysed
// terms), the plain exhaustive baseline (bench/plain) fed the same
// analyzer, SQLite FTS5 fed the same analyzer's tokens, and Bleve's BM25
// search (its own standard analyzer, as in BenchmarkStopWordQueries);
// Bleve only when withBleve, FTS5 unless RECALL_BENCH_NO_FTS5 is set.
func rankers(ctx context.Context, tb testing.TB, ds *bench.Dataset, withBleve bool) []ranker {
	in := rankingInputs(ds)
	an := index.Default()
	snap := index.Build(1, an, in)
	pdocs := make([]plain.Doc, len(in))
	for i, d := range in {
		pdocs[i] = plain.Doc{Category: d.Category, Name: d.Name, Content: d.Content}
	}
	px := plain.Build(an, pdocs)
	var rbuf []index.Scored
	var pbuf []plain.Hit
	rs := []ranker{
		{"recall", func(q string, k int) error {
			var err error
			rbuf, err = snap.AppendTop(rbuf[:0], index.TopQuery{Terms: snap.Terms(q), Limit: k})
			return err
		}},
		{"plain", func(q string, k int) error {
			pbuf = px.Top(pbuf[:0], px.Terms(q), k)
			return nil
		}},
	}
	if os.Getenv("RECALL_BENCH_NO_FTS5") == "" {
		f, err := newFTS5(ctx, an, in)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { f.Close() })
		var fbuf []string
		rs = append(rs, ranker{"fts5", func(q string, k int) error {
			var err error
			fbuf, err = f.Top(ctx, q, k, fbuf[:0])
			return err
		}})
	}
	if withBleve {
		ble := &bleveSubject{scoring: scoringBM25}
		if err := ble.Load(ctx, ds); err != nil {
			tb.Fatal(err)
		}
		if err := ble.Build(ctx); err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { ble.Close() })
		rs = append(rs, ranker{"bleve", func(q string, k int) error {
			_, err := ble.Search(ctx, q, k)
			return err
		}})
	}
	return rs
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRanking ranks the same queries with recall, the plain
// hand-written exhaustive BM25 baseline, SQLite FTS5 and Bleve in one
// process, over the stop-word corpus at 10k and 100k notes (1M with
// RECALL_BENCH_1M=1; Bleve's build there takes about 15 minutes on 2
// cores: RECALL_BENCH_NO_BLEVE=1 leaves Bleve out, RECALL_BENCH_NO_FTS5=1
// FTS5, whose blocks take seconds; RECALL_BENCH_SIZES=100000,1000000
// picks the sizes). Each iteration is one
// block per engine, in a shuffled order of engines, each block every
// query of the set once in a shuffled order, timed as the process's CPU
// time (user + system, getrusage). Metrics: each engine's median block,
// per query (recall-us, plain-us, fts5-us, bleve-us), and the peers'
// medians over recall's (plain/recall: the target is ≤ 1.2; bleve/recall
// ≥ 6). Each engine answers every query once before the blocks (first
// uses: caches, impact orders).
func BenchmarkRanking(b *testing.B) {
	sizes := []int{10_000, 100_000}
	if os.Getenv("RECALL_BENCH_SMALL") != "" {
		sizes = sizes[:1]
	}
	if os.Getenv("RECALL_BENCH_1M") != "" {
		sizes = append(sizes, 1_000_000)
	}
	if s := os.Getenv("RECALL_BENCH_SIZES"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			var n int
			if _, err := fmt.Sscan(f, &n); err != nil {
				b.Fatalf("RECALL_BENCH_SIZES: %v", err)
			}
			sizes = append(sizes, n)
		}
	}
	ctx := context.Background()
	sets := rankingQuerySets()
	for _, n := range sizes {
		rs := rankers(ctx, b, stopWordCorpus(n), os.Getenv("RECALL_BENCH_NO_BLEVE") == "")
		for _, set := range []string{"en-stop", "en", "zh"} {
			qs := sets[set]
			for _, k := range []int{10, 100} {
				for _, r := range rs {
					for _, q := range qs {
						if err := r.top(q, k); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.Run(fmt.Sprintf("entries=%d/%s/k=%d", n, set, k), func(b *testing.B) {
					rnd := rand.New(rand.NewPCG(uint64(n), uint64(k)))
					times := make([][]time.Duration, len(rs))
					order := make([]int, len(rs))
					for i := range order {
						order[i] = i
					}
					block := slices.Clone(qs)
					for b.Loop() {
						rnd.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
						for _, ri := range order {
							rnd.Shuffle(len(block), func(i, j int) { block[i], block[j] = block[j], block[i] })
							t0 := cpuTime()
							for _, q := range block {
								if err := rs[ri].top(q, k); err != nil {
									b.Fatal(err)
								}
							}
							times[ri] = append(times[ri], (cpuTime()-t0)/time.Duration(len(block)))
						}
					}
					med := make([]float64, len(rs))
					for i, r := range rs {
						slices.Sort(times[i])
						med[i] = float64(times[i][len(times[i])/2].Nanoseconds()) / 1e3
						b.ReportMetric(med[i], r.name+"-us")
					}
					for i, r := range rs[1:] {
						b.ReportMetric(med[i+1]/med[0], r.name+"/recall")
					}
				})
			}
		}
	}
}

// TestPlainEqualsRecall: the plain baseline gives recall's answers to the
// bit (documents, order, scores) for every query of BenchmarkRanking at
// k = 1, 10 and 100, so the two rank the same thing.
func TestPlainEqualsRecall(t *testing.T) {
	n := 10_000
	if testing.Short() {
		n = 3_000
	}
	in := rankingInputs(stopWordCorpus(n))
	an := index.Default()
	snap := index.Build(1, an, in)
	pdocs := make([]plain.Doc, len(in))
	for i, d := range in {
		pdocs[i] = plain.Doc{Category: d.Category, Name: d.Name, Content: d.Content}
	}
	px := plain.Build(an, pdocs)
	for set, qs := range rankingQuerySets() {
		for _, q := range qs {
			for _, k := range []int{1, 10, 100} {
				want, err := snap.Top(index.TopQuery{Terms: snap.Terms(q), Limit: k})
				if err != nil {
					t.Fatal(err)
				}
				got := px.Top(nil, px.Terms(q), k)
				if len(got) != len(want) {
					t.Fatalf("%s %q k %d: plain %d hits, recall %d", set, q, k, len(got), len(want))
				}
				for i := range got {
					g, w := got[i], want[i]
					if g.Category != w.Doc.Category || g.Name != w.Doc.Name || g.Score != w.Score {
						t.Fatalf("%s %q k %d hit %d: plain %s %v, recall %s %v", set, q, k, i, g.Name, g.Score, w.Doc.Name, w.Score)
					}
				}
			}
		}
	}
}

// TestFTS5Ranks: the FTS5 peer answers from its index: a query of one
// document's rare words finds that document first, and a query of no
// known word finds nothing.
func TestFTS5Ranks(t *testing.T) {
	ctx := context.Background()
	in := []index.Input{
		{Category: "c", Name: "a", Content: "the quick brown fox"},
		{Category: "c", Name: "b", Content: "a lazy dog sleeps all day"},
		{Category: "c", Name: "c", Content: "中文的检索很快"},
	}
	f, err := newFTS5(ctx, index.Default(), in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for q, want := range map[string]string{"lazy dogs": "c:b", "the fox": "c:a", "检索": "c:c"} {
		got, err := f.Top(ctx, q, 10, nil)
		if err != nil || len(got) != 1 || got[0] != want {
			t.Errorf("%q: %v, %v; want [%s]", q, got, err, want)
		}
	}
	if got, err := f.Top(ctx, "volcano", 10, nil); err != nil || len(got) != 0 {
		t.Errorf("volcano: %v, %v", got, err)
	}
}
