package bench

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
)

// sharedSets loads the four shared BEIR sets, or skips.
func sharedSets(tb testing.TB) []*Dataset {
	tb.Helper()
	dir := os.Getenv("RECALL_BENCH_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "bench-data")
	}
	var out []*Dataset
	for _, name := range []string{"msmarco", "dbpedia", "cmrc2018", "drcd"} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(filepath.Join(p, "corpus.jsonl")); err != nil {
			tb.Skipf("bench data not found at %s (set RECALL_BENCH_DATA): %v", p, err)
		}
		ds, err := Load(p)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, ds)
	}
	return out
}

func setSnapshot(tb testing.TB, ds *Dataset) *index.Snapshot {
	in := make([]index.Input, len(ds.Docs))
	for i, d := range ds.Docs {
		name, err := EntryName(d.ID)
		if err != nil {
			tb.Fatal(err)
		}
		in[i] = index.Input{Category: ds.Name, Name: name, Content: d.Content()}
	}
	return index.Build(1, index.Default(), in)
}

// TestPrunedEqualsExhaustiveSharedSets: on every query of every shared
// set, the pruned top-k is the exhaustive one, bit for bit. With -short,
// every fifth query of each set.
func TestPrunedEqualsExhaustiveSharedSets(t *testing.T) {
	stride := 1
	if testing.Short() {
		stride = 5
	}
	for _, ds := range sharedSets(t) {
		snap := setSnapshot(t, ds)
		for i, q := range ds.Queries {
			if i%stride != 0 {
				continue
			}
			terms := snap.Terms(q.Text)
			for _, k := range []int{1, 10, 100, 1000} {
				want, _ := snap.Top(index.TopQuery{Terms: terms, Limit: k, Pruning: index.PruneNever})
				for _, mode := range []index.Pruning{index.PruneAuto, index.PruneAlways} {
					got, _ := snap.Top(index.TopQuery{Terms: terms, Limit: k, Pruning: mode})
					if len(got) != len(want) {
						t.Fatalf("%s query %s k %d: %d results, exhaustive %d", ds.Name, q.ID, k, len(got), len(want))
					}
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("%s query %s k %d: result %d differs: %+v vs %+v", ds.Name, q.ID, k, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// BenchmarkSharedSetsRetrieve times the bench's full retrieve (top 100,
// no budget, no links), the same reusing one Result, and the ranking
// alone on each shared set.
func BenchmarkSharedSetsRetrieve(b *testing.B) {
	ctx := context.Background()
	for _, ds := range sharedSets(b) {
		st, err := boltstore.Open(filepath.Join(b.TempDir(), "m.db"), &boltstore.Options{NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		var es []store.Entry
		for _, d := range ds.Docs {
			name, _ := EntryName(d.ID)
			es = append(es, store.Entry{Category: ds.Name, Name: name, Content: d.Content()})
		}
		if err := st.PutBatch(ctx, es); err != nil {
			b.Fatal(err)
		}
		// The default analyzer, as the bench program (bench/bleve) runs it.
		eng := retrieve.New(st, retrieve.Options{Analyzer: index.Default()})
		if _, err := eng.Rebuild(ctx); err != nil {
			b.Fatal(err)
		}
		b.Run(ds.Name+"/retrieve", func(b *testing.B) {
			i := 0
			for b.Loop() {
				q := ds.Queries[i%len(ds.Queries)].Text
				if _, err := eng.Retrieve(ctx, retrieve.Request{Query: q, Limit: 100, Budget: retrieve.Unlimited, NoLinks: true, NoTime: true}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		// The same with one Result reused, as a host answering in a loop
		// can (Engine.RetrieveTo).
		b.Run(ds.Name+"/retrieve-to", func(b *testing.B) {
			var res retrieve.Result
			i := 0
			for b.Loop() {
				q := ds.Queries[i%len(ds.Queries)].Text
				if err := eng.RetrieveTo(ctx, retrieve.Request{Query: q, Limit: 100, Budget: retrieve.Unlimited, NoLinks: true, NoTime: true}, &res); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		snap, _ := eng.Snapshot(ctx)
		for _, mode := range []index.Pruning{index.PruneAuto, index.PruneNever} {
			name := "/rank"
			if mode == index.PruneNever {
				name = "/rank-exhaustive"
			}
			b.Run(ds.Name+name, func(b *testing.B) {
				i := 0
				for b.Loop() {
					q := ds.Queries[i%len(ds.Queries)].Text
					snap.Top(index.TopQuery{Terms: snap.Terms(q), Limit: 100, Pruning: mode})
					i++
				}
			})
		}
		st.Close()
	}
}
