package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
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
	nq := 40
	if testing.Short() {
		nq = 8 // one goroutine: the full set runs without -race
	}
	for i := range nq {
		queries = append(queries, fmt.Sprintf("what rare%d", 10+i))
	}
	check := func(s *Snapshot, label string) {
		t.Helper()
		taken := 0
		for _, query := range queries {
			terms := s.Terms(query)
			for _, k := range []int{1, 3, 10, 100} {
				p := s.plan(terms)
				if _, _, ok := s.useImpact(p, TopQuery{Terms: terms, Limit: k}); ok {
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

// TestTopWithOverlayEqualsFreshBuild: with writes waiting in the overlay
// (replaced, added and deleted documents), every scorer's top k equals
// that of a fresh build over the live documents (identities and scores),
// which shares neither the dead-document filter nor the overlay's scoring.
func TestTopWithOverlayEqualsFreshBuild(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	text := func() string {
		var b strings.Builder
		for range 2 + r.IntN(12) {
			if r.IntN(4) == 0 {
				b.WriteString("what ")
			}
			fmt.Fprintf(&b, "w%d ", r.IntN(60))
		}
		return b.String()
	}
	live := map[[2]string]string{}
	var in []Input
	for i := range 6000 {
		e := Input{Category: fmt.Sprint("c", i%5), Name: fmt.Sprint("n", i), Content: text()}
		in = append(in, e)
		live[[2]string{e.Category, e.Name}] = e.Content
	}
	s := Build(1, EnglishStop(), in)
	for i := range 300 {
		switch i % 3 {
		case 0: // replace
			e := in[r.IntN(len(in))]
			e.Content = text()
			s = s.With(uint64(2+i), e)
			live[[2]string{e.Category, e.Name}] = e.Content
		case 1: // add
			e := Input{Category: "new", Name: fmt.Sprint("m", i), Content: text()}
			s = s.With(uint64(2+i), e)
			live[[2]string{e.Category, e.Name}] = e.Content
		default: // delete
			e := in[r.IntN(len(in))]
			s = s.Without(uint64(2+i), e.Category, e.Name)
			delete(live, [2]string{e.Category, e.Name})
		}
	}
	var fresh []Input
	for k, c := range live {
		fresh = append(fresh, Input{Category: k[0], Name: k[1], Content: c})
	}
	ref := Build(1, EnglishStop(), fresh)
	for _, query := range []string{"w1", "w1 w2", "what w3 w4 w5", "what", "w6 w7 w8 w9 w10 w11", "what w12"} {
		for _, k := range []int{1, 5, 10, 100, 1000} {
			want, _ := ref.Top(TopQuery{Terms: ref.Terms(query), Limit: k, Pruning: PruneNever})
			for _, mode := range []Pruning{PruneNever, PruneAuto, PruneAlways} {
				got, _ := s.Top(TopQuery{Terms: s.Terms(query), Limit: k, Pruning: mode})
				if len(got) != len(want) {
					t.Fatalf("%q k %d mode %d: %d results, want %d", query, k, mode, len(got), len(want))
				}
				for i := range got {
					g, w := got[i], want[i]
					if g.Doc.Category != w.Doc.Category || g.Doc.Name != w.Doc.Name || g.Score != w.Score {
						t.Fatalf("%q k %d mode %d: result %d is %s:%s %v, want %s:%s %v", query, k, mode, i,
							g.Doc.Category, g.Doc.Name, g.Score, w.Doc.Category, w.Doc.Name, w.Score)
					}
				}
			}
		}
	}
}

// TestTopEqualsScoreAll: every scorer's top k (exhaustive with its
// selection, pruned, impact) is the head of all scored documents sorted by
// Less, the reference that uses no heap and no selection.
func TestTopEqualsScoreAll(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var in []Input
	for i := range 6000 {
		var b strings.Builder
		for range 2 + r.IntN(12) {
			if r.IntN(4) == 0 {
				b.WriteString("what ")
			}
			fmt.Fprintf(&b, "w%d ", r.IntN(60))
		}
		in = append(in, Input{Category: fmt.Sprint("c", i%5), Name: fmt.Sprint("n", i), Content: b.String()})
	}
	s := Build(1, EnglishStop(), in)
	for _, query := range []string{"w1", "w1 w2", "what w3 w4 w5", "what", "w6 w7 w8 w9 w10 w11", "what w12"} {
		terms := s.Terms(query)
		all := scoreAll(s, terms)
		for _, k := range []int{1, 5, 10, 100, 1000} {
			for _, mode := range []Pruning{PruneNever, PruneAuto, PruneAlways} {
				got, _ := s.Top(TopQuery{Terms: terms, Limit: k, Pruning: mode})
				want := all[:min(k, len(all))]
				if len(got) != len(want) {
					t.Fatalf("%q k %d mode %d: %d results, want %d", query, k, mode, len(got), len(want))
				}
				for i := range got {
					if got[i].Doc != want[i].Doc || got[i].Score != want[i].Score {
						t.Fatalf("%q k %d mode %d: result %d is %s %v, want %s %v", query, k, mode, i, got[i].Doc.Name, got[i].Score, want[i].Doc.Name, want[i].Score)
					}
				}
			}
		}
	}
}

// TestImpactLongDocument: an impact order whose list holds a document
// longer than 65,535 tokens keeps its lengths in 32 bits and answers as
// the exhaustive scorer does; one without keeps them in 16.
func TestImpactLongDocument(t *testing.T) {
	var in []Input
	for i := range 3000 {
		content := fmt.Sprintf("what w%d w%d", i%50, i%7)
		if i%100 == 0 {
			content += fmt.Sprintf(" rare%d", i%3)
		}
		in = append(in, Input{Category: "c", Name: fmt.Sprint("n", i), Content: content})
	}
	// Many "what" in a long document weigh about as much as one in a
	// short one: the walk must read its exact length to place it.
	long := strings.Repeat("what ", 5000) + strings.Repeat("filler ", 65_000)
	for _, withLong := range []bool{false, true} {
		docs := in
		if withLong {
			docs = append(slices.Clone(in), Input{Category: "c", Name: "long", Content: long})
		}
		s := Build(1, EnglishStop(), docs)
		id, _ := s.base.terms.id("what")
		if io := s.base.impactOf(id); (io.lens32 != nil) != withLong || (io.lens16 != nil) == withLong {
			t.Fatalf("long document %v: 16-bit lengths %v, 32-bit %v", withLong, io.lens16 != nil, io.lens32 != nil)
		}
		for _, query := range []string{"what", "what rare1", "what rare2 w3"} {
			terms := s.Terms(query)
			for _, k := range []int{1, 10, 100} {
				want, _ := s.Top(TopQuery{Terms: terms, Limit: k, Pruning: PruneNever})
				got, _ := s.Top(TopQuery{Terms: terms, Limit: k})
				if !slices.Equal(got, want) {
					t.Fatalf("long document %v, %q k %d: %v, exhaustive %v", withLong, query, k, got, want)
				}
			}
		}
	}
}

// TestImpactDeadCandidate: a deleted document of the short list, which
// alone would score highest (five times the long list's word in a short
// text), is not answered by the impact path in any of its forms.
func TestImpactDeadCandidate(t *testing.T) {
	var in []Input
	for i := range 20_000 {
		c := fmt.Sprintf("w%d w%d w%d", i%97, i%89, i%83)
		if i%16 == 0 {
			c += " long"
		}
		in = append(in, Input{Category: "c", Name: fmt.Sprint("n", i), Content: c})
	}
	in = append(in, Input{Category: "c", Name: "dead", Content: "long long long long long rare"},
		Input{Category: "c", Name: "live", Content: "rare solo w1 w2 w3 w4 w5 w6 w7 w8 w9"})
	s := Build(1, EnglishStop(), in).Without(2, "c", "dead")
	for _, query := range []string{"long rare", "rare long", "long rare solo"} {
		terms := s.Terms(query)
		if _, _, ok := s.useImpact(s.plan(terms), TopQuery{Terms: terms, Limit: 10}); !ok {
			t.Fatalf("%q: the impact path does not answer", query)
		}
		for _, k := range []int{1, 10} {
			want, _ := s.Top(TopQuery{Terms: terms, Limit: k, Pruning: PruneNever})
			got, _ := s.Top(TopQuery{Terms: terms, Limit: k})
			for i := range got {
				if got[i].Doc == nil || got[i].Doc.Name == "dead" || i >= len(want) || got[i] != want[i] {
					t.Fatalf("%q k %d: result %d is %+v, exhaustive %+v", query, k, i, got[i], want)
				}
			}
		}
	}
}

// scoreAll scores every document for terms (Snapshot.Score) and returns
// them sorted by Less: the reference that uses no heap and no selection.
func scoreAll(s *Snapshot, terms []string) []Scored {
	var all []Scored
	s.Score(terms, func(d *Doc, score float64) { all = append(all, Scored{Doc: d, Score: score}) })
	sortByLess(all)
	return all
}

// sortByLess sorts results in the result order (Less).
func sortByLess(all []Scored) {
	slices.SortFunc(all, func(a, b Scored) int {
		if Less(a, b) {
			return -1
		}
		if Less(b, a) {
			return 1
		}
		return 0
	})
}
