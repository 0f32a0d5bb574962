package index

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestImpactWalkEqualsExhaustive: the pruned walk's impact path (one
// long walked list read in impact order, short walked lists scored first,
// the others probed) answers as the exhaustive scorer does, documents,
// order and scores, with ties (repeated contents), a dense probed list
// ("what", through its bitmap) and a sparse one ("mid2", through its
// blocks), and with writes in the overlay (replaced, deleted and new
// documents). It also checks that the path answers most of the queries.
func TestImpactWalkEqualsExhaustive(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 30_000
	if testing.Short() {
		n = 12_000
	}
	var in []Input
	prev := ""
	for i := range n {
		var b strings.Builder
		if i%40 == 1 {
			b.WriteString(prev) // a tie with the document before
		} else {
			for range 4 + r.IntN(50) {
				switch x := r.IntN(1000); {
				case x < 30:
					b.WriteString("what ")
				case x < 38:
					b.WriteString("mid ")
				case x < 40:
					b.WriteString("mid2 ")
				case x < 42:
					fmt.Fprintf(&b, "rare%d ", r.IntN(200))
				default:
					fmt.Fprintf(&b, "w%d ", r.IntN(4000))
				}
			}
		}
		prev = b.String()
		in = append(in, Input{Category: "c" + fmt.Sprint(i%3), Name: fmt.Sprint("n", i), Content: prev})
	}
	s := Build(1, EnglishStop(), in)
	queries := []string{"what mid", "mid what", "what mid mid2", "mid mid2", "what is the mid of the rare1", "mid rare2 rare3 what"}
	for i := range 20 {
		queries = append(queries, fmt.Sprintf("what mid rare%d", 10+i), fmt.Sprintf("mid rare%d rare%d", 40+i, 80+i))
	}
	check := func(s *Snapshot, label string) {
		t.Helper()
		taken, all := 0, 0
		for _, query := range queries {
			terms := s.Terms(query)
			for _, k := range []int{1, 10, 100, 300} {
				all++
				p := s.plan(terms)
				p.h.k = k
				if w := newMaxScore(p, k); w.usesImpact() {
					taken++
				}
				p.release()
				want, _ := s.Top(TopQuery{Terms: terms, Limit: k, Pruning: PruneNever})
				for _, mode := range []Pruning{PruneAuto, PruneAlways} {
					got, _ := s.Top(TopQuery{Terms: terms, Limit: k, Pruning: mode})
					if len(got) != len(want) {
						t.Fatalf("%s %q k %d: %d results, exhaustive %d", label, query, k, len(got), len(want))
					}
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("%s %q k %d mode %d: result %d is %+v, exhaustive %+v", label, query, k, mode, i, got[i], want[i])
						}
					}
				}
			}
		}
		if taken < all/2 {
			t.Fatalf("%s: the impact path answered %d of %d searches", label, taken, all)
		}
	}
	check(s, "base")
	w := s
	for i := range 300 {
		switch i % 3 {
		case 0:
			w = w.With(uint64(2+i), Input{Category: in[i].Category, Name: in[i].Name, Content: "what mid mid rare1 short"})
		case 1:
			w = w.Without(uint64(2+i), in[i*7].Category, in[i*7].Name)
		default:
			w = w.With(uint64(2+i), Input{Category: "new", Name: fmt.Sprint(i), Content: strings.Repeat("mid ", i%5+1) + "what rare2"})
		}
	}
	check(w, "overlay")
}
