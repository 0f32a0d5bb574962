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
// heading path and text as its words (its own heading counts twice: a
// field weight, as a title has), and the note's mean section length as
// avgdl. Ties go to the earlier section.
//
// Hits past the budget are left whole unless explain (they are dropped,
// and only explain shows them): once the hits so far exceed budget
// (retrieve.Request.Budget), every later hit is cut whatever the links
// between them.
func sectionHits(snap *index.Snapshot, cache *sectionCache, terms []string, items []Item, budget int, explain bool) {
	if len(terms) == 0 {
		return
	}
	if budget == 0 {
		budget = DefaultBudget
	}
	var idf []float64     // made on the first long hit
	var sc *sectionScorer // and on the first one seen for the first time
	var tfs []int         // per section, per term; reused from hit to hit
	used := 0
	for i := range items {
		if budget > 0 && !explain && i > 0 && used > budget {
			return
		}
		it := &items[i]
		if it.Source == SourceHit && it.Section == "" && it.TokensEst > sectionMin {
			if idf == nil {
				idf = snap.IDF(terms)
			}
			if ns := cache.of(snap.Analyzer(), Ref{it.Category, it.Name}, it.Content); ns != nil {
				if len(ns.secs) >= 2 {
					var best int
					best, tfs = ns.best(terms, idf, tfs)
					if best >= 0 {
						s := &ns.secs[best]
						it.Section, it.Content, it.TokensEst = s.name, s.text, s.tokens
					}
				}
			} else if secs := section.Split(it.Content); len(secs) >= 2 { // first sight
				if sc == nil {
					sc = &sectionScorer{idf: idf, tc: snap.Analyzer().NewTermCounter(terms)}
				}
				if best := sc.best(secs); best >= 0 {
					s := newNoteSection(it.Name, secs[best])
					it.Section, it.Content, it.TokensEst = s.name, s.text, s.tokens
				}
			}
		}
		used += it.TokensEst
	}
}

// noteSections is what choosing a section of one long note needs that
// does not depend on the query: its split, each section's answer (its
// name, trimmed text and tokens_est) and the terms of each section. It is
// never changed once made (the cache hands the same one to concurrent
// retrieves).
type noteSections struct {
	content string          // the entry's content it was made from
	an      *index.Analyzer // and the analyzer
	seen    bool            // only a mark that the note was seen: nothing else is set
	secs    []noteSection
	terms   *index.PartTerms // part i is secs[i]: its heading path and its text
	size    int              // about the bytes it holds, content included
}

type noteSection struct {
	name, text string
	tokens     int
}

// newNoteSection is the answer of a hit named name by its section s.
func newNoteSection(name string, s section.Section) noteSection {
	text := strings.TrimRight(s.Text, " \t\r\n")
	path := s.Name()
	if path == "" {
		path = IntroSection
	}
	return noteSection{name: path, text: text, tokens: index.EstTokens(name + "\n" + text)}
}

// newNoteSections splits content; it has no secs when content has fewer
// than two sections (the hit stays whole).
func newNoteSections(an *index.Analyzer, key Ref, content string) *noteSections {
	ns := &noteSections{content: content, an: an}
	secs := section.Split(content)
	if len(secs) < 2 {
		ns.size = len(content) + 64
		return ns // the hit stays whole; kept, so that it is not split again
	}
	ns.secs = make([]noteSection, len(secs))
	parts := make([][]string, len(secs))
	size := len(content) + len(key.Category) + len(key.Name)
	for i, s := range secs {
		// A section's words are its heading path and its text (its own
		// heading is in its text too: a field weight, as a title has).
		parts[i] = append(slices.Clip(s.Path), s.Text)
		ns.secs[i] = newNoteSection(key.Name, s)
		size += len(ns.secs[i].name) + 64
	}
	ns.terms = an.PartTerms(parts)
	ns.size = size + ns.terms.Size()
	return ns
}

// best returns the index of the section with the highest BM25 score for
// terms (whose idf is idf), or -1 when none holds a term, and tfs, the
// scratch it counted in (pass it back for the next note). Sections are
// ranked among themselves: avgdl is the note's mean section length. Ties
// go to the earlier section.
func (ns *noteSections) best(terms []string, idf []float64, tfs []int) (int, []int) {
	nt := len(terms)
	tfs = slices.Grow(tfs[:0], len(ns.secs)*nt)[:len(ns.secs)*nt]
	clear(tfs)
	total := 0
	for i := range ns.secs {
		total += ns.terms.Len(i)
	}
	if total == 0 {
		return -1, tfs
	}
	for j, t := range terms {
		ns.terms.Add(t, tfs, nt, j)
	}
	avgdl := float64(total) / float64(len(ns.secs))
	best, bestScore := -1, 0.0
	for i := range ns.secs {
		score := 0.0
		for j, n := range tfs[i*nt : (i+1)*nt] {
			if n == 0 || idf[j] == 0 {
				continue
			}
			f := float64(n)
			score += idf[j] * f * (index.K1 + 1) / (f + index.K1*(1-index.B+index.B*float64(ns.terms.Len(i))/avgdl))
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best, tfs
}

// sectionScorer ranks the sections of the notes of one retrieve that the
// section cache sees for the first time (it keeps a note only when it
// comes back, see sectionCache): their text is counted for the query
// terms only (index.TermCounter), which is cheaper than analysing it in
// full for a note asked once. noteSections.best gives the same answers
// (TestSectionCacheEqualsReference).
type sectionScorer struct {
	idf []float64
	tc  *index.TermCounter
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
