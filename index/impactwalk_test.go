package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
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
	n := 30_000
	if testing.Short() {
		n = 12_000
	}
	in := impactWalkCorpus(n)
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

// impactWalkCorpus is n documents of filler words with "what" in about
// 60% of them, "mid" in 20%, "mid2" in 6%, 200 rare words, and every 40th
// document a copy of the one before.
func impactWalkCorpus(n int) []Input {
	r := rand.New(rand.NewPCG(5, 6))
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
	return in
}

// TestImpactWalkLeavesStopWordUnsorted: a query whose pruned walk looks
// at the impact path makes the impact order of its rarest long list only,
// not the stop word's (the longest list, sorted once for nothing when the
// path does not answer), and still answers as the exhaustive scorer.
func TestImpactWalkLeavesStopWordUnsorted(t *testing.T) {
	s := Build(1, EnglishStop(), impactWalkCorpus(12_000))
	terms := s.Terms("what mid")
	for _, k := range []int{10, 100} {
		want, _ := s.Top(TopQuery{Terms: terms, Limit: k, Pruning: PruneNever})
		got, _ := s.Top(TopQuery{Terms: terms, Limit: k, Pruning: PruneAlways})
		if !slices.Equal(got, want) {
			t.Fatalf("k %d: %v, exhaustive %v", k, got, want)
		}
	}
	p := s.plan(terms)
	defer p.release()
	for _, q := range p.qt {
		if made := s.base.impactMade(q.id); made != (terms[q.ti] == "mid") {
			t.Errorf("%s (%d postings): impact order made %v", terms[q.ti], len(q.list.docs), made)
		}
	}
}
