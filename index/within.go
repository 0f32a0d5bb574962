package index

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

// scoreEachCost is about what looking one term up in one document costs
// (a binary search in its list) against scoring one posting: when the set
// times the query's lists, times this, is below the postings, scoreEach
// is the faster scorer (BenchmarkSearchWithin).
const scoreEachCost = 32

// scoreEachPays reports whether scoring the set's documents one by one
// costs less than walking the query's lists.
func (s *Snapshot) scoreEachPays(p *plan, w *Set) bool {
	total := 0
	for _, q := range p.qt {
		total += len(q.list.docs)
	}
	return w.n*len(p.qt)*scoreEachCost < total
}

// scoreEach scores every document of w: each base document's terms are
// found by binary search in their lists, the overlay's documents as every
// scorer scores them, and each sum is made in term order as the
// exhaustive scorer makes it, so the scores are the same.
func (s *Snapshot) scoreEach(p *plan, w *Set, h *hitHeap, done <-chan struct{}) error {
	if w.n == 0 {
		return nil
	}
	s.overlayScores(p, func(ord uint32, score float64, mask uint64) { h.push(ord, score, mask) })
	nb := uint32(len(s.base.docs))
	lens := s.base.lens
	work := 0
	var err error
	w.each(func(d uint32) {
		if err != nil || d >= nb || s.isDead(d) {
			return
		}
		if work++; work&(checkEvery-1) == 0 && canceled(done) {
			err = ErrCanceled
			return
		}
		score := 0.0
		var mask uint64
		for j := range p.qt {
			q := &p.qt[j]
			i, found := findPosting(q.list.docs, d)
			if !found {
				continue
			}
			score += weight(q.idf, float64(q.list.tf(i)), p.c0, p.c1, lens[d])
			if q.ti < 64 {
				mask |= 1 << q.ti
			}
		}
		if score > 0 {
			h.push(d, score, mask)
		}
	})
	return err
}
