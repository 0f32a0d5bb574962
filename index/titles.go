package index

import (
	"hash/maphash"
	"slices"
	"strings"
	"sync"
)

// Titles: a document's name and its aliases (Input.Aliases) are its
// titles. Both are indexed as part of the name (IndexText), and Titled
// finds the documents one of whose titles is made of exactly a query's
// terms, which retrieve ranks first: a query that is a note's title or
// alias finds that note before any note that merely mentions the words.
//
// "Exactly the terms" compares the sets of distinct terms the analyzer
// makes, as Query.Terms holds them: "Internal links" and "internal-links"
// are one title; with a stop list "The Cat" is "cat". A title without
// terms (only punctuation, only stop words) matches no query.
//
// A base segment finds its titles in a table of (key, ord) sorted by key,
// made on the first Titled call from the documents' names and aliases
// (one analysis of every title; Decode and Compact make none); an overlay
// document keeps the keys With computed. A key is a hash of the sorted
// terms: a match is confirmed on the terms themselves.

// IndexText is the text the index analyses for a document: its name, its
// aliases one a line, then its content. Without aliases it is
// EntryText(name, content), the text an entry's vector is made from.
func IndexText(name string, aliases []string, content string) string {
	if len(aliases) == 0 {
		return EntryText(name, content)
	}
	return name + " " + aliasText(aliases) + " " + content
}

// aliasText is Doc.aliases of Input.Aliases: one a line (a line break
// inside one, which no title shows, becomes a space).
func aliasText(aliases []string) string {
	if len(aliases) == 0 {
		return ""
	}
	var b strings.Builder
	for i, a := range aliases {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strings.NewReplacer("\r", " ", "\n", " ").Replace(a))
	}
	return b.String()
}

// aliasList is Input.Aliases of a Doc's aliases text.
func aliasList(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// aliasesOf returns the aliases text of d, a document of s; "" for none,
// and for a document of another snapshot.
func (s *Snapshot) aliasesOf(d *Doc) string {
	if s.isBaseDoc(d) {
		return s.base.aliases[uint32(d.ord)]
	}
	if o := s.ovDocOf(d); o != nil {
		return o.aliases
	}
	return ""
}

// appendDocTokens appends the terms of IndexText(name, aliases, content)
// (the aliases as one text, one a line) to dst, and returns them with
// EstTokens of name and content: the aliases are indexed, not injected, so
// they count for no tokens_est.
func (a *Analyzer) appendDocTokens(dst []string, name, aliases, content string) ([]string, int) {
	dst, e1 := a.appendTokens(dst, name)
	if aliases != "" {
		dst, _ = a.appendTokens(dst, aliases)
	}
	dst, e2 := a.appendTokens(dst, content)
	return dst, e1 + e2
}

// titleTerms returns the sorted, distinct terms of title.
func (a *Analyzer) titleTerms(title string) []string {
	t := a.Tokens(title)
	slices.Sort(t)
	return slices.Compact(t)
}

// termsKey hashes sorted, distinct terms; 0 for none.
func termsKey(terms []string) uint64 {
	if len(terms) == 0 {
		return 0
	}
	var h maphash.Hash
	h.SetSeed(termSeed)
	for _, t := range terms {
		h.WriteString(t)
		h.WriteByte(0)
	}
	return h.Sum64() | 1 // never 0
}

// titleKeys returns the keys of a name and of each of its aliases (one a
// line) that has terms.
func (a *Analyzer) titleKeys(name, aliases string) []uint64 {
	var keys []uint64
	if k := termsKey(a.titleTerms(name)); k != 0 {
		keys = append(keys, k)
	}
	for _, al := range aliasList(aliases) {
		if k := termsKey(a.titleTerms(al)); k != 0 && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// hasTitle reports whether a name or one of its aliases has exactly terms.
func (a *Analyzer) hasTitle(name, aliases string, terms []string) bool {
	if slices.Equal(a.titleTerms(name), terms) {
		return true
	}
	for _, al := range aliasList(aliases) {
		if slices.Equal(a.titleTerms(al), terms) {
			return true
		}
	}
	return false
}

// titleRec is one title of a base document.
type titleRec struct {
	key uint64
	ord uint32
}

// titleTable is a base segment's titles, made on first use.
type titleTable struct {
	once sync.Once
	recs []titleRec // sorted by key, then ord
}

func (seg *segment) titleRecs(a *Analyzer) []titleRec {
	seg.titles.once.Do(func() {
		recs := make([]titleRec, 0, len(seg.docs))
		for i := range seg.docs {
			for _, k := range a.titleKeys(seg.docs[i].Name, seg.aliases[uint32(i)]) {
				recs = append(recs, titleRec{k, uint32(i)})
			}
		}
		slices.SortFunc(recs, func(x, y titleRec) int {
			switch {
			case x.key != y.key:
				if x.key < y.key {
					return -1
				}
				return 1
			}
			return int(x.ord) - int(y.ord)
		})
		seg.titles.recs = slices.Clip(recs)
	})
	return seg.titles.recs
}

// Titled appends to dst the live documents of s, in w when w is not nil,
// whose name or one of whose aliases is made of exactly terms (sorted and
// distinct, as Query.Terms), base documents in identity order, then
// overlay documents; dst unchanged when none is. Its first call on a
// snapshot with a new base analyses every title of the base once.
func (s *Snapshot) Titled(dst []*Doc, terms []string, w *Set) []*Doc {
	if len(terms) == 0 || s.n == 0 {
		return dst
	}
	if !slices.IsSorted(terms) {
		terms = slices.Compact(slices.Sorted(slices.Values(terms)))
	}
	key := termsKey(terms)
	admit := func(d *Doc) bool {
		return (w == nil || w.Has(d)) && s.tok.hasTitle(d.Name, s.aliasesOf(d), terms)
	}
	recs := s.base.titleRecs(s.tok)
	i, _ := slices.BinarySearchFunc(recs, key, func(r titleRec, k uint64) int {
		switch {
		case r.key < k:
			return -1
		case r.key > k:
			return 1
		}
		return 0
	})
	for ; i < len(recs) && recs[i].key == key; i++ {
		if ord := recs[i].ord; !s.isDead(ord) && admit(&s.base.docs[ord]) {
			dst = append(dst, &s.base.docs[ord])
		}
	}
	for _, o := range s.overlay {
		if o != nil && slices.Contains(o.titles, key) && admit(&o.Doc) {
			dst = append(dst, &o.Doc)
		}
	}
	return dst
}

// ScoreOf returns the BM25 score of d, a document of s, for the distinct
// query terms: the score a ranking over s gives it (0 when it holds none
// of them), summed in term order as every scorer sums it.
func (s *Snapshot) ScoreOf(d *Doc, terms []string) float64 {
	p := s.plan(terms)
	if p == nil {
		return 0
	}
	dl := uint32(s.DocLen(d))
	score := 0.0
	for ti, t := range terms {
		if p.idf[ti] == 0 {
			continue
		}
		if tf := s.TermFreq(d, t); tf > 0 {
			score += p.weight(p.idf[ti], float64(tf), dl)
		}
	}
	return score
}

// appendAliases writes the aliases section of a persisted snapshot: the
// layout of the extras section (appendExtras).
func appendAliases(b []byte, aliases map[uint32]string) []byte {
	return appendExtras(b, aliases)
}

// aliases reads the aliases section of a persisted snapshot of ndocs
// documents.
func (r *reader) aliases(ndocs int) map[uint32]string { return r.extras(ndocs) }
