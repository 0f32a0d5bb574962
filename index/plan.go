package index

import (
	"math"
	"slices"
	"sync"
)

// A query on a snapshot starts with a plan: the idf of each term, its
// base posting list, the overlay documents that hold it, and what the dead
// documents change. The plan is also the query's state: the scorers
// (exhaustive.go, onelist.go, pruned.go, impact.go) are its methods, read
// their inputs from it and keep their top k in its heap, and choose
// (choose.go) picks the one that answers.

// qterm is one query term in a plan.
type qterm struct {
	ti     int    // index in the query's terms
	id     uint32 // base term id
	idf    float64
	list   plist // base postings
	bound  termBound
	blocks []block
	ub     float64 // bound of the term's weight in any base doc
}

// ovHit is a query term found in an overlay document.
type ovHit struct {
	doc int // index in overlay
	ti  int
	tf  uint32
}

// plan is one query on one snapshot: what every scorer needs, and the top
// k it builds. AppendTop takes it from a pool, so that a query allocates
// only its answer; nothing in it outlives the call.
type plan struct {
	s      *Snapshot
	terms  []string
	c0, c1 float64
	qt     []qterm // terms with df > 0 that have base postings, in term order
	idf    []float64
	ov     []ovHit // sorted by doc, then ti
	// bounded: the terms' bounds are filled in (withBounds).
	bounded bool

	done  <-chan struct{} // TopQuery.Done
	probe int             // inside a set: probeAuto, or a test's choice (within.go)
	h     hitHeap         // the top k (TopQuery.Limit)

	// Room for planIn, kept between queries.
	df    []int
	lists []plist
	ids   []uint32
}

// plan returns the plan of terms in a room of its own, or nil when
// nothing can match.
func (s *Snapshot) plan(terms []string) *plan {
	return s.planIn(new(plan), terms)
}

var planPool = sync.Pool{New: func() any { return new(plan) }}

// release drops what p points into (the snapshot, the terms, the
// segment's lists) and puts it back in the pool.
func (p *plan) release() {
	clear(p.lists)
	clear(p.qt)
	*p = plan{idf: p.idf, qt: p.qt[:0], ov: p.ov[:0], h: hitHeap{h: p.h.h[:0]},
		df: p.df, lists: p.lists, ids: p.ids}
	planPool.Put(p)
}

// planIn makes the plan of terms in p's room, with an empty heap and no
// Done, and returns it, or nil when nothing can match.
func (s *Snapshot) planIn(p *plan, terms []string) *plan {
	if len(terms) == 0 || s.n == 0 || s.totalLen == 0 {
		return nil
	}
	N := float64(s.n)
	avgdl := float64(s.totalLen) / N
	n := len(terms)
	*p = plan{s: s, terms: terms, c0: K1 * (1 - B), c1: K1 * B / avgdl,
		idf: zeroed(p.idf, n), qt: p.qt[:0], ov: p.ov[:0], h: hitHeap{s: s, h: p.h.h[:0]},
		df: zeroed(p.df, n), lists: zeroed(p.lists, n), ids: zeroed(p.ids, n)}
	df, lists, ids := p.df, p.lists, p.ids
	for ti, t := range terms {
		if id, ok := s.base.terms.id(t); ok {
			lists[ti] = s.base.list(id)
			ids[ti] = id
			df[ti] = len(lists[ti].docs)
		}
	}
	if s.nDead > 0 {
		s.subtractDead(lists, ids, df)
	}
	p.ov = s.overlayHits(terms, p.ov)
	for _, h := range p.ov {
		df[h.ti]++
	}
	for ti := range terms {
		if df[ti] == 0 {
			continue
		}
		idf := math.Log(1 + (N-float64(df[ti])+0.5)/(float64(df[ti])+0.5))
		p.idf[ti] = idf
		if len(lists[ti].docs) == 0 {
			continue
		}
		p.qt = append(p.qt, qterm{ti: ti, id: ids[ti], idf: idf, list: lists[ti]})
	}
	return p
}

// withBounds fills in the bounds of the plan's terms, which only the
// pruned scorer reads (a short list's are computed from its postings).
func (p *plan) withBounds() {
	if p.bounded {
		return
	}
	p.bounded = true
	for j := range p.qt {
		q := &p.qt[j]
		q.bound, q.blocks = p.s.base.termBounds(q.id)
		q.ub = p.weight(q.idf, float64(q.bound.maxTf), q.bound.minLen)
	}
}

// subtractDead takes the dead base documents out of df.
func (s *Snapshot) subtractDead(lists []plist, ids []uint32, df []int) {
	for ti, l := range lists {
		if len(l.docs) > 0 {
			df[ti] -= s.deadCount(ids[ti])
		}
	}
}

// weight is one term's BM25 contribution. Every scorer calls it, so they
// all round the same way.
func weight(idf, tf, c0, c1 float64, dl uint32) float64 {
	return idf * tf * (K1 + 1) / (tf + c0 + c1*float64(dl))
}

// weight is weight with the plan's length normalisation.
func (p *plan) weight(idf, tf float64, dl uint32) float64 {
	return weight(idf, tf, p.c0, p.c1, dl)
}

// overlayHits finds the query terms in the overlay's live documents,
// sorted by document, then term.
func (s *Snapshot) overlayHits(terms []string, out []ovHit) []ovHit {
	if len(s.overlay) == 0 {
		return out
	}
	for ti, t := range terms {
		h := termHash(t)
		for _, ps := range [2][]ovPosting{s.ovRange(h), s.ovRecentRange(h)} {
			for _, p := range ps {
				if p.term == t && s.overlay[p.doc] != nil {
					out = append(out, ovHit{doc: int(p.doc), ti: ti, tf: p.tf})
				}
			}
		}
	}
	// By document, then term: an insertion sort when a query meets a few
	// overlay postings (the generic sort's call per comparison costs more
	// than the comparisons).
	if len(out) > 32 {
		slices.SortFunc(out, func(a, b ovHit) int {
			if a.doc != b.doc {
				return a.doc - b.doc
			}
			return a.ti - b.ti
		})
		return out
	}
	for i := 1; i < len(out); i++ {
		x := out[i]
		j := i
		for ; j > 0 && (out[j-1].doc > x.doc || out[j-1].doc == x.doc && out[j-1].ti > x.ti); j-- {
			out[j] = out[j-1]
		}
		out[j] = x
	}
	return out
}

// overlayScores calls fn with each overlay document's score and matched
// mask, summing its terms' weights in term order like the other scorers.
func (p *plan) overlayScores(fn func(ord uint32, score float64, mask uint64)) {
	s := p.s
	base := uint32(len(s.base.docs))
	for i := 0; i < len(p.ov); {
		d := p.ov[i].doc
		var score float64
		var mask uint64
		for ; i < len(p.ov) && p.ov[i].doc == d; i++ {
			h := p.ov[i]
			score += weight(p.idf[h.ti], float64(h.tf), p.c0, p.c1, s.overlay[d].len)
			if h.ti < 64 {
				mask |= 1 << h.ti
			}
		}
		if score > 0 {
			fn(base+uint32(d), score, mask)
		}
	}
}

// overlayToHeap pushes every overlay document to the heap: the scorers
// but the exhaustive one take them first (they are few, and may raise the
// threshold).
func (p *plan) overlayToHeap() {
	p.overlayScores(func(ord uint32, score float64, mask uint64) { p.h.push(ord, score, mask) })
}

// zeroed returns b resized to n zero values, reusing its room.
func zeroed[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	b = b[:n]
	clear(b)
	return b
}
