package index

import "math/bits"

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
			for _, p := range s.base.postings[id] {
				if i, ok := mark[p.doc]; ok {
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
