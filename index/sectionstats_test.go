package index

import (
	"slices"
	"strings"
	"testing"
)

// TermCounter counts exactly what the analyzer's tokens hold, with its
// shortcut for the English stemmer (words that cannot stem to a term are
// not stemmed) exercised on the stemmer's irregular cases.
func TestTermCounter(t *testing.T) {
	text := strings.Join([]string{
		"ability sensibility dying lying tying skies sky hoping hopping hope generalization generalize",
		"relational relate conditional possibly possible early only singly idly gently ugly news",
		"agreed feed happily happy running ran runs The and of a to in is it Über naïve café CAFÉ",
		"中文分词 想去海边玩 2024 x86 i18n ies y yes yesterday eyes axes ties dies using uses ones owing",
		"Obsidian's internal links embed embedded embedding headings heading headed",
	}, "\n")
	for _, a := range []*Analyzer{Spec(), English(), EnglishStop()} {
		toks := a.Tokens(text)
		all := slices.Compact(slices.Sorted(slices.Values(toks)))
		for _, terms := range [][]string{all, everyOther(all, 0), everyOther(all, 1), {"abl"}, {"die", "sky"}, {"a"}} {
			tc := a.NewTermCounter(terms)
			got := make([]int, len(terms))
			n := 0
			for line := range strings.Lines(text) {
				n += tc.Count(line, got)
			}
			want := make([]int, len(terms))
			for _, tok := range toks {
				if j, ok := slices.BinarySearch(terms, tok); ok {
					want[j]++
				}
			}
			if n != len(toks) || !slices.Equal(got, want) {
				t.Errorf("%s, %d terms: |D| %d, want %d; counts %v, want %v", a.Name(), len(terms), n, len(toks), got, want)
			}
		}
	}
}

func everyOther(s []string, from int) []string {
	var out []string
	for i := from; i < len(s); i += 2 {
		out = append(out, s[i])
	}
	return out
}

func TestIDF(t *testing.T) {
	s := Build(1, Spec(), []Input{{Category: "c", Name: "a", Content: "apple pie"}, {Category: "c", Name: "b", Content: "apple tart"}})
	idf := s.IDF([]string{"apple", "nothing", "pie"})
	if idf[0] <= 0 || idf[1] != 0 || idf[2] <= idf[0] {
		t.Errorf("idf %v: want apple > 0, nothing 0, pie rarer than apple", idf)
	}
}
