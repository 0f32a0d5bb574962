package index

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestImpactEqualsExhaustive: queries of one long list ("what", in most
// documents with tf 1 to 6 and lengths that vary) and rare words take the
// impact path and give the exhaustive answer exactly: documents, order,
// scores and masks, for several k, with ties (documents of equal tf and
// length), after deletes and replacements in the overlay, and in a
// snapshot whose avgdl moved.
func TestImpactEqualsExhaustive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var in []Input
	for i := range 12_000 {
		var b strings.Builder
		n := 3 + r.IntN(40)
		for range n {
			switch x := r.IntN(100); {
			case x < 8:
				b.WriteString("what ")
			case x < 9:
				fmt.Fprintf(&b, "rare%d ", r.IntN(300))
			default:
				fmt.Fprintf(&b, "w%d ", r.IntN(5000))
			}
		}
		if i%7 == 0 {
			b.WriteString("what what")
		}
		in = append(in, Input{Category: "c" + fmt.Sprint(i%3), Name: fmt.Sprint("n", i%4000), Content: b.String()})
	}
	s := Build(1, EnglishStop(), in)
	queries := []string{"what", "what rare1", "what rare2 rare3", "rare4 what w7", "what nothere", "what is the rare5 of the rare6"}
	for i := range 40 {
		queries = append(queries, fmt.Sprintf("what rare%d", 10+i))
	}
	check := func(s *Snapshot, label string) {
		t.Helper()
		taken := 0
		for _, query := range queries {
			terms := s.Terms(query)
			for _, k := range []int{1, 3, 10, 100} {
				p := s.plan(terms)
				if _, ok := s.useImpact(p, TopQuery{Terms: terms, Limit: k}); ok {
					taken++
				}
				want, _ := s.Top(TopQuery{Terms: terms, Limit: k, Pruning: PruneNever})
				got, _ := s.Top(TopQuery{Terms: terms, Limit: k})
				if len(got) != len(want) {
					t.Fatalf("%s %q k %d: %d results, exhaustive %d", label, query, k, len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("%s %q k %d: result %d is %+v, exhaustive %+v", label, query, k, i, got[i], want[i])
					}
				}
			}
		}
		if taken < len(queries)*3 {
			t.Fatalf("%s: the impact path answered only %d of %d searches", label, taken, len(queries)*4)
		}
	}
	check(s, "base")
	// Writes: replaced, deleted and new documents, one with many "what".
	w := s
	for i := range 300 {
		switch i % 3 {
		case 0:
			w = w.With(uint64(2+i), Input{Category: in[i].Category, Name: in[i].Name, Content: "what what what rare1 short"})
		case 1:
			w = w.Without(uint64(2+i), in[i].Category, in[i].Name)
		default:
			w = w.With(uint64(2+i), Input{Category: "new", Name: fmt.Sprint(i), Content: strings.Repeat("what ", i%5+1) + "rare2"})
		}
	}
	check(w, "overlay")
}
