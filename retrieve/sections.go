package retrieve

import (
	"slices"
	"strings"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/section"
)

// SectionMinTokens is the tokens_est above which a hit with markdown
// headings is answered by its best-matching section rather than whole
// (docs/benchmarks.md, "Sections of long notes", measured it). A hit at
// or under it, or without a heading, is the whole entry, so a store of
// short or unsectioned entries answers exactly as it did before sections
// existed.
const SectionMinTokens = 400

// IntroSection names the text of a note before its first heading when it
// is the section a hit is answered by.
const IntroSection = "(intro)"

// sectionMin is SectionMinTokens, a variable for the measurements.
var sectionMin = SectionMinTokens

// sectionHits answers each long hit of items by its best section for the
// query terms (sorted, distinct, as index.Query gives them), in place:
// Content becomes the section's text, TokensEst the section's estimate,
// Section its heading path. Score and MatchedTerms stay the entry's (they
// are why the entry ranked). A hit stays whole when it is short, has no
// heading, no section holds a query term (a match on the name, or by the
// embedding alone), or is already a section.
//
// Sections are ranked by BM25 among themselves: the index's idf for each
// term (a rare word weighs what it weighs in the ranking), the section's
// heading path and text as its words, and the note's mean section length
// as avgdl. Ties go to the earlier section.
func sectionHits(snap *index.Snapshot, terms []string, items []Item) {
	if len(terms) == 0 {
		return
	}
	var idf []float64 // looked up on the first long hit only
	for i := range items {
		it := &items[i]
		if it.Source != SourceHit || it.Section != "" || it.TokensEst <= sectionMin {
			continue
		}
		secs := section.Split(it.Content)
		if len(secs) < 2 {
			continue
		}
		if idf == nil {
			idf = snap.IDF(terms)
		}
		best := bestSection(snap.Analyzer(), terms, idf, secs)
		if best < 0 {
			continue
		}
		s := secs[best]
		text := strings.TrimRight(s.Text, " \t\r\n")
		name := s.Name()
		if name == "" {
			name = IntroSection
		}
		it.Section = name
		it.Content = text
		it.TokensEst = index.EstTokens(it.Name + "\n" + text)
	}
}

// bestSection returns the index of the section of secs with the highest
// BM25 score for terms, or -1 when none holds a term.
func bestSection(an *index.Analyzer, terms []string, idf []float64, secs []section.Section) int {
	tfs := make([][]int, len(secs)) // per section, per term
	lens := make([]int, len(secs))
	total := 0
	var toks []string
	for i, s := range secs {
		toks = toks[:0]
		for _, h := range s.Path { // its own heading counts twice: it is also in its text
			toks = an.AppendTokens(toks, h)
		}
		toks = an.AppendTokens(toks, s.Text)
		lens[i] = len(toks)
		total += len(toks)
		tf := make([]int, len(terms))
		for _, t := range toks {
			if j, ok := slices.BinarySearch(terms, t); ok {
				tf[j]++
			}
		}
		tfs[i] = tf
	}
	if total == 0 {
		return -1
	}
	avgdl := float64(total) / float64(len(secs))
	best, bestScore := -1, 0.0
	for i, tf := range tfs {
		score := 0.0
		for j, n := range tf {
			if n == 0 || idf[j] == 0 {
				continue
			}
			f := float64(n)
			score += idf[j] * f * (index.K1 + 1) / (f + index.K1*(1-index.B+index.B*float64(lens[i])/avgdl))
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}
