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
	out := make([][]string, len(hits))
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
		return out
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
	return out
}

// MatchedWords returns, for each hit of a search for q.Terms, the query
// words behind the terms that occur in the hit's document, distinct and
// sorted: q.Words of what MatchedAll returns, never nil. With at most 64
// terms it reads the hits' masks only and works out the words once per
// distinct mask (the hits of a top k share a handful): hits with the same
// terms share one slice (capacity-limited, so an append copies), which
// callers treat as read-only.
func (s *Snapshot) MatchedWords(hits []Scored, q Query) [][]string {
	if len(q.Terms) > 64 {
		out := make([][]string, len(hits))
		for i, m := range s.MatchedAll(hits, q.Terms) {
			if out[i] = q.Words(m); out[i] == nil {
				out[i] = []string{}
			}
		}
		return out
	}
	if q.plain() {
		// Every term is its own word: the words are the terms of the mask,
		// already in order.
		return s.MatchedAll(hits, q.Terms)
	}
	// The words of each distinct mask, once, in wb.
	type maskWords struct {
		mask       uint64
		start, end int
	}
	var seen []maskWords
	wb := make([]string, 0, 4*len(q.Terms))
	out := make([][]string, len(hits))
	// An open-addressed table of the masks seen: index+1 into seen.
	var small [256]int32
	table := small[:]
	if 2*len(hits) > len(small) {
		table = make([]int32, 1<<bits.Len(uint(2*len(hits))))
	}
	tmask := uint64(len(table) - 1)
	last := -1
	for i, h := range hits {
		j := last
		if j < 0 || seen[j].mask != h.Matched {
			slot := (h.Matched * 0x9e3779b97f4a7c15 >> 32) & tmask
			for table[slot] != 0 && seen[table[slot]-1].mask != h.Matched {
				slot = (slot + 1) & tmask
			}
			if table[slot] == 0 {
				start := len(wb)
				wb = q.appendMaskWords(wb, h.Matched)
				seen = append(seen, maskWords{h.Matched, start, len(wb)})
				table[slot] = int32(len(seen))
			}
			j = int(table[slot] - 1)
			last = j
		}
		m := seen[j]
		if out[i] = wb[m.start:m.end:m.end]; out[i] == nil {
			out[i] = []string{}
		}
	}
	return out
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
	if !same {
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
