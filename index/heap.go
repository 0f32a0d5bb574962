package index

import "slices"

// hitHeap is the one heap of the query side: every scorer keeps its top k
// in it, and kthLargest finds a threshold with it. Its order is the
// result order (better: higher score, then category, then name), by which
// it also sorts the answer (sort).

// cand is a scored document in the top-k heap: no pointers, so the heap
// costs the garbage collector nothing.
type cand struct {
	score float64
	mask  uint64
	ord   uint32
}

// hitHeap keeps the best k candidates under the result order; k <= 0
// keeps every candidate pushed.
type hitHeap struct {
	s *Snapshot
	k int
	h []cand // min-heap: h[0] is the worst kept
	// within, when not nil, admits only its documents (TopQuery.Within).
	within *Set
}

// admits reports whether the heap takes ord at all (TopQuery.Within).
func (hh *hitHeap) admits(ord uint32) bool { return hh.within == nil || hh.within.has(ord) }

// better reports whether a ranks before b: higher score, then category,
// then name. Small enough to inline: only ties look at the documents.
func (hh *hitHeap) better(a, b cand) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return hh.tieBetter(a.ord, b.ord)
}

// tieBetter orders two documents of equal score by category, then name:
// by ord between base documents (segment.docs is in that order); an
// overlay document sits between the base documents below it (ovDoc.below)
// and the rest, so only two overlay documents with the same base
// documents below them compare their identities.
func (hh *hitHeap) tieBetter(a, b uint32) bool {
	n := uint32(len(hh.s.base.docs))
	if a < n && b < n {
		return a < b
	}
	if ka, kb := hh.tieKey(a, n), hh.tieKey(b, n); ka != kb {
		return ka < kb
	}
	da, db := hh.s.Doc(int(a)), hh.s.Doc(int(b))
	if da.Category != db.Category {
		return da.Category < db.Category
	}
	return da.Name < db.Name
}

// tieKey places document ord in identity order: base document i at
// 2i+1, an overlay document at 2*below, before the first base document
// not below it (a dead base document of the same identity, if any, is
// never a candidate).
func (hh *hitHeap) tieKey(ord, n uint32) uint64 {
	if ord < n {
		return 2*uint64(ord) + 1
	}
	return 2 * uint64(hh.s.overlay[ord-n].below)
}

// threshold is the score a candidate must reach to enter (0 while the
// heap has room).
func (hh *hitHeap) threshold() float64 {
	if hh.k > 0 && len(hh.h) == hh.k {
		return hh.h[0].score
	}
	return 0
}

// push offers a candidate and reports whether it was kept.
func (hh *hitHeap) push(ord uint32, score float64, mask uint64) bool {
	if hh.within != nil && !hh.within.has(ord) {
		return false
	}
	x := cand{score: score, mask: mask, ord: ord}
	if hh.k <= 0 {
		hh.h = append(hh.h, x)
		return true
	}
	if len(hh.h) < hh.k {
		hh.h = append(hh.h, x)
		hh.up(hh.h, len(hh.h)-1)
		return true
	}
	if score < hh.h[0].score || !hh.better(x, hh.h[0]) {
		return false
	}
	hh.h[0] = x
	hh.down(hh.h, 0)
	return true
}

// up moves a[i] towards the root of the min-heap a while it ranks after
// its parent.
func (hh *hitHeap) up(a []cand, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !hh.better(a[p], a[i]) {
			break
		}
		a[i], a[p] = a[p], a[i]
		i = p
	}
}

// down moves a[i] away from the root of the min-heap a while a child
// ranks after it.
func (hh *hitHeap) down(a []cand, i int) {
	n := len(a)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && hh.better(a[l], a[r]) {
			m = r
		}
		if !hh.better(a[i], a[m]) {
			return
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
}

// sort puts a in result order, best first: a quicksort with the
// comparison inline. The generic sort's call per comparison cost as much
// as the search on small top-k queries, and a heap sort with the heap's
// own sift took 1.6 to 1.8 times the quicksort's time on 100 candidates
// (docs/performance.md, "The query side, one scorer a file").
func (hh *hitHeap) sort(a []cand) {
	for len(a) > 12 {
		// Median of three to a[0], then partition a[1:].
		m := len(a) / 2
		if hh.better(a[m], a[0]) {
			a[m], a[0] = a[0], a[m]
		}
		if hh.better(a[len(a)-1], a[0]) {
			a[len(a)-1], a[0] = a[0], a[len(a)-1]
		}
		if hh.better(a[m], a[len(a)-1]) {
			a[m], a[len(a)-1] = a[len(a)-1], a[m]
		}
		// Now a[0] ranks before a[last] ranks before a[m]... use a[last]
		// as the pivot: a[0] is before it and a[m] after it.
		last := len(a) - 1
		a[m], a[last-1] = a[last-1], a[m]
		p := a[last]
		i, j := 0, last-1
		for {
			for hh.better(a[i], p) {
				i++
			}
			for j > i && hh.better(p, a[j]) {
				j--
			}
			if i >= j {
				break
			}
			a[i], a[j] = a[j], a[i]
			i++
			j--
		}
		a[i], a[last] = a[last], a[i]
		// Recurse into the smaller side, loop on the larger.
		if i < len(a)-i {
			hh.sort(a[:i])
			a = a[i+1:]
		} else {
			hh.sort(a[i+1:])
			a = a[:i]
		}
	}
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && hh.better(a[j], a[j-1]); j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// appendSorted appends the kept documents to dst, best first.
func (hh *hitHeap) appendSorted(dst []Scored) []Scored {
	hh.sort(hh.h)
	if hh.k > 0 && len(hh.h) > hh.k {
		hh.h = hh.h[:hh.k]
	}
	n := len(dst)
	dst = slices.Grow(dst, len(hh.h))[:n+len(hh.h)]
	out := dst[n:]
	for i, c := range hh.h {
		out[i] = Scored{Doc: hh.s.Doc(int(c.ord)), Score: c.score, Matched: c.mask}
	}
	return dst
}

// kthLargest returns the k-th largest of vals[i] for i in at (all of vals
// when at is nil), 0 when they hold fewer than k values >= 0 (negative
// ones are not counted); buf is its room. It keeps the k largest in a
// hitHeap of s with ord i: every i is below the number of base documents
// (a base document, or a candidate's place among distinct base
// documents), so a tie compares two ords and reads no document, and the
// k-th value does not depend on how ties are ordered.
func (s *Snapshot) kthLargest(vals []float64, at []uint32, k int, buf *[]cand) float64 {
	if k <= 0 {
		return 0
	}
	h := hitHeap{s: s, k: k, h: (*buf)[:0]}
	if at == nil {
		for i, v := range vals {
			if v >= 0 && (len(h.h) < k || v > h.h[0].score) {
				h.push(uint32(i), v, 0)
			}
		}
	} else {
		for _, i := range at {
			if v := vals[i]; v >= 0 && (len(h.h) < k || v > h.h[0].score) {
				h.push(i, v, 0)
			}
		}
	}
	*buf = h.h[:0]
	if len(h.h) < k {
		return 0
	}
	return h.h[0].score
}
