package index

import (
	"slices"
	"strings"
)

// IDF returns the BM25 idf of each of terms in s, as the scorers compute
// it (SPEC §4), and 0 for a term no live document holds. Callers that
// score parts of a document (the sections of a long note) use it, so that
// a rare word weighs what it weighs in the ranking.
func (s *Snapshot) IDF(terms []string) []float64 {
	out := make([]float64, len(terms))
	p := s.plan(terms)
	if p != nil {
		copy(out, p.idf)
	}
	return out
}

// TermCounter counts a few terms in texts analysed as the index analyses
// documents (the same words, filters and CJK terms), remembering the term
// of each distinct word so that a word repeated across the texts is
// filtered (stemmed) once: scoring the sections of a long note tokenizes
// the note once more, and the filters are most of that cost.
type TermCounter struct {
	a     *Analyzer
	terms []string         // sorted, distinct
	memo  map[string]int32 // word → its term's index in terms, or noTerm, or dropped
	cjk   []string
	// stems: the analyzer's filters are this package's stop words and
	// English stemmer only. The stemmer keeps all but at most the last
	// two letters of a stem as the word's own first letters (it replaces
	// suffixes of at most three letters, of which the first is the
	// word's: "ability" → "abl", "dying" → "die", "hoping" → "hope"), and
	// never its first letter, so a word that starts with no term's prefix
	// short of its last two letters (its first letter, at least) cannot be
	// one of the terms, and is only checked against the stop words (which
	// decide whether it counts in |D|).
	stems  bool
	prefix []string // each term without its last two letters
}

const (
	noTerm  = -1 // a term, but none of the counted
	dropped = -2 // a filter dropped the word (a stop word)
)

// NewTermCounter counts terms (sorted and distinct, as Query.Terms are).
func (a *Analyzer) NewTermCounter(terms []string) *TermCounter {
	c := &TermCounter{a: a.orSpec(), terms: terms, memo: map[string]int32{}, stems: true}
	for _, f := range c.a.filters {
		switch f.(type) {
		case stopWords, englishStemmer:
		default:
			c.stems = false
		}
	}
	for _, t := range terms {
		c.prefix = append(c.prefix, t[:min(len(t), max(1, len(t)-2))]) // the first letter stays
	}
	return c
}

// candidate reports whether w may be one of the terms once filtered.
func (c *TermCounter) candidate(w string) bool {
	for _, p := range c.prefix {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// stopped reports whether a stop-word filter drops w.
func (c *TermCounter) stopped(w string) bool {
	for _, f := range c.a.filters {
		if sw, ok := f.(stopWords); ok {
			if _, kept := sw.Filter(w); !kept {
				return true
			}
		}
	}
	return false
}

// Count adds to tf (one count per term) the occurrences of each term in s,
// and returns the number of index terms of s (|D| of s as a document).
func (c *TermCounter) Count(s string, tf []int) int {
	n := 0
	scan(normalize(s), func(w string) {
		if c.stems && !c.candidate(w) {
			if !c.stopped(w) {
				n++
			}
			return
		}
		i, ok := c.memo[w]
		if !ok {
			i = dropped
			if t, kept := c.a.filter(w); kept {
				i = noTerm
				if j, found := slices.BinarySearch(c.terms, t); found {
					i = int32(j)
				}
			}
			c.memo[w] = i
		}
		if i == dropped {
			return
		}
		n++
		if i >= 0 {
			tf[i]++
		}
	}, func(run string) {
		c.cjk = c.a.appendCJK(c.cjk[:0], run)
		n += len(c.cjk)
		for _, t := range c.cjk {
			if j, found := slices.BinarySearch(c.terms, t); found {
				tf[j]++
			}
		}
	})
	return n
}
