package index

import (
	"math"
	"slices"
	"sync"
)

// The impact scorer: the exact top k when one list is long and the others
// short (choose.go decides when). Every document of the short lists that
// can still enter is scored in full (its long-list weight found through
// the list's bitmap, or by a search of its blocks), then the documents of
// the long list alone come in descending weight from its impact order
// (impactorder.go) until the next cannot enter. Scores are summed in term
// order from 0, as the exhaustive scorer sums them.

// impactQuery is the state of one impact search: the long list, and the
// candidates (the documents of the short lists, each once, ascending)
// with their |D|, their partial scores (without the long list) and their
// places, then tfs, in the long list.
type impactQuery struct {
	*plan
	li     int    // the long list's index in p.qt
	L      *qterm // the long list
	one    *qterm // the one short list, or nil when there are several
	io     *impactOrder
	member *denseSet // L's bitmap, or nil
	cands  []uint32
	dls    []uint32
	part   []float64 // dead for a dead candidate
	at     []uint32  // 1 + position in the long list, then tf there; 0: absent
	sc     *impactScratch
}

// impact is the impact scorer with p.qt[li] the long list.
func (p *plan) impact(li int) error {
	if canceled(p.done) {
		return ErrCanceled
	}
	p.overlayToHeap()
	s := p.s
	// The documents of the short lists, each once, ascending: the
	// candidates scored in full, and the ones the long list's walk skips
	// (a sorted slice, not a mark per base document: it stays in cache).
	// With one short list (the common question: a rare word and a word
	// the analyzer keeps, "what") they are its documents as they are.
	sc := impactPool.Get().(*impactScratch)
	defer impactPool.Put(sc)
	iq := impactQuery{plan: p, li: li, L: &p.qt[li], sc: sc}
	if len(p.qt) == 2 {
		iq.one = &p.qt[1-li]
	}
	var touched []uint32
	if iq.one != nil {
		touched = iq.one.list.docs // read only: it is the segment's
	} else {
		touched = sc.docs[:0]
		for j := range p.qt {
			if j != li {
				touched = append(touched, p.qt[j].list.docs...)
			}
		}
		slices.Sort(touched)
		touched = slices.Compact(touched)
		sc.docs = touched[:0]
	}
	iq.cands = touched
	iq.io = s.base.impactOf(iq.L.id)
	iq.member = s.base.denseOf(iq.L.id)
	lens := s.base.lens
	c0, c1 := p.c0, p.c1
	// The candidates' |D| first, in a loop of loads that do not depend
	// on one another, so that their cache misses overlap.
	n := len(touched)
	dls := zeroed(sc.dls, n)
	at := zeroed(sc.at, n)
	part := zeroed(sc.part, n)
	sc.dls, sc.at, sc.part = dls[:0], at[:0], part[:0]
	iq.dls, iq.at, iq.part = dls, at, part
	for i, d := range touched {
		dls[i] = lens[d]
	}
	// Their scores without the long list (in doc order, so that every
	// short list is read forward once); dead documents get dead.
	if one := iq.one; one != nil {
		for c := range touched {
			part[c] = weight(one.idf, float64(one.list.tf(c)), c0, c1, dls[c])
		}
		if s.nDead > 0 {
			for c, d := range touched {
				if s.isDead(d) {
					part[c] = dead
				}
			}
		}
	} else {
		pos := sc.pos(len(p.qt))
		for c, d := range touched {
			v := 0.0
			for j := range p.qt {
				if j == li {
					continue
				}
				q := &p.qt[j]
				pos[j] = seek(q, pos[j], d)
				if i := pos[j]; i < len(q.list.docs) && q.list.docs[i] == d {
					v += weight(q.idf, float64(q.list.tf(i)), c0, c1, dls[c])
				}
			}
			if s.isDead(d) {
				v = dead
			}
			part[c] = v
		}
	}
	if w := p.h.within; w != nil {
		// Outside the set, a candidate is as good as dead: it neither
		// enters nor sets the threshold of the partial scores.
		for c, d := range touched {
			if !w.has(d) {
				part[c] = dead
			}
		}
	}
	if iq.one != nil && iq.member != nil && n <= oneDenseMax {
		iq.oneDense()
	} else {
		iq.probe()
	}
	// The long list alone, best first.
	iq.walk()
	return nil
}

// oneDenseMax is the most candidates oneDense takes: past it the
// threshold of probe saves more cold reads (a candidate's tf in the long
// list) than it costs.
const oneDenseMax = 192

// oneDense scores the candidates of one short list against a dense long
// list: every candidate is probed and scored in full, in loops with no
// branch on whether it is in the long list (a coin toss to the branch
// predictor). The threshold probe computes from the partial scores to
// skip probes costs, for a few candidates, about what the probes it
// skips do here, where a probe is two independent reads.
func (iq *impactQuery) oneDense() {
	touched, part, dls, at := iq.cands, iq.part, iq.dls, iq.at
	one, L, member, h := iq.one, iq.L, iq.member, &iq.h
	for c, d := range touched {
		r, in := member.rank(d)
		at[c] = in * (r + 1) // 1 + position in the long list, 0: absent
	}
	// The tf at each position (of the first posting for an absent one,
	// then times 0).
	tfs := L.list.tfs
	for c, r := range at {
		tf := uint32(tfs[max(r, 1)-1]) * min(r, 1)
		if tf == tfEscape {
			tf = L.list.bigAt(int(r - 1))
		}
		at[c] = tf
	}
	// A full score is the partial one (0 + the short list's weight) plus
	// the long list's, 0 for tf 0: a sum of two, the same in either term
	// order, and v + 0 is v.
	c0, c1 := iq.c0, iq.c1
	bitS, bitL := uint64(1)<<one.ti, uint64(1)<<L.ti
	for c, d := range touched {
		tf := at[c]
		score := part[c] + weight(L.idf, float64(tf), c0, c1, dls[c]) // dead stays -Inf
		if score > 0 && (len(h.h) < h.k || score >= h.h[0].score) {
			h.push(d, score, bitS|bitL*uint64(min(tf, 1)))
		}
	}
}

// probe scores the candidates in general: a threshold from their partial
// scores, then the probes of the survivors in the long list and their
// full scores, summed in term order. A full score is at least its partial
// one (rounding is monotone), so the k-th best partial score bounds the
// k-th best full one from below, and a candidate whose partial score plus
// the long list's highest weight stays under it cannot enter: its probe
// is skipped.
func (iq *impactQuery) probe() {
	touched, part, dls, at := iq.cands, iq.part, iq.dls, iq.at
	one, L, io, member, h, p := iq.one, iq.L, iq.io, iq.member, &iq.h, iq.plan
	c0, c1 := p.c0, p.c1
	ubL := 0.0
	for _, gr := range io.groups {
		ubL = max(ubL, weight(L.idf, float64(gr.tf), c0, c1, io.dl(gr.start)))
	}
	theta := max(h.threshold(), p.s.kthLargest(part, nil, h.k, &iq.sc.kth)/margin)
	// Then the survivors' places in the long list (through its bitmap
	// when it has one: again loads independent of one another), their tf
	// there (the same), then their full scores, summed in term order.
	if member != nil {
		for i, d := range touched {
			if v := part[i]; v >= 0 && (v+ubL)*margin >= theta {
				if r, ok := member.find(d); ok {
					at[i] = uint32(r) + 1
				}
			}
		}
	} else {
		lp := 0
		for i, d := range touched {
			if v := part[i]; v >= 0 && (v+ubL)*margin >= theta {
				lp = seek(L, lp, d)
				if lp < len(L.list.docs) && L.list.docs[lp] == d {
					at[i] = uint32(lp) + 1
				}
			}
		}
	}
	for i, r := range at {
		if r != 0 {
			at[i] = L.list.tf(int(r - 1))
		}
	}
	if one != nil {
		// A full score is the partial one (0 + the short list's weight)
		// plus the long list's, a sum of two, the same in either term
		// order.
		bitS, bitL := uint64(1)<<one.ti, uint64(1)<<L.ti
		for c, d := range touched {
			score := part[c]
			if score < 0 || (score+ubL)*margin < theta {
				continue
			}
			mask := bitS
			if tf := at[c]; tf != 0 {
				score += weight(L.idf, float64(tf), c0, c1, dls[c])
				mask |= bitL
			}
			if score > 0 {
				h.push(d, score, mask)
			}
		}
		return
	}
	pos := iq.sc.pos(len(p.qt))
	for c, d := range touched {
		if v := part[c]; v < 0 || (v+ubL)*margin < theta {
			continue
		}
		score := 0.0
		var mask uint64
		dl := dls[c]
		for j := range p.qt {
			q := &p.qt[j]
			if j == iq.li {
				if tf := at[c]; tf != 0 {
					score += weight(q.idf, float64(tf), c0, c1, dl)
					mask |= 1 << q.ti
				}
				continue
			}
			pos[j] = seek(q, pos[j], d)
			if i := pos[j]; i < len(q.list.docs) && q.list.docs[i] == d {
				score += weight(q.idf, float64(q.list.tf(i)), c0, c1, dl)
				mask |= 1 << q.ti
			}
		}
		if score > 0 {
			h.push(d, score, mask)
		}
	}
}

// walk offers the documents of the long list alone, best first, from its
// impact order, until the next cannot enter; the candidates were scored
// in full already.
func (iq *impactQuery) walk() {
	touched, L, io, h, s := iq.cands, iq.L, iq.io, &iq.h, iq.s
	c0, c1 := iq.c0, iq.c1
	bit := uint64(1) << L.ti
	// Inside a set (TopQuery.Within), a group's head is its next
	// document in the set: the others are passed over in a loop of one
	// read each, without a weight or a choice among the groups (none of
	// them is offered, so the order they would come in does not matter).
	var in *Set
	if w := h.within; w != nil && !w.open {
		in = w
	}
	skip := func(hd *groupHead) {
		if in != nil {
			for hd.pos < hd.end && !in.hasBase(io.docs[hd.pos]) {
				hd.pos++
			}
		}
	}
	heads := make([]groupHead, len(io.groups))
	for g, gr := range io.groups {
		heads[g] = groupHead{pos: gr.start, end: gr.end, tf: float64(gr.tf)}
		if skip(&heads[g]); heads[g].pos < heads[g].end {
			heads[g].w = weight(L.idf, heads[g].tf, c0, c1, io.dl(heads[g].pos))
		}
	}
	for {
		best := bestHead(heads)
		if best < 0 {
			break
		}
		hd := &heads[best]
		w := hd.w
		if h.k > 0 && len(h.h) == h.k && w < h.h[0].score {
			break // no later document weighs more
		}
		d, dl := io.docs[hd.pos], io.dl(hd.pos)
		hd.pos++
		if !holds(touched, d) && !s.isDead(d) && h.admits(d) && !h.push(d, w, bit) {
			// d ties the k-th best (w is not below it) and ranks after
			// it: so do the rest of d's run, which weigh the same and
			// come after d in the result order. (A document the set
			// leaves out, Except's in an open set, says nothing of them.)
			for hd.pos < hd.end && io.dl(hd.pos) == dl {
				hd.pos++
			}
		}
		if skip(hd); hd.pos < hd.end {
			hd.w = weight(L.idf, hd.tf, c0, c1, io.dl(hd.pos))
		}
	}
}

// holds reports whether the sorted docs hold d.
func holds(docs []uint32, d uint32) bool {
	_, ok := slices.BinarySearch(docs, d)
	return ok
}

// dead is the partial score of a dead candidate: below 0, where every
// live one is, and no weight added brings it up.
var dead = math.Inf(-1)

// impactScratch is the impact scorer's room for its candidates: their
// documents, |D|, partial scores and positions in the long list.
type impactScratch struct {
	docs, dls, at []uint32
	part          []float64
	kth           []cand
	cursors       []int
}

// pos returns n cursors at 0.
func (sc *impactScratch) pos(n int) []int {
	sc.cursors = zeroed(sc.cursors, n)
	return sc.cursors
}

var impactPool = sync.Pool{New: func() any { return new(impactScratch) }}

// groupHead is the next posting of one tf group of an impact-ordered
// list (io.groups), and that posting's weight.
type groupHead struct {
	pos, end uint32
	tf, w    float64
}

// bestHead returns the group whose next posting weighs most, the first
// of equals; -1 when every group is read.
func bestHead(heads []groupHead) int {
	best := -1
	for g := range heads {
		if heads[g].pos < heads[g].end && (best < 0 || heads[g].w > heads[best].w) {
			best = g
		}
	}
	return best
}
