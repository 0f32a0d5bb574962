package index

import (
	"math/bits"
	"slices"
)

// MatchedAll returns, for each hit of a search for terms, the terms (as
// given, in their order) that occur in the hit's document: what Matched
// returns for one hit, for all of them in time linear in the query's
// postings rather than hits × terms lookups. The first 64 terms come from
// the masks the search recorded; later ones from one pass over their
// posting lists. With at most 64 terms the answer shares one allocation.
func (s *Snapshot) MatchedAll(hits []Scored, terms []string) [][]string {
	return s.appendMatchedAll(nil, hits, terms)
}

// grown returns dst with n more elements (zero or stale: the caller sets
// them) and those n elements.
func grown(dst [][]string, n int) ([][]string, [][]string) {
	l := len(dst)
	dst = slices.Grow(dst, n)[:l+n]
	return dst, dst[l:]
}

func (s *Snapshot) appendMatchedAll(dst [][]string, hits []Scored, terms []string) [][]string {
	dst, out := grown(dst, len(hits))
	n := 0
	for _, h := range hits {
		n += bits.OnesCount64(h.Matched)
	}
	buf := make([]string, 0, n)
	for i, h := range hits {
		start := len(buf)
		for m := h.Matched; m != 0; m &= m - 1 {
			buf = append(buf, terms[bits.TrailingZeros64(m)])
		}
		out[i] = buf[start:len(buf):len(buf)]
	}
	if len(terms) <= 64 {
		return dst
	}
	// Mark the base hits, then walk the lists of the later terms once.
	nb := len(s.base.docs)
	mark := make(map[uint32]int, len(hits))
	for i, h := range hits {
		if o := h.Doc.Ord(); o < nb {
			mark[uint32(o)] = i
		}
	}
	for ti := 64; ti < len(terms); ti++ {
		t := terms[ti]
		if id, ok := s.base.terms.id(t); ok && len(mark) > 0 {
			for _, d := range s.base.list(id).docs {
				if i, ok := mark[d]; ok {
					out[i] = append(out[i], t)
				}
			}
		}
		for i, h := range hits {
			if o := s.ovDocOf(h.Doc); o != nil && o.tf[t] > 0 {
				out[i] = append(out[i], t)
			}
		}
	}
	return dst
}

// MatchedWords returns, for each hit of a search for q.Terms, the query
// words behind the terms that occur in the hit's document, distinct and
// sorted: q.Words of what MatchedAll returns, never nil. With at most 64
// terms it reads the hits' masks only and works out the words once per
// distinct mask (the hits of a top k share a handful): hits with the same
// terms share one slice (capacity-limited, so an append copies), which
// callers treat as read-only.
func (s *Snapshot) MatchedWords(hits []Scored, q Query) [][]string {
	return s.AppendMatchedWords(nil, hits, q)
}

// AppendMatchedWords is MatchedWords appending to dst: a caller that
// keeps dst between queries allocates only the words.
func (s *Snapshot) AppendMatchedWords(dst [][]string, hits []Scored, q Query) [][]string {
	if len(q.Terms) > 64 {
		dst, out := grown(dst, len(hits))
		for i, m := range s.MatchedAll(hits, q.Terms) {
			if out[i] = q.Words(m); out[i] == nil {
				out[i] = []string{}
			}
		}
		return dst
	}
	if len(q.Terms) <= directMaskTerms {
		return s.appendMatchedFew(dst, hits, q)
	}
	if q.plain() {
		// Every term is its own word: the words are the terms of the mask,
		// already in order.
		return s.appendMatchedAll(dst, hits, q.Terms)
	}
	// The distinct masks, each found once (pass 1), their words in one
	// buffer of the size they need (pass 2), the hits' slices (pass 3).
	type maskWords struct {
		mask       uint64
		start, end int
	}
	var seenRoom [64]maskWords
	seen := seenRoom[:0]
	var jRoom [256]int32
	js := jRoom[:0]
	if len(hits) > len(jRoom) {
		js = make([]int32, 0, len(hits))
	}
	// An open-addressed table of the masks seen: index+1 into seen.
	var small [256]int32
	table := small[:]
	if 2*len(hits) > len(small) {
		table = make([]int32, 1<<bits.Len(uint(2*len(hits))))
	}
	tmask := uint64(len(table) - 1)
	last, need := -1, 0
	for _, h := range hits {
		j := last
		if j < 0 || seen[j].mask != h.Matched {
			slot := (h.Matched * 0x9e3779b97f4a7c15 >> 32) & tmask
			for table[slot] != 0 && seen[table[slot]-1].mask != h.Matched {
				slot = (slot + 1) & tmask
			}
			if table[slot] == 0 {
				seen = append(seen, maskWords{mask: h.Matched})
				table[slot] = int32(len(seen))
				need += q.maskWordCount(h.Matched)
			}
			j = int(table[slot] - 1)
			last = j
		}
		js = append(js, int32(j))
	}
	wb := make([]string, 0, need)
	for k := range seen {
		seen[k].start = len(wb)
		wb = q.appendMaskWords(wb, seen[k].mask)
		seen[k].end = len(wb)
	}
	dst, out := grown(dst, len(hits))
	for i, j := range js {
		m := seen[j]
		if out[i] = wb[m.start:m.end:m.end]; out[i] == nil {
			out[i] = []string{}
		}
	}
	return dst
}

// maskWordCount is at least the number of words appendMaskWords appends
// for mask.
func (q Query) maskWordCount(mask uint64) int {
	n := 0
	for m := mask; m != 0; m &= m - 1 {
		ti := bits.TrailingZeros64(m)
		if ti >= len(q.Terms) {
			break
		}
		if ti >= len(q.words) {
			n++
			continue
		}
		n += len(q.words[ti])
	}
	return n
}

// appendMaskWords appends q.Words of the terms whose bits are set in mask.
func (q Query) appendMaskWords(dst []string, mask uint64) []string {
	start := len(dst)
	same := true
	for m := mask; m != 0; m &= m - 1 {
		ti := bits.TrailingZeros64(m)
		if ti >= len(q.Terms) {
			break
		}
		if ti >= len(q.words) { // a Query made by hand: the terms are the words
			dst = append(dst, q.Terms[ti])
			continue
		}
		w := q.words[ti]
		if len(w) != 1 || w[0] != q.Terms[ti] {
			same = false
		}
		dst = append(dst, w...)
	}
	if !same && !q.ordered {
		slices.Sort(dst[start:])
		dst = dst[:start+len(slices.Compact(dst[start:]))]
	}
	return dst
}

// plain reports whether every term of q is the one word behind it (no
// stemming merged or changed a word), so that Words of terms is terms.
func (q Query) plain() bool {
	if len(q.words) != len(q.Terms) {
		return len(q.words) == 0
	}
	for i, w := range q.words {
		if len(w) != 1 || w[0] != q.Terms[i] {
			return false
		}
	}
	return true
}

// directMaskTerms is the most terms a query may have for its masks to
// index a table directly (appendMatchedFew): 2^8 entries.
const directMaskTerms = 8

// appendMatchedFew is AppendMatchedWords for a query of at most
// directMaskTerms terms, the common case: every mask is below 256, so
// each distinct mask's words are found through a table indexed by the
// mask, without hashing, and all of them share one buffer.
func (s *Snapshot) appendMatchedFew(dst [][]string, hits []Scored, q Query) [][]string {
	// Pass 1 marks the masks seen (end[m] != 0) and counts their words;
	// pass 2 writes each one's words once: wb[start[m]:end[m]].
	var start, end [1 << directMaskTerms]uint32 // uint32: 8 terms of many words each can pass 65,535 words
	need := 0
	for _, h := range hits {
		if m := h.Matched & 0xff; end[m] == 0 {
			end[m] = 1 // seen
			need += q.maskWordCount(m)
		}
	}
	wb := make([]string, 0, need)
	for m := range end {
		if end[m] != 0 {
			start[m] = uint32(len(wb))
			wb = q.appendMaskWords(wb, uint64(m))
			end[m] = uint32(len(wb))
		}
	}
	dst, out := grown(dst, len(hits))
	for i, h := range hits {
		m := h.Matched & 0xff
		if out[i] = wb[start[m]:end[m]:end[m]]; out[i] == nil {
			out[i] = []string{}
		}
	}
	return dst
}
