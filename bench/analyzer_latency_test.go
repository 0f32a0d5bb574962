package bench

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
)

// TestAnalyzerLatency compares the retrieve latency of the analyzers on
// the shared sets, interleaved query by query over one store, so that
// whatever else runs on the machine weighs on all of them alike (the
// bench's own timings run one mode after another). Opt-in:
//
//	RECALL_ANALYZER_LATENCY=1 go test -run AnalyzerLatency -v ./bench
func TestAnalyzerLatency(t *testing.T) {
	if os.Getenv("RECALL_ANALYZER_LATENCY") == "" {
		t.Skip("set RECALL_ANALYZER_LATENCY=1 to run")
	}
	ctx := context.Background()
	ans := []*index.Analyzer{index.Spec(), index.English(), index.EnglishStop()}
	for _, ds := range benchData(t) {
		st, err := boltstore.Open(filepath.Join(t.TempDir(), "m.db"), &boltstore.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds.Docs {
			name, err := EntryName(d.ID)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Put(ctx, store.Entry{Category: "c", Name: name, Content: d.Content()}); err != nil {
				t.Fatal(err)
			}
		}
		engs := make([]*retrieve.Engine, len(ans))
		for i, a := range ans {
			engs[i] = retrieve.New(st, retrieve.Options{Analyzer: a})
			if _, err := engs[i].Rebuild(ctx); err != nil {
				t.Fatal(err)
			}
		}
		lat := make([][]time.Duration, len(ans))
		for range 20 {
			for _, q := range ds.Queries {
				for i, e := range engs {
					start := time.Now()
					if _, err := e.Retrieve(ctx, retrieve.Request{Query: q.Text, Limit: 100, Budget: retrieve.Unlimited, NoLinks: true, NoTime: true}); err != nil {
						t.Fatal(err)
					}
					lat[i] = append(lat[i], time.Since(start))
				}
			}
		}
		var spec time.Duration
		for i, a := range ans {
			slices.Sort(lat[i])
			p50 := lat[i][len(lat[i])/2]
			if i == 0 {
				spec = p50
			}
			t.Logf("%-9s %-13s retrieve p50 %9v  %.2f× spec", ds.Name, a.Name(), p50.Round(100*time.Nanosecond), float64(p50)/float64(spec))
		}
		st.Close()
	}
}
