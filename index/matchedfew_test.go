package index

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// firstLetter is a Filter that makes every word its first letter: many
// query words behind each of a few terms.
type firstLetter struct{}

func (firstLetter) Filter(w string) (string, bool) { return w[:1], true }

// TestMatchedWordsManyWords: a query of 8 terms with 70 words behind each,
// whose hits carry every one of the 255 non-empty masks, needs more than
// 65,535 words in the table of appendMatchedFew: every hit still gets
// exactly the words Words gives for its matched terms.
func TestMatchedWordsManyWords(t *testing.T) {
	a := NewAnalyzer("first-letter", nil, firstLetter{})
	var in []Input
	for m := 1; m < 256; m++ {
		var b strings.Builder
		for bit := range 8 {
			if m&(1<<bit) != 0 {
				fmt.Fprintf(&b, "%c ", 'a'+bit)
			}
		}
		in = append(in, Input{Category: "c", Name: fmt.Sprint("n", m), Content: b.String()})
	}
	s := Build(1, a, in)
	var qb strings.Builder
	for bit := range 8 {
		for i := range 70 {
			fmt.Fprintf(&qb, "%c%03d ", 'a'+bit, i)
		}
	}
	q := s.Query(qb.String())
	if len(q.Terms) != 8 {
		t.Fatalf("%d terms, want 8", len(q.Terms))
	}
	hits, _ := s.Top(TopQuery{Terms: q.Terms, Limit: 1000})
	if len(hits) != 255 {
		t.Fatalf("%d hits, want 255", len(hits))
	}
	got := s.MatchedWords(hits, q)
	for i, h := range hits {
		want := q.Words(s.MatchedTerms(h.Doc, q.Terms))
		if !slices.Equal(got[i], want) {
			t.Fatalf("hit %s: %d words, want %d", h.Doc.Name, len(got[i]), len(want))
		}
	}
}
