package index

import "slices"

// keepWithin drops from touched (clearing their scores and masks) and
// from ovc the documents that are not in w.
func keepWithin(w *Set, touched []uint32, ovc []cand, scores []float64, masks []uint64) ([]uint32, []cand) {
	n := 0
	for _, d := range touched {
		if w.has(d) {
			touched[n] = d
			n++
			continue
		}
		scores[d], masks[d] = 0, 0
	}
	m := 0
	for _, c := range ovc {
		if w.has(c.ord) {
			ovc[m] = c
			m++
		}
	}
	return touched[:n], ovc[:m]
}

// scoreEachCost is what finding one document's term costs scoreEach (a
// galloping step or a few in a list, for documents taken in order)
// against what one posting costs the scorers that walk whole lists: when
// the set times the query's lists, times this, is below the postings,
// scoreEach is the faster scorer (BenchmarkRetrieveRange).
const scoreEachCost = 8

// scoreEachPays reports whether scoring the set's documents one by one
// costs less than walking the query's lists.
func (s *Snapshot) scoreEachPays(p *plan, w *Set) bool {
	total := 0
	for _, q := range p.qt {
		total += len(q.list.docs)
	}
	return w.Len()*len(p.qt)*scoreEachCost < total
}

// scoreEach scores every document of the query's set (p.h.within): its
// base documents in ord order,
// each term's list searched forward from the last find (galloping), the
// overlay's documents as every scorer scores them. Each sum is made in
// term order from 0, as the exhaustive scorer makes it, so the scores
// are the same.
func (p *plan) scoreEach() error {
	s, w, h := p.s, p.h.within, &p.h
	if w.Len() == 0 {
		return nil
	}
	p.overlayToHeap()
	// The sums go into the pooled dense accumulator, by document, as the
	// exhaustive scorer's do; they are zero again when it goes back.
	sc, nb := s.scratch()
	defer scratchPool.Put(sc)
	scores, masks := sc.scores[:nb], sc.masks[:nb]
	docs := sc.touched[:0]
	w.each(func(d uint32) {
		if d < uint32(nb) {
			docs = append(docs, d)
		}
	})
	slices.Sort(docs)
	sc.touched = docs[:0] // the buffer, for the next query
	defer func() {
		for _, d := range docs {
			scores[d], masks[d] = 0, 0
		}
	}()
	lens := s.base.lens
	for j := range p.qt {
		if canceled(p.done) {
			return ErrCanceled
		}
		q := &p.qt[j]
		var bit uint64
		if q.ti < 64 {
			bit = 1 << q.ti
		}
		list := q.list.docs
		pos := 0
		for _, d := range docs {
			pos = gallop(list, pos, d)
			if pos == len(list) {
				break
			}
			if list[pos] == d {
				scores[d] += weight(q.idf, float64(q.list.tf(pos)), p.c0, p.c1, lens[d])
				masks[d] |= bit
			}
		}
	}
	for _, d := range docs {
		if scores[d] > 0 {
			h.push(d, scores[d], masks[d])
		}
	}
	return nil
}

// gallop returns the position of the first doc of list[from:] that is at
// least d (len(list) when none): steps of doubling size, then a binary
// search in the last step.
func gallop(list []uint32, from int, d uint32) int {
	if from >= len(list) || list[from] >= d {
		return from
	}
	lo, step := from, 1
	hi := from + step
	for hi < len(list) && list[hi] < d {
		lo = hi
		step *= 2
		hi = lo + step
	}
	hi = min(hi, len(list))
	i, _ := findPosting(list[lo+1:hi], d)
	return lo + 1 + i
}
