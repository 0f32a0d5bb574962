package index

// oneList is the exhaustive top k of a query with one base list: a
// document's score is its one weight (0 + w, as the exhaustive scorer sums
// it), so no accumulator is needed.
func (p *plan) oneList() error {
	if canceled(p.done) {
		return ErrCanceled
	}
	p.overlayToHeap()
	s, h := p.s, &p.h
	q := &p.qt[0]
	bit := uint64(1) << q.ti
	lens := s.base.lens
	c0, c1 := p.c0, p.c1
	in := h.within // a document outside it is skipped before its weight
	for n, d := range q.list.docs {
		if n&(checkEvery-1) == checkEvery-1 && canceled(p.done) {
			return ErrCanceled
		}
		if s.isDead(d) || in != nil && !in.hasBase(d) {
			continue
		}
		v := weight(q.idf, float64(q.list.tf(n)), c0, c1, lens[d])
		if len(h.h) < h.k || v >= h.h[0].score {
			h.push(d, v, bit)
		}
	}
	return nil
}
