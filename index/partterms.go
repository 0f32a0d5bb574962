package index

import (
	"slices"
	"strings"
)

// PartTerms is every term of the parts of one text (the sections of a
// long note), each part analysed as the index analyses a document, with
// its count in each part, so that the counts of any query's terms in
// every part are a lookup: a note that a section answers in many
// retrieves is analysed once instead of once per retrieve (retrieve's
// section cache keeps them). A PartTerms is never changed once made, so
// any number of goroutines may read it.
//
// It is compact, since a cache holds thousands: the distinct terms
// sorted and written end to end in one string (a term is found by a
// binary search), and the postings as plain numbers; no map, and nothing
// of the analysed texts is kept.
type PartTerms struct {
	terms string   // the distinct terms, sorted, end to end
	end   []uint32 // term j is terms[end[j-1]:end[j]] (end[-1] = 0)
	start []uint32 // the postings of term j are [start[j], start[j+1])
	part  []uint32 // a posting's part, ascending within a term
	count []uint32 // a posting's occurrences of the term in its part
	lens  []int32  // lens[i]: the index terms of part i (its |D|)
}

// PartTerms analyses parts: the texts of parts[i] are analysed apart (no
// term spans two of them, as TermCounter.Count sees them) and counted
// together as part i. Each distinct word is filtered (stemmed) once.
func (a *Analyzer) PartTerms(parts [][]string) *PartTerms {
	a = a.orSpec()
	size := 0
	for _, texts := range parts {
		for _, s := range texts {
			size += len(s)
		}
	}
	p := &PartTerms{lens: make([]int32, len(parts))}
	ids := make(map[string]int32, size/16)  // a term's number, in order of first sight
	var names []string                      // the terms by number
	memo := make(map[string]int32, size/16) // word → its term's number, or dropped
	var cnt, last []int32                   // per term: its count in the part, the last part counted
	var touched []int32                     // the terms of the part, in order of first sight
	var events []int32                      // (part, term, count) triples, part by part
	var cjk []string
	id := func(t string) int32 {
		j, ok := ids[t]
		if !ok {
			j = int32(len(names))
			ids[t] = j
			names = append(names, t)
			cnt, last = append(cnt, 0), append(last, -1)
		}
		return j
	}
	for i, texts := range parts {
		add := func(j int32) {
			if last[j] != int32(i) {
				last[j], cnt[j] = int32(i), 0
				touched = append(touched, j)
			}
			cnt[j]++
		}
		n := 0
		touched = touched[:0]
		for _, s := range texts {
			scan(normalize(s), func(w string) {
				j, ok := memo[w]
				if !ok {
					j = dropped
					if t, kept := a.filter(w); kept {
						j = id(t)
					}
					memo[w] = j
				}
				if j != dropped {
					n++
					add(j)
				}
			}, func(run string) {
				cjk = a.appendCJK(cjk[:0], run)
				n += len(cjk)
				for _, t := range cjk {
					add(id(t))
				}
			})
		}
		p.lens[i] = int32(n)
		for _, j := range touched {
			events = append(events, int32(i), j, cnt[j])
		}
	}
	// Number the terms in sorted order: rank[j] is term j's place.
	order := make([]int32, len(names))
	for j := range order {
		order[j] = int32(j)
	}
	slices.SortFunc(order, func(x, y int32) int { return strings.Compare(names[x], names[y]) })
	rank := make([]int32, len(names))
	var b strings.Builder
	n := 0
	for _, t := range names {
		n += len(t)
	}
	b.Grow(n)
	p.end = make([]uint32, len(names))
	for r, j := range order {
		rank[j] = int32(r)
		b.WriteString(names[j])
		p.end[r] = uint32(b.Len())
	}
	p.terms = b.String()
	// Group the postings by term (a counting sort: parts stay ascending).
	p.start = make([]uint32, len(names)+1)
	for k := 0; k < len(events); k += 3 {
		p.start[rank[events[k+1]]+1]++
	}
	for j := 1; j < len(p.start); j++ {
		p.start[j] += p.start[j-1]
	}
	p.part = make([]uint32, len(events)/3)
	p.count = make([]uint32, len(events)/3)
	next := slices.Clone(p.start[:len(names)])
	for k := 0; k < len(events); k += 3 {
		r := rank[events[k+1]]
		p.part[next[r]], p.count[next[r]] = uint32(events[k]), uint32(events[k+2])
		next[r]++
	}
	return p
}

// term is the j-th term in sorted order.
func (p *PartTerms) term(j int) string {
	from := uint32(0)
	if j > 0 {
		from = p.end[j-1]
	}
	return p.terms[from:p.end[j]]
}

// find returns the number of term, or -1 when no part holds it.
func (p *PartTerms) find(term string) int {
	lo, hi := 0, len(p.end)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if p.term(m) < term {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(p.end) && p.term(lo) == term {
		return lo
	}
	return -1
}

// Add adds, for each part i holding term, its count to tf[i*stride+col]
// (tf holds stride counts per part, the counts of term in column col).
func (p *PartTerms) Add(term string, tf []int, stride, col int) {
	j := p.find(term)
	if j < 0 {
		return
	}
	for k := p.start[j]; k < p.start[j+1]; k++ {
		tf[int(p.part[k])*stride+col] += int(p.count[k])
	}
}

// Len is the number of index terms of part i (|D| of part i as a
// document), as TermCounter.Count returns it.
func (p *PartTerms) Len(i int) int { return int(p.lens[i]) }

// Size is about the bytes p holds, an eighth added for the allocator's
// rounding up to its size classes.
func (p *PartTerms) Size() int {
	n := len(p.terms) + 4*len(p.end) + 4*len(p.start) + 8*len(p.part) + 4*len(p.lens) + 6*24 + 16
	return n + n/8
}
