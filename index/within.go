package index

// Scoring inside a set (TopQuery.Within, a time range). The exhaustive
// scorer takes a set as it comes: each term's list is either scanned,
// a posting of a document outside the set skipped on its rank alone
// (Set.hasBase: one 4-byte read, before the document's score, mask or
// length is touched), or, when the list has a bitmap (dense.go) and
// is much longer than the set is large, probed for each of the set's
// documents instead. Either way every in-set document's weights are
// summed in term order from 0, so the answer is the exhaustive one.

// keepWithin drops from ovc the overlay documents that are not in w.
func keepWithin(w *Set, ovc []cand) []cand {
	m := 0
	for _, c := range ovc {
		if w.has(c.ord) {
			ovc[m] = c
			m++
		}
	}
	return ovc[:m]
}

// probeCost is what probing a list's bitmap for one of a set's
// documents costs against what scanning one posting costs (a rank read
// and a compare): a list is probed when the set's base documents times
// this are fewer than its postings (BenchmarkTopWithin).
const probeCost = 4

// Probing, for tests: probeAuto decides by probeCost, probeNever scans
// every list, probeAlways probes every list that has a bitmap.
const (
	probeAuto = iota
	probeNever
	probeAlways
)

// baseLen is the number of base documents in w (not open), dead ones
// included.
func (w *Set) baseLen() int { return len(w.inst) + len(w.day) }

// probed returns the bitmap through which the exhaustive scorer finds
// q's postings of w's documents, or nil when it scans q's list.
func (p *plan) probed(w *Set, q *qterm) *denseSet {
	switch p.probe {
	case probeNever:
		return nil
	case probeAuto:
		if w.baseLen()*probeCost >= len(q.list.docs) {
			return nil
		}
	}
	return p.s.base.denseOf(q.id)
}

// inSetCost is about what the exhaustive scorer costs inside w, in
// postings scanned: each list's postings, or for a list probed, the
// set's base documents times probeCost. An open set (every document but
// those Except leaves out) is never probed: its cost is every posting.
func (p *plan) inSetCost(w *Set) int {
	if w.open {
		return p.postings()
	}
	cost := 0
	for _, q := range p.qt {
		n := len(q.list.docs)
		if m := w.baseLen() * probeCost; m < n && p.s.base.denseOf(q.id) != nil {
			n = m
		}
		cost += n
	}
	return cost
}

// postings is the number of the plan's base postings.
func (p *plan) postings() int {
	n := 0
	for _, q := range p.qt {
		n += len(q.list.docs)
	}
	return n
}
