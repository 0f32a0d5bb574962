package main

import (
	"fmt"
	"math"
	"testing"

	"github.com/recallhq/recall/index"
)

// TestStopWordQueriesEqualExhaustive: on the stop-word corpus (dense
// lists of "what" and "how" next to rare words) every scorer Top may pick
// gives the exhaustive answer, bit for bit, for every query of
// BenchmarkStopWordQueries at k = 1, 10 and 100, also with deleted and
// rewritten notes (dead base documents and an overlay).
func TestStopWordQueriesEqualExhaustive(t *testing.T) {
	n := 20_000
	if testing.Short() {
		n = 5_000
	}
	ds := stopWordCorpus(n)
	in := make([]index.Input, len(ds.Docs))
	for i, d := range ds.Docs {
		in[i] = index.Input{Category: "c", Name: d.ID, Content: d.Text}
	}
	s := index.Build(1, index.Default(), in)
	// Every 50th note deleted, every 97th rewritten with another's text.
	w := s
	for i := 0; i < n; i += 50 {
		w = w.Without(2, "c", ds.Docs[i].ID)
	}
	for i := 7; i < n; i += 97 {
		w = w.With(3, index.Input{Category: "c", Name: ds.Docs[i].ID, Content: ds.Docs[(i*31)%n].Text})
	}
	qs := stopWordQueries()
	for _, snap := range []*index.Snapshot{s, w} {
		for _, q := range qs {
			terms := snap.Terms(q)
			for _, k := range []int{1, 10, 100} {
				want, err := snap.Top(index.TopQuery{Terms: terms, Limit: k, Pruning: index.PruneNever})
				if err != nil {
					t.Fatal(err)
				}
				for _, mode := range []index.Pruning{index.PruneAuto, index.PruneAlways} {
					got, err := snap.Top(index.TopQuery{Terms: terms, Limit: k, Pruning: mode})
					if err != nil {
						t.Fatal(err)
					}
					if msg := sameScored(got, want); msg != "" {
						t.Fatalf("%q k %d mode %d: %s", q, k, mode, msg)
					}
				}
			}
		}
	}
}

func sameScored(got, want []index.Scored) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d results, exhaustive %d", len(got), len(want))
	}
	for i := range got {
		g, x := got[i], want[i]
		if g.Doc != x.Doc || math.Float64bits(g.Score) != math.Float64bits(x.Score) || g.Matched != x.Matched {
			return fmt.Sprintf("result %d: %s/%s %v %b, exhaustive %s/%s %v %b", i,
				g.Doc.Category, g.Doc.Name, g.Score, g.Matched, x.Doc.Category, x.Doc.Name, x.Score, x.Matched)
		}
	}
	return ""
}
