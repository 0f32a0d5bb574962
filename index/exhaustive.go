package index

import (
	"math"
	"slices"
	"sync"
)

// The exhaustive scorer: every posting of every term, term at a time,
// into a dense accumulator over the base documents. The other scorers
// give its answer, bit for bit; TopQuery.Pruning = PruneNever forces it,
// and Score (every match, no top k) uses it.

// scratch is a dense score accumulator reused across queries.
type scratch struct {
	scores  []float64
	masks   []uint64
	touched []uint32
	kth     []cand // kthLargest's heap
	ovc     []cand // the overlay's candidates
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// scratch takes an accumulator from the pool with room for every base
// document, and returns it with their number; the caller puts it back.
func (s *Snapshot) scratch() (*scratch, int) {
	sc := scratchPool.Get().(*scratch)
	nb := len(s.base.docs)
	if cap(sc.scores) < nb {
		sc.scores = make([]float64, nb)
		sc.masks = make([]uint64, nb)
	}
	return sc, nb
}

// accumulator is the exhaustive scorer's sums: scores and masks by base
// document, and the documents touched.
type accumulator struct {
	scores  []float64
	masks   []uint64
	lens    []uint32
	touched []uint32
	c0, c1  float64
}

// exhaustive scores every posting, term at a time, and offers every
// document with a score > 0 to the plan's heap, or when fn is not nil
// calls fn for each instead (base documents first, in no particular
// order, then overlay documents).
func (p *plan) exhaustive(fn func(ord uint32, score float64, mask uint64)) error {
	s := p.s
	sc, nb := s.scratch()
	defer scratchPool.Put(sc)
	a := accumulator{scores: sc.scores[:nb], masks: sc.masks[:nb], lens: s.base.lens,
		touched: sc.touched[:0], c0: p.c0, c1: p.c1}
	// Inside a set (TopQuery.Within), a posting of a document outside it
	// is skipped on its rank alone, before any read of the document's
	// score, mask or length.
	var in *Set
	if fn == nil && p.h.within != nil && !p.h.within.open {
		in = p.h.within
	}
	// Into a top k, the masks are not kept per posting but found for the
	// documents kept (matchedMasks): an 8-byte read and write per
	// posting at a random place less.
	if fn == nil && p.h.k > 0 && p.h.k <= maxMatchedSearch && nb >= matchedSearchDocs {
		a.masks = nil
	}
	var err error
	work := checkEvery // look at done before the first list
	for _, q := range p.qt {
		var bit uint64
		if q.ti < 64 {
			bit = 1 << q.ti
		}
		if work += len(q.list.docs); work >= checkEvery {
			work = 0
			if canceled(p.done) {
				err = ErrCanceled
				break
			}
		}
		docs, tfs := q.list.docs, q.list.tfs
		tfs = tfs[:len(docs)]
		// Runs of plain tfs, each followed by at most one escaped. Dead
		// documents are scored too and dropped below: a test per touched
		// document, not one per posting.
		if in != nil {
			if ds := p.probed(in, &q); ds != nil {
				a.addProbed(in, ds, &q, bit)
				continue
			}
		}
		for lo := 0; lo < len(docs); {
			hi := q.list.plainEnd(lo)
			switch {
			case in != nil:
				a.addIn(in, docs[lo:hi], tfs[lo:hi], q.idf, bit)
			case a.masks == nil:
				a.addScores(docs[lo:hi], tfs[lo:hi], q.idf)
			default:
				a.add(docs[lo:hi], tfs[lo:hi], q.idf, bit)
			}
			if hi < len(docs) && (in == nil || in.hasBase(docs[hi])) {
				a.addOne(docs[hi], q.list.bigAt(hi), q.idf, bit)
			}
			lo = min(hi+1, len(docs))
		}
	}
	if s.nDead > 0 {
		a.dropDead(s)
	}
	touched := a.touched
	sc.touched = touched[:0] // the buffer, for the next query
	switch {
	case err != nil:
		a.reset()
		return err
	case fn != nil:
		for _, i := range touched {
			if v := a.scores[i]; v > 0 {
				fn(i, v, a.masks[i])
			}
		}
		a.reset()
		p.overlayScores(fn)
		return nil
	}
	// The overlay's documents join the base's as candidates of the top k.
	ovc := sc.ovc[:0]
	if len(p.ov) > 0 {
		p.overlayScores(func(ord uint32, score float64, mask uint64) {
			ovc = append(ovc, cand{score: score, mask: mask, ord: ord})
		})
	}
	sc.ovc = ovc[:0]
	h := &p.h
	if h.within != nil {
		// Only the set's documents are candidates: the base's are
		// already, but for those Except leaves out, dropped here, and
		// the overlay's are filtered here.
		if h.within.hide != nil {
			touched = a.keepWithin(h.within, touched)
			a.touched = touched
		}
		ovc = keepWithin(h.within, ovc)
	}
	// Into the heap in one pass over the touched documents, without a
	// call per document: most lose to the worst kept on the score
	// alone. (A 1,024-bucket score histogram took two passes, each a
	// random read per touched document, and was slower once ties
	// compared ords: docs/performance.md, "Ranking against a plain
	// index, SQLite FTS5 and Bleve".)
	scores, masks := a.scores, a.masks
	if masks == nil {
		for _, i := range touched {
			if v := scores[i]; v > 0 && (len(h.h) < h.k || v >= h.h[0].score) {
				h.push(i, v, 0)
			}
			scores[i] = 0
		}
		p.matchedMasks(h.h, uint32(nb))
	} else {
		for _, i := range touched {
			if v := scores[i]; v > 0 && (h.k <= 0 || len(h.h) < h.k || v >= h.h[0].score) {
				h.push(i, v, masks[i])
			}
			scores[i], masks[i] = 0, 0
		}
	}
	for _, c := range ovc {
		h.push(c.ord, c.score, c.mask)
	}
	return nil
}

// maxMatchedSearch is the largest k for which the exhaustive scorer finds
// the masks of its top k afterwards (matchedMasks) rather than keeping
// one per document touched.
const maxMatchedSearch = 1024

// matchedSearchDocs is the fewest base documents for which it does so:
// below it the masks (8 bytes a document) stay in the processor's cache
// and writing one per posting costs less than the searches (100k
// documents, 800 KB of masks: Chinese at k = 100 took 37–39 µs with the
// searches against 22–34 µs without; 1M, 8 MB: 134–198 µs against
// 232–259 µs; docs/performance.md, "Chinese at 1M"). A variable for the
// tests, which run on small stores and set it to 0 (TestMain).
var matchedSearchDocs = 1 << 18

// matchedMasks sets the masks of the base documents in cs (ord < nb): the
// bits of the query terms whose base lists hold them, found by a binary
// search per term and document. A top k is a few hundred searches where
// the accumulator's masks were a write per posting.
func (p *plan) matchedMasks(cs []cand, nb uint32) {
	for i := range cs {
		c := &cs[i]
		if c.ord >= nb {
			continue
		}
		var mask uint64
		for _, q := range p.qt {
			if q.ti < 64 {
				if _, ok := findPosting(q.list.docs, c.ord); ok {
					mask |= 1 << q.ti
				}
			}
		}
		c.mask = mask
	}
}

// add adds the weights of the postings docs, tfs (plain tfs, no
// tfEscape) to the scores, sets bit in the masks and records the
// documents it touches first. The loop works on locals and makes no
// call (touched grows before it), so that the compiler keeps its values
// in registers.
func (a *accumulator) add(docs []uint32, tfs []uint8, idf float64, bit uint64) {
	tfs = tfs[:len(docs)]
	scores := a.scores
	masks, lens := a.masks[:len(scores)], a.lens[:len(scores)] // one length to check
	c0, c1 := a.c0, a.c1
	n := len(a.touched)
	touched := slices.Grow(a.touched, len(docs))
	out := touched[:cap(touched)]
	for i, d := range docs {
		v := weight(idf, float64(tfs[i]), c0, c1, lens[d])
		old := scores[d]
		// Branch-free: whether a document was touched before is a coin
		// toss the branch predictor loses. Scores are never -0.
		out[n] = d
		if math.Float64bits(old) == 0 {
			n++
		}
		v += old
		scores[d] = v
		masks[d] |= bit
	}
	a.touched = out[:n]
}

// addScores is add without the masks (into a top k: matchedMasks).
func (a *accumulator) addScores(docs []uint32, tfs []uint8, idf float64) {
	tfs = tfs[:len(docs)]
	scores := a.scores
	lens := a.lens[:len(scores)] // one length to check
	c0, c1 := a.c0, a.c1
	n := len(a.touched)
	touched := slices.Grow(a.touched, len(docs))
	out := touched[:cap(touched)]
	for i, d := range docs {
		v := weight(idf, float64(tfs[i]), c0, c1, lens[d])
		old := scores[d]
		out[n] = d
		if math.Float64bits(old) == 0 {
			n++
		}
		v += old
		scores[d] = v
	}
	a.touched = out[:n]
}

// addIn is add for the postings of documents in w (not open), which it
// finds by their rank: the others cost one 4-byte read each. The branch
// is taken rarely for a narrow set and often for a wide one, so the
// predictor wins it at both ends. It sets bit in the masks when they are
// kept (a top k past maxMatchedSearch).
func (a *accumulator) addIn(w *Set, docs []uint32, tfs []uint8, idf float64, bit uint64) {
	tfs = tfs[:len(docs)]
	scores := a.scores
	lens := a.lens[:len(scores)] // one length to check
	masks := a.masks
	if masks != nil {
		masks = masks[:len(scores)]
	}
	rank := w.rank[:len(scores)]
	ia, iw, da, dw := w.ia, w.iw, w.da, w.dw
	c0, c1 := a.c0, a.c1
	n := len(a.touched)
	touched := slices.Grow(a.touched, len(docs))
	out := touched[:cap(touched)]
	for i, d := range docs {
		if r := rank[d]; r-ia >= iw && r-da >= dw {
			continue
		}
		v := weight(idf, float64(tfs[i]), c0, c1, lens[d])
		old := scores[d]
		out[n] = d
		if math.Float64bits(old) == 0 {
			n++
		}
		v += old
		scores[d] = v
		if masks != nil {
			masks[d] |= bit
		}
	}
	a.touched = out[:n]
}

// addProbed adds the weights of q's postings of w's base documents,
// found by probing q's bitmap for each of them (dead ones too: dropDead
// takes them out).
func (a *accumulator) addProbed(w *Set, ds *denseSet, q *qterm, bit uint64) {
	for _, list := range [2][]uint32{w.inst, w.day} {
		for _, d := range list {
			if i, ok := ds.find(d); ok {
				a.addOne(d, q.list.tf(i), q.idf, bit)
			}
		}
	}
}

// addOne adds the weight of one posting (an escaped tf).
func (a *accumulator) addOne(d, tf uint32, idf float64, bit uint64) {
	v := weight(idf, float64(tf), a.c0, a.c1, a.lens[d])
	if a.scores[d] == 0 {
		a.touched = append(a.touched, d)
	}
	a.scores[d] += v
	if a.masks != nil {
		a.masks[d] |= bit
	}
}

// dropDead takes the dead documents out of the accumulator.
func (a *accumulator) dropDead(s *Snapshot) {
	n := 0
	for _, d := range a.touched {
		if s.isDead(d) {
			a.clear(d)
			continue
		}
		a.touched[n] = d
		n++
	}
	a.touched = a.touched[:n]
}

// reset zeroes the scores and masks of the documents touched.
func (a *accumulator) reset() {
	for _, i := range a.touched {
		a.clear(i)
	}
}

// clear zeroes document d's score, and its mask when masks are kept.
func (a *accumulator) clear(d uint32) {
	a.scores[d] = 0
	if a.masks != nil {
		a.masks[d] = 0
	}
}

// keepWithin keeps the touched documents of w, clearing the others'
// scores and masks (the accumulator must be zero where nothing is
// touched).
func (a *accumulator) keepWithin(w *Set, touched []uint32) []uint32 {
	n := 0
	for _, i := range touched {
		if w.has(i) {
			touched[n] = i
			n++
		} else {
			a.clear(i)
		}
	}
	return touched[:n]
}
