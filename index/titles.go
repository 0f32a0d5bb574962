package index

import (
	"cmp"
	"encoding/binary"
	"errors"
	"slices"
	"strings"

	"github.com/recallhq/recall/store"
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
// A base segment finds its titles in a table of (key, ord) sorted by key:
// Build makes it from the name terms it analyses anyway, Compact merges
// the base's with the overlay's, and a persisted copy carries it, so no
// query and no load analyses a title. An overlay document keeps the keys
// With computed. A key is a 64-bit FNV-1a hash of the sorted terms
// (stable across processes, so it can be persisted); a match is
// confirmed on the terms themselves.

// IndexText is the text the index analyses for a document: its name, its
// aliases one a line, then its content. Without aliases it is
// EntryText(name, content), the text an entry's vector is made from. The
// name is analysed as written (store.UnescapeName, see appendNameTokens);
// IndexText shows the identity.
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
	dst, e1 := a.appendNameTokens(dst, name)
	if aliases != "" {
		dst, _ = a.appendTokens(dst, aliases)
	}
	dst, e2 := a.appendTokens(dst, content)
	return dst, e1 + e2
}

// appendNameTokens appends the terms of a name as written: an identity
// that holds escapes of SPEC §1's name mapping ("Why sleep%3F") is
// analysed as the name it stands for ("Why sleep?"), so its words, not
// the escape's hex digits, are indexed and make its title. est is
// EstTokens of the identity, the name tokens_est has always counted. A
// name without escapes is analysed as it is.
func (a *Analyzer) appendNameTokens(dst []string, name string) ([]string, int) {
	w := store.UnescapeName(name)
	if w == name {
		return a.appendTokens(dst, name)
	}
	dst, _ = a.appendTokens(dst, w)
	return dst, EstTokens(name)
}

// nameTerms returns the sorted, distinct terms of a name as written
// (appendNameTokens).
func (a *Analyzer) nameTerms(name string) []string {
	return a.titleTerms(store.UnescapeName(name))
}

// titleTerms returns the sorted, distinct terms of title.
func (a *Analyzer) titleTerms(title string) []string {
	return sortedTerms(a.Tokens(title))
}

// sortedTerms sorts terms and drops repeats, in place.
func sortedTerms(terms []string) []string {
	slices.Sort(terms)
	return slices.Compact(terms)
}

// termsKey hashes sorted, distinct terms (FNV-1a, 64 bits, a 0 byte after
// each term); 0 for none.
func termsKey(terms []string) uint64 {
	if len(terms) == 0 {
		return 0
	}
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for _, t := range terms {
		for i := 0; i < len(t); i++ {
			h = (h ^ uint64(t[i])) * prime
		}
		h *= prime // ^ 0
	}
	return h | 1 // never 0
}

// titleKeys returns the keys of a name and of each of its aliases (one a
// line) that has terms, each once.
func (a *Analyzer) titleKeys(name, aliases string) []uint64 {
	var keys []uint64
	if k := termsKey(a.nameTerms(name)); k != 0 {
		keys = append(keys, k)
	}
	return a.appendAliasKeys(keys, aliases)
}

// appendAliasKeys appends the key of each alias (one a line) that has
// terms and whose key keys lacks.
func (a *Analyzer) appendAliasKeys(keys []uint64, aliases string) []uint64 {
	for _, al := range aliasList(aliases) {
		if k := termsKey(a.titleTerms(al)); k != 0 && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// hasTitle reports whether a name or one of its aliases has exactly terms.
func (a *Analyzer) hasTitle(name, aliases string, terms []string) bool {
	if slices.Equal(a.nameTerms(name), terms) {
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

func cmpTitleRec(x, y titleRec) int {
	if c := cmp.Compare(x.key, y.key); c != 0 {
		return c
	}
	return cmp.Compare(x.ord, y.ord)
}

// titleBuilder collects a segment's titles while Build analyses it.
type titleBuilder struct {
	recs    []titleRec
	scratch []string
}

// add records the titles of document ord: nameToks are the terms of its
// name (read, not kept), aliases its aliases text.
func (tb *titleBuilder) add(a *Analyzer, ord uint32, nameToks []string, aliases string) {
	tb.scratch = sortedTerms(append(tb.scratch[:0], nameToks...))
	var keys [1]uint64
	ks := keys[:0]
	if k := termsKey(tb.scratch); k != 0 {
		ks = append(ks, k)
	}
	if aliases != "" {
		ks = a.appendAliasKeys(ks, aliases)
	}
	for _, k := range ks {
		tb.recs = append(tb.recs, titleRec{k, ord})
	}
	clear(tb.scratch) // keep no term alive
}

// table returns the sorted table.
func (tb *titleBuilder) table() []titleRec {
	slices.SortFunc(tb.recs, cmpTitleRec)
	return slices.Clip(tb.recs)
}

// compactTitles is the title table of a compaction of s: the live base
// documents' titles under their new ords, and the overlay's.
func compactTitles(s *Snapshot, newOrd []uint32, ov []*ovDoc, ovOrd []uint32) []titleRec {
	recs := make([]titleRec, 0, len(s.base.titles)+len(ov))
	for _, r := range s.base.titles {
		if !s.isDead(r.ord) {
			recs = append(recs, titleRec{r.key, newOrd[r.ord]})
		}
	}
	for j, d := range ov {
		for _, k := range d.titles {
			recs = append(recs, titleRec{k, ovOrd[j]})
		}
	}
	slices.SortFunc(recs, cmpTitleRec)
	return recs
}

// Titled appends to dst the live documents of s, in w when w is not nil,
// whose name or one of whose aliases is made of exactly terms (sorted and
// distinct, as Query.Terms), base documents in identity order, then
// overlay documents; dst unchanged when none is. It costs a binary search
// of the base's table, a look at each overlay document's keys, and an
// analysis of the titles that match.
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
	recs := s.base.titles
	i, _ := slices.BinarySearchFunc(recs, key, func(r titleRec, k uint64) int { return cmp.Compare(r.key, k) })
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

// appendTitles writes the titles section of a persisted snapshot: the
// number of records, then each record's key (8 bytes, little endian) and
// ord (a uvarint), in table order.
func appendTitles(b []byte, recs []titleRec) []byte {
	b = binary.AppendUvarint(b, uint64(len(recs)))
	for _, r := range recs {
		b = binary.LittleEndian.AppendUint64(b, r.key)
		b = binary.AppendUvarint(b, uint64(r.ord))
	}
	return b
}

// titles reads the titles section of a persisted snapshot of ndocs
// documents, refusing records out of order or out of range.
func (r *reader) titles(ndocs int) []titleRec {
	n := r.count(9)
	if r.err != nil || n == 0 {
		return nil
	}
	recs := make([]titleRec, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		if len(r.b) < 8 {
			r.err = errors.New("truncated titles")
			return nil
		}
		key := binary.LittleEndian.Uint64(r.b)
		r.b = r.b[8:]
		ord := r.uvarint()
		switch {
		case r.err != nil:
			return nil
		case key&1 == 0 || ord >= uint64(ndocs):
			r.err = errors.New("title out of range")
			return nil
		}
		rec := titleRec{key, uint32(ord)}
		if i > 0 && cmpTitleRec(recs[i-1], rec) >= 0 {
			r.err = errors.New("titles out of order")
			return nil
		}
		recs = append(recs, rec)
	}
	return recs
}

// EachAliases calls fn with each live document of s that has aliases
// (Input.Aliases) and its aliases, until fn returns false; in no
// particular order.
func (s *Snapshot) EachAliases(fn func(d *Doc, aliases []string) bool) {
	for ord, a := range s.base.aliases {
		if s.isDead(ord) {
			continue
		}
		if !fn(&s.base.docs[ord], aliasList(a)) {
			return
		}
	}
	for _, o := range s.overlay {
		if o != nil && o.aliases != "" {
			if !fn(&o.Doc, aliasList(o.aliases)) {
				return
			}
		}
	}
}
