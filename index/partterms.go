package index

import "slices"

// PartTerms is every term of the parts of one text (the sections of a
// long note), each part analysed as the index analyses a document, with
// its count in each part, so that the counts of any query's terms in
// every part are a lookup: a note that a section answers in many
// retrieves is analysed once instead of once per retrieve (retrieve's
// section cache keeps them). A PartTerms is never changed once made, so
// any number of goroutines may read it.
type PartTerms struct {
	ids   map[string]int32 // a term's number
	start []int32          // the postings of term j are [start[j], start[j+1])
	part  []int32          // a posting's part, ascending within a term
	count []int32          // a posting's occurrences of the term in its part
	lens  []int            // lens[i]: the index terms of part i (its |D|)
	bytes int              // the bytes of the texts (the terms may point into a copy)
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
	p := &PartTerms{ids: make(map[string]int32, size/16), lens: make([]int, len(parts)), bytes: size}
	memo := make(map[string]int32, size/16) // word → its term's number, or dropped
	var cnt, last []int32                   // per term: its count in the part, the last part counted
	var touched []int32                     // the terms of the part, in order of first sight
	var events []int32                      // (part, term, count) triples, part by part
	var cjk []string
	id := func(t string) int32 {
		j, ok := p.ids[t]
		if !ok {
			j = int32(len(p.ids))
			p.ids[t] = j
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
		p.lens[i] = n
		for _, j := range touched {
			events = append(events, int32(i), j, cnt[j])
		}
	}
	// Group the postings by term (a counting sort: parts stay ascending).
	p.start = make([]int32, len(p.ids)+1)
	for k := 0; k < len(events); k += 3 {
		p.start[events[k+1]+1]++
	}
	for j := 1; j < len(p.start); j++ {
		p.start[j] += p.start[j-1]
	}
	p.part = make([]int32, len(events)/3)
	p.count = make([]int32, len(events)/3)
	next := slices.Clone(p.start[:len(p.ids)])
	for k := 0; k < len(events); k += 3 {
		j := events[k+1]
		p.part[next[j]], p.count[next[j]] = events[k], events[k+2]
		next[j]++
	}
	return p
}

// Add adds, for each part i holding term, its count to tf[i*stride+col]
// (tf holds stride counts per part, the counts of term in column col).
func (p *PartTerms) Add(term string, tf []int, stride, col int) {
	j, found := p.ids[term]
	if !found {
		return
	}
	for k := p.start[j]; k < p.start[j+1]; k++ {
		tf[int(p.part[k])*stride+col] += int(p.count[k])
	}
}

// Len is the number of index terms of part i (|D| of part i as a
// document), as TermCounter.Count returns it.
func (p *PartTerms) Len(i int) int { return p.lens[i] }

// Size is about the bytes p holds: its terms may be slices of a
// normalised copy of the texts, counted whole.
func (p *PartTerms) Size() int {
	return p.bytes + 48*len(p.ids) + 8*len(p.part) + 8*len(p.lens) + 64
}
