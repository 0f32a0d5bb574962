package index

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestHistogramTopEqualsScoreAll: the exhaustive scorer's top k (it was a
// score histogram's; now one pass into the heap)
// is the head of all scored documents sorted by Less, on corpora where
// half the documents tie (one bucket holds them all), a few long
// documents score apart, the overlay's candidates join the base's and
// dead base documents drop out; k runs from 1 to past the candidates
// (around 2k, where the heap takes over). A canceled search runs before
// each one, so the pooled histogram must come back empty from either.
func TestHistogramTopEqualsScoreAll(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 6 {
		var in []Input
		nd := 200 + r.IntN(3000)
		vocab := 3 + r.IntN(20)
		for i := range nd {
			var b strings.Builder
			if r.IntN(2) == 0 {
				b.WriteString("w0 w1 ")
			} else {
				for range 1 + r.IntN(8) {
					fmt.Fprintf(&b, "w%d ", r.IntN(vocab))
				}
				if r.IntN(50) == 0 {
					b.WriteString(strings.Repeat("w2 ", 300))
				}
			}
			in = append(in, Input{Category: fmt.Sprint("c", r.IntN(3)), Name: fmt.Sprint("n", i), Content: b.String()})
		}
		s := Build(1, EnglishStop(), in)
		for i := range r.IntN(200) { // replace, add, delete
			switch r.IntN(3) {
			case 0:
				e := in[r.IntN(len(in))]
				e.Content = "w0 w1 w3"
				s = s.With(uint64(2+i), e)
			case 1:
				c := "w0 w1"
				if r.IntN(10) == 0 { // above every base score
					c = strings.Repeat("w0 w1 w2 w3 w4 w5 ", 8)
				}
				s = s.With(uint64(2+i), Input{Category: "new", Name: fmt.Sprint("m", i), Content: c})
			default:
				e := in[r.IntN(len(in))]
				s = s.Without(uint64(2+i), e.Category, e.Name)
			}
		}
		done := make(chan struct{})
		close(done)
		for _, query := range []string{"w0", "w0 w1", "w1 w2 w3", "w0 w1 w2 w3 w4 w5", "w2"} {
			terms := s.Terms(query)
			all := scoreAll(s, terms)
			for _, k := range []int{1, 2, 3, 7, 50, len(all) / 2, len(all)/2 - 1, len(all), len(all) + 5} {
				if k <= 0 {
					continue
				}
				if _, err := s.Top(TopQuery{Terms: terms, Limit: k, Pruning: PruneNever, Done: done}); err != ErrCanceled && len(all) > 0 {
					t.Fatalf("canceled search: err = %v", err)
				}
				got, err := s.Top(TopQuery{Terms: terms, Limit: k, Pruning: PruneNever})
				if err != nil {
					t.Fatal(err)
				}
				want := all[:min(k, len(all))]
				if len(got) != len(want) {
					t.Fatalf("round %d %q k %d: %d results, want %d", round, query, k, len(got), len(want))
				}
				for i := range got {
					if got[i].Doc != want[i].Doc || got[i].Score != want[i].Score {
						t.Fatalf("round %d %q k %d: result %d is %s %v, want %s %v", round, query, k, i, got[i].Doc.Name, got[i].Score, want[i].Doc.Name, want[i].Score)
					}
				}
			}
		}
	}
}
