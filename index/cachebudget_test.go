package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestCacheBudget: with a small budget, the first queries make impact
// orders and bitmaps until it is spent, later ones take paths that need
// none, every answer stays the exhaustive one, and the segment's caches
// pass the budget by no more than the one made last.
func TestCacheBudget(t *testing.T) {
	defer func(b int) { cacheBudgetPerDoc = b }(cacheBudgetPerDoc)
	cacheBudgetPerDoc = 3

	r := rand.New(rand.NewPCG(5, 6))
	var in []Input
	for i := range 4000 {
		var b strings.Builder
		for w := range 12 { // w0..w11, each in about half of the notes
			if r.IntN(2) == 0 {
				fmt.Fprintf(&b, "w%d ", w)
			}
		}
		fmt.Fprintf(&b, "rare%d x%d", r.IntN(400), r.IntN(3000))
		in = append(in, Input{Category: "c", Name: fmt.Sprint("n", i), Content: b.String()})
	}
	s := Build(1, EnglishStop(), in)
	budget := int64(len(s.base.docs) * cacheBudgetPerDoc)
	impactTaken := 0
	for w := range 12 {
		query := fmt.Sprintf("w%d rare%d", w, w)
		terms := s.Terms(query)
		for _, k := range []int{1, 10, 100} {
			if _, _, ok := s.useImpact(s.plan(terms), TopQuery{Terms: terms, Limit: k}); ok {
				impactTaken++
			}
			want, _ := s.Top(TopQuery{Terms: terms, Limit: k, Pruning: PruneNever})
			for _, mode := range []Pruning{PruneAuto, PruneAlways} {
				got, _ := s.Top(TopQuery{Terms: terms, Limit: k, Pruning: mode})
				if !slices.Equal(got, want) {
					t.Fatalf("%q k %d mode %d: %v, exhaustive %v", query, k, mode, got, want)
				}
			}
		}
		most := int64(max(impactSize(2000), denseSize(len(s.base.docs)))) * 2 // what one query can add
		if used := s.base.cacheBytes.Load(); used > budget+most {
			t.Fatalf("after %q the caches hold %d bytes, the budget is %d", query, used, budget)
		}
	}
	if impactTaken == 0 || impactTaken == 12*3 {
		t.Fatalf("the impact path answered %d of %d searches: the budget should stop it partway", impactTaken, 12*3)
	}
}
