package index

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// chooseCorpus is 6,000 documents in identity order (n0000 … n5999) whose
// terms have the list shapes the choice looks at:
//
//	what   every even document: 3,000, a long list (impactMin is 1,024)
//	big    5 of every 6: 5,000, a longer one
//	rare   20 documents; few1, few2: 50 each; mid: 600
//	u1 u2  the 5,936 documents past the first block, tf 1, similar
//	       lengths: two dense lists with flat block bounds
//	s1 s2  the same documents and the first 64 (short, tf 4): two dense
//	       lists whose first block bounds all the others; r holds the 64
func chooseCorpus() []Input {
	var in []Input
	for i := range 6000 {
		var w []string
		if i < 64 {
			w = append(w, "s1 s1 s1 s1 s2 s2 s2 s2 r")
		} else {
			w = append(w, "s1 s2 u1 u2", strings.Repeat("pad ", 30))
		}
		if i%2 == 0 {
			w = append(w, "what")
		}
		if i%6 != 0 {
			w = append(w, "big")
		}
		if i%300 == 1 {
			w = append(w, "rare")
		}
		if i%10 == 3 {
			w = append(w, "mid")
		}
		if i%120 == 5 {
			w = append(w, "few1")
		}
		if i%120 == 7 {
			w = append(w, "few2")
		}
		in = append(in, Input{Category: "c", Name: fmt.Sprintf("n%04d", i), Content: strings.Join(w, " ")})
	}
	return in
}

// TestChooseScorer pins which scorer each query shape takes (choose), and
// checks that every one of them answers as the exhaustive scorer does.
func TestChooseScorer(t *testing.T) {
	in := chooseCorpus()
	base := Build(1, Spec(), in)
	// Writes waiting in the overlay: a replaced document, a new one with
	// a term no base document holds, a delete.
	written := base.With(2, Input{Category: "c", Name: "n0002", Content: "what rare fresh"}).
		With(3, Input{Category: "d", Name: "new", Content: "fresh what"}).
		Without(4, "c", "n0001")
	// A segment whose first-use caches are spent: no new impact order.
	spent := Build(1, Spec(), in)
	spent.base.cacheBytes.Store(int64(len(spent.base.docs)) * int64(cacheBudgetPerDoc))
	var many []string // 65 terms, past the 64 a mask holds; two in the index
	for i := range 63 {
		many = append(many, fmt.Sprint("t", i))
	}
	many = append(many, "what", "rare")

	cases := []struct {
		name  string
		s     *Snapshot
		terms []string
		k     int
		mode  Pruning
		want  scorer
	}{
		{"one short term", base, []string{"rare"}, 10, PruneAuto, oneListScorer},
		{"one short term, k = 1", base, []string{"rare"}, 1, PruneAuto, oneListScorer},
		{"one short term, no limit", base, []string{"rare"}, 0, PruneAuto, exhaustiveScorer},
		{"one long term", base, []string{"what"}, 10, PruneAuto, impactScorer},
		{"one long term, PruneNever", base, []string{"what"}, 10, PruneNever, exhaustiveScorer},
		{"several short terms", base, []string{"few1", "few2", "rare"}, 10, PruneAuto, exhaustiveScorer},
		{"several short terms, PruneAlways", base, []string{"few1", "few2", "rare"}, 10, PruneAlways, prunedScorer},
		{"one long list, one short", base, []string{"what", "rare"}, 10, PruneAuto, impactScorer},
		{"one long list, several short", base, []string{"few1", "what", "few2"}, 10, PruneAuto, impactScorer},
		{"one long list, one short, k = 100", base, []string{"what", "rare"}, 100, PruneAuto, impactScorer},
		{"one long list, one short, no limit", base, []string{"what", "rare"}, 0, PruneAuto, exhaustiveScorer},
		{"one long list, one short, PruneNever", base, []string{"what", "rare"}, 10, PruneNever, exhaustiveScorer},
		{"one long list, a short one too long for impact", base, []string{"what", "mid"}, 10, PruneAuto, prunedScorer},
		{"one long list, short lists past impactFirst, pruning reads less", base, []string{"big", "mid"}, 10, PruneAuto, prunedScorer},
		{"two dense lists, flat bounds", base, []string{"u1", "u2"}, 10, PruneAuto, exhaustiveScorer},
		{"two dense lists, flat bounds, PruneAlways", base, []string{"u1", "u2"}, 10, PruneAlways, prunedScorer},
		{"two dense lists and a rare term in their best block", base, []string{"s1", "s2", "r"}, 10, PruneAuto, prunedScorer},
		{"more than 64 terms", base, many, 10, PruneAuto, exhaustiveScorer},
		{"more than 64 terms, PruneAlways", base, many, 10, PruneAlways, exhaustiveScorer},
		{"more than 64 terms, one in the index", base, append(many[:63:63], "what", "t63"), 10, PruneAuto, oneListScorer},
		{"overlay: one long list, one short", written, []string{"what", "rare"}, 10, PruneAuto, impactScorer},
		{"overlay: a term only in the overlay", written, []string{"fresh"}, 10, PruneAuto, exhaustiveScorer},
		{"overlay: a term only in the overlay and a short one", written, []string{"fresh", "rare"}, 10, PruneAuto, oneListScorer},
		{"cache budget spent: one long list, one short", spent, []string{"what", "rare"}, 10, PruneAuto, prunedScorer},
		{"cache budget spent: two dense lists and a rare term", spent, []string{"s1", "s2", "r"}, 10, PruneAuto, prunedScorer},
	}
	for _, c := range cases {
		q := TopQuery{Terms: c.terms, Limit: c.k, Pruning: c.mode}
		p := c.s.plan(c.terms)
		if p == nil {
			t.Fatalf("%s: no plan", c.name)
		}
		if got := c.s.choose(p, q).scorer; got != c.want {
			t.Errorf("%s: %q k %d mode %d takes the %s scorer, want %s", c.name, c.terms, c.k, c.mode, got, c.want)
		}
		want, err := c.s.Top(TopQuery{Terms: c.terms, Limit: c.k, Pruning: PruneNever})
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.s.Top(q)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("%s: %d results %v, exhaustive %d %v", c.name, len(got), got, len(want), want)
		}
	}
}

// TestChooseScorerWithin pins the choice under a time range
// (TopQuery.Within): a narrow set is scored by the exhaustive scorer
// (inSet), an open one is no set at all, a wide one leaves the choice to
// the lists;
// each answers as the exhaustive scorer does inside the set.
func TestChooseScorerWithin(t *testing.T) {
	in := chooseCorpus()
	day0 := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range in {
		in[i].Date = day0.AddDate(0, 0, i)
	}
	s := Build(1, Spec(), in)
	days := func(from, n int) *Set {
		return s.In(TimeRange{From: day0.AddDate(0, 0, from), To: day0.AddDate(0, 0, from+n), Loc: time.UTC})
	}
	cases := []struct {
		name  string
		w     *Set
		terms []string
		want  scorer
	}{
		{"ten days, one long term", days(100, 10), []string{"what"}, exhaustiveScorer},
		{"ten days, a long and a short term", days(100, 10), []string{"what", "rare"}, exhaustiveScorer},
		{"an empty range", days(9000, 10), []string{"what"}, exhaustiveScorer},
		{"half the days, a long and a short term", days(0, 3000), []string{"what", "rare"}, impactScorer},
		{"an open range: no set", s.In(TimeRange{}), []string{"what", "rare"}, impactScorer},
		{"every day in a bounded range", days(0, 6000), []string{"what", "rare"}, impactScorer},
		// Except's hidden documents (validity) on an open range: the
		// exhaustive scorer scans every list there (it probes only a
		// bounded set), so the lists decide as they do without a set.
		// The hidden documents are among the best of the query otherwise
		// (n0001 holds rare; n0006 and n0104 hold what).
		{"an open range, one document hidden", s.Except(nil, hideOrd(1)), []string{"what", "rare"}, impactScorer},
		{"an open range, one document hidden, one long term", s.Except(nil, hideOrd(6)), []string{"what"}, impactScorer},
		{"half the days, one document hidden", s.Except(days(0, 3000), hideOrd(1)), []string{"what", "rare"}, impactScorer},
		{"ten days, one document hidden", s.Except(days(100, 10), hideOrd(104)), []string{"what"}, exhaustiveScorer},
	}
	for _, c := range cases {
		q := TopQuery{Terms: c.terms, Limit: 10, Within: c.w}
		p := s.plan(c.terms)
		if p == nil {
			t.Fatalf("%s: no plan", c.name)
		}
		if c.w.all {
			q.Within = nil // as AppendTop does
		}
		if got := s.choose(p, q).scorer; got != c.want {
			t.Errorf("%s: %q takes the %s scorer, want %s", c.name, c.terms, got, c.want)
		}
		want, err := s.Top(TopQuery{Terms: c.terms, Limit: 10, Pruning: PruneNever, Within: c.w})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Top(TopQuery{Terms: c.terms, Limit: 10, Within: c.w})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %d results %v, exhaustive %d %v", c.name, len(got), got, len(want), want)
		}
		for _, x := range got {
			if !c.w.Has(x.Doc) {
				t.Errorf("%s: %s:%s is outside the range", c.name, x.Doc.Category, x.Doc.Name)
			}
		}
		if strings.Contains(c.name, "hidden") {
			// The document hidden would be a hit without Except.
			shown := *c.w
			shown.hide = nil
			open, err := s.Top(TopQuery{Terms: c.terms, Limit: 10, Within: &shown})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(open, func(x Scored) bool { return c.w.hidden(uint32(x.Doc.ord)) }) {
				t.Errorf("%s: the hidden document is not among the best %d without Except", c.name, len(open))
			}
		}
	}
}

// hideOrd is a bitset for Snapshot.Except that holds ord.
func hideOrd(ord int) []uint64 {
	b := make([]uint64, ord/64+1)
	b[ord/64] |= 1 << (ord % 64)
	return b
}
