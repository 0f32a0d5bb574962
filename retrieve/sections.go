package retrieve

import (
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
// heading path and text as its words (its own heading counts twice: a
// field weight, as a title has), and the note's mean section length as
// avgdl. Ties go to the earlier section.
//
// Hits past the budget are left whole unless explain (they are dropped,
// and only explain shows them): once the hits so far exceed budget
// (retrieve.Request.Budget), every later hit is cut whatever the links
// between them.
func sectionHits(snap *index.Snapshot, terms []string, items []Item, budget int, explain bool) {
	if len(terms) == 0 {
		return
	}
	if budget == 0 {
		budget = DefaultBudget
	}
	var sc *sectionScorer // made on the first long hit
	used := 0
	for i := range items {
		if budget > 0 && !explain && i > 0 && used > budget {
			return
		}
		it := &items[i]
		if it.Source == SourceHit && it.Section == "" && it.TokensEst > sectionMin {
			if secs := section.Split(it.Content); len(secs) >= 2 {
				if sc == nil {
					sc = newSectionScorer(snap, terms)
				}
				if best := sc.best(secs); best >= 0 {
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
		}
		used += it.TokensEst
	}
}

// sectionScorer ranks the sections of the notes of one retrieve.
type sectionScorer struct {
	idf []float64
	tc  *index.TermCounter
}

func newSectionScorer(snap *index.Snapshot, terms []string) *sectionScorer {
	return &sectionScorer{idf: snap.IDF(terms), tc: snap.Analyzer().NewTermCounter(terms)}
}

// best returns the index of the section of secs with the highest BM25
// score, or -1 when none holds a term.
func (sc *sectionScorer) best(secs []section.Section) int {
	nt := len(sc.idf)
	tfs := make([]int, len(secs)*nt) // per section, per term
	lens := make([]int, len(secs))
	total := 0
	for i, s := range secs {
		tf := tfs[i*nt : (i+1)*nt]
		n := 0
		for _, h := range s.Path { // its own heading is in its text too
			n += sc.tc.Count(h, tf)
		}
		n += sc.tc.Count(s.Text, tf)
		lens[i] = n
		total += n
	}
	if total == 0 {
		return -1
	}
	avgdl := float64(total) / float64(len(secs))
	best, bestScore := -1, 0.0
	for i := range secs {
		score := 0.0
		for j, n := range tfs[i*nt : (i+1)*nt] {
			if n == 0 || sc.idf[j] == 0 {
				continue
			}
			f := float64(n)
			score += sc.idf[j] * f * (index.K1 + 1) / (f + index.K1*(1-index.B+index.B*float64(lens[i])/avgdl))
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}
