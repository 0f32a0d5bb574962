package index

import (
	"math"
	"slices"
	"sync"
)

// A query with one long list and short other lists (an English question:
// a stop word the analyzer keeps, "what", and a rare word or two) spends
// nearly all of an exhaustive or a pruned search on the long list, though
// only the documents the short lists hold and the best few of the long
// list alone can make the top k. The impact order of the long list gives
// those few without reading the rest: its documents grouped by tf
// (descending), each group by |D| (ascending). Within a group a document's
// weight falls as |D| grows, whatever avgdl and idf are, so a merge of the
// groups by the weight of their heads yields the list's documents in
// descending weight, exactly, in any snapshot sharing the segment.

// impactMin is the shortest list that gets an impact order.
const impactMin = 1 << 10

// impactShare: the impact path is taken when the other lists hold at most
// 1/impactShare of the long list's postings.
const impactShare = 8

// impactOrder is one list's documents in impact order; documents of one
// tf and one |D| (one weight) are in ascending ord, which is the result
// order of equal scores (segment.docs), so that the walk can leave a run
// at its first document that ties the k-th best and does not enter.
type impactOrder struct {
	docs []uint32
	// |D| of docs[i] (dl), read with it in the walk: one more sequential
	// read instead of a random one into the length table. In 16 bits
	// when every length fits (lens16), else 32 (lens32): the order is a
	// cache kept for the life of its segment, 6 bytes a posting, not 8.
	lens16 []uint16
	lens32 []uint32
	groups []impactGroup // by tf, descending
}

// dl returns |D| of docs[i].
func (io *impactOrder) dl(i uint32) uint32 {
	if io.lens16 != nil {
		return uint32(io.lens16[i])
	}
	return io.lens32[i]
}

// impactGroup is the documents of one tf: docs[start:end] of its order.
type impactGroup struct {
	tf         uint32
	start, end uint32
}

// impactOf returns the impact order of term id's list, making it on first
// use. Concurrent first uses may both make it; they make the same one, and
// the first stored is kept.
func (seg *segment) impactOf(id uint32) *impactOrder {
	if v, ok := seg.impacts.Load(id); ok {
		return v.(*impactOrder)
	}
	l := seg.list(id)
	io := &impactOrder{docs: make([]uint32, len(l.docs))}
	fits := true
	for i, d := range l.docs {
		if l.tfs[i] == tfEscape || seg.lens[d] >= 1<<24 {
			fits = false
			break
		}
	}
	if fits {
		// One integer key per posting: tf descending, |D|, doc.
		keys := make([]uint64, len(l.docs))
		for i, d := range l.docs {
			keys[i] = uint64(255-l.tfs[i])<<56 | uint64(seg.lens[d])<<32 | uint64(d)
		}
		slices.Sort(keys)
		for i, k := range keys {
			io.docs[i] = uint32(k)
		}
	} else {
		tfs := make(map[uint32]uint32, len(l.docs))
		for i, d := range l.docs {
			io.docs[i] = d
			tfs[d] = l.tf(i)
		}
		slices.SortFunc(io.docs, func(a, b uint32) int {
			if ta, tb := tfs[a], tfs[b]; ta != tb {
				return int(tb) - int(ta)
			}
			if la, lb := seg.lens[a], seg.lens[b]; la != lb {
				if la < lb {
					return -1
				}
				return 1
			}
			return int(a) - int(b)
		})
	}
	// The groups: each document's tf, found in the list.
	for i, d := range io.docs {
		j, _ := findPosting(l.docs, d)
		tf := l.tf(j)
		if n := len(io.groups); n == 0 || io.groups[n-1].tf != tf {
			io.groups = append(io.groups, impactGroup{tf: tf, start: uint32(i)})
		}
		io.groups[len(io.groups)-1].end = uint32(i) + 1
	}
	short := true
	for _, d := range io.docs {
		short = short && seg.lens[d] <= math.MaxUint16
	}
	if short {
		io.lens16 = make([]uint16, len(io.docs))
		for i, d := range io.docs {
			io.lens16[i] = uint16(seg.lens[d])
		}
	} else {
		io.lens32 = make([]uint32, len(io.docs))
		for i, d := range io.docs {
			io.lens32[i] = seg.lens[d]
		}
	}
	v, loaded := seg.impacts.LoadOrStore(id, io)
	if !loaded {
		seg.cacheBytes.Add(int64(impactSize(len(io.docs))))
	}
	return v.(*impactOrder)
}

// useImpact reports whether the impact path answers q, and which of the
// plan's terms is the long one.
func (s *Snapshot) useImpact(p *plan, q TopQuery) (li, others int, ok bool) {
	if q.Pruning == PruneNever || q.Limit <= 0 || len(q.Terms) > 64 || len(p.qt) == 0 {
		return 0, 0, false
	}
	li = -1
	for j, t := range p.qt {
		if len(t.list.docs) >= impactMin && (li < 0 || len(t.list.docs) > len(p.qt[li].list.docs)) {
			if li >= 0 {
				others += len(p.qt[li].list.docs)
			}
			li = j
			continue
		}
		others += len(t.list.docs)
	}
	if li < 0 || others*impactShare > len(p.qt[li].list.docs) || !s.base.impactReady(p.qt[li].id) {
		return 0, 0, false
	}
	return li, others, true
}

// impactFirst: with at most this many postings in the short lists (plus
// 4k), the impact path is taken without asking whether the pruned scorer
// would read less; above it, when pruning applies, it reads less (its
// walk skips the short lists too once their bounds fall below the
// threshold, where the impact path scores every one of their documents).
const impactFirst = 512

// impactTop is the exact top k when p.qt[li] is the one long list: every
// document of the other lists that can still enter is scored in full (its
// long-list weight found through the list's bitmap, or by a search of its
// blocks), then the documents of the long list alone come in descending
// weight from its impact order until the next cannot enter. Scores are
// summed in term order from 0, as the exhaustive scorer sums them.
func (s *Snapshot) impactTop(p *plan, li int, h *hitHeap, done <-chan struct{}) error {
	if canceled(done) {
		return ErrCanceled
	}
	s.overlayScores(p, func(ord uint32, score float64, mask uint64) { h.push(ord, score, mask) })
	// The documents of the short lists, each once, ascending: the
	// candidates scored in full, and the ones the long list's walk skips
	// (a sorted slice, not a mark per base document: it stays in cache).
	// With one short list (the common question: a rare word and a word
	// the analyzer keeps, "what") they are its documents as they are.
	sc := impactPool.Get().(*impactScratch)
	defer impactPool.Put(sc)
	var one *qterm // the one short list, if there is one
	if len(p.qt) == 2 {
		one = &p.qt[1-li]
	}
	var touched []uint32
	if one != nil {
		touched = one.list.docs // read only: it is the segment's
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
	L := &p.qt[li]
	io := s.base.impactOf(L.id)
	member := s.base.denseOf(L.id)
	lens := s.base.lens
	c0, c1 := p.c0, p.c1
	// The candidates' |D| first, in a loop of loads that do not depend
	// on one another, so that their cache misses overlap.
	n := len(touched)
	dls := zeroed(sc.dls, n)
	at := zeroed(sc.at, n) // 1 + position in the long list, then tf there; 0: absent
	part := zeroed(sc.part, n)
	sc.dls, sc.at, sc.part = dls[:0], at[:0], part[:0]
	for i, d := range touched {
		dls[i] = lens[d]
	}
	// Their scores without the long list (in doc order, so that every
	// short list is read forward once); dead documents get dead.
	if one != nil {
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
	if h.within != nil {
		// Outside the set, a candidate is as good as dead: it neither
		// enters nor sets the threshold of the partial scores.
		for c, d := range touched {
			if !h.within.has(d) {
				part[c] = dead
			}
		}
	}
	if one != nil && member != nil && n <= oneDenseMax {
		s.impactOneDense(touched, part, dls, at, one, L, member, p, h)
	} else {
		s.impactProbe(touched, part, dls, at, li, one, L, io, member, p, h, sc)
	}
	// The long list alone, best first.
	s.impactWalk(touched, L, io, p, h)
	return nil
}

// oneDenseMax is the most candidates impactOneDense takes: past it the
// threshold of impactProbe saves more cold reads (a candidate's tf in the
// long list) than it costs.
const oneDenseMax = 192

// impactOneDense scores the candidates of one short list against a dense
// long list: every candidate is probed and scored in full, in loops with
// no branch on whether it is in the long list (a coin toss to the branch
// predictor). The threshold impactProbe computes from the partial scores
// to skip probes costs, for a few candidates, about what the probes it
// skips do here, where a probe is two independent reads. at is zeroed
// room.
func (s *Snapshot) impactOneDense(touched []uint32, part []float64, dls, at []uint32, one, L *qterm, member *denseSet, p *plan, h *hitHeap) {
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
	c0, c1 := p.c0, p.c1
	bitS, bitL := uint64(1)<<one.ti, uint64(1)<<L.ti
	for c, d := range touched {
		tf := at[c]
		score := part[c] + weight(L.idf, float64(tf), c0, c1, dls[c]) // dead stays -Inf
		if score > 0 && (len(h.h) < h.k || score >= h.h[0].score) {
			h.push(d, score, bitS|bitL*uint64(min(tf, 1)))
		}
	}
}

// impactProbe scores the candidates in general: a threshold from their
// partial scores, then the probes of the survivors in the long list and
// their full scores, summed in term order. A full score is at least its
// partial one (rounding is monotone), so the k-th best partial score
// bounds the k-th best full one from below, and a candidate whose partial
// score plus the long list's highest weight stays under it cannot enter:
// its probe is skipped. one is the one short list, or nil when there are
// several. at is zeroed room.
func (s *Snapshot) impactProbe(touched []uint32, part []float64, dls, at []uint32, li int, one, L *qterm, io *impactOrder, member *denseSet, p *plan, h *hitHeap, sc *impactScratch) {
	c0, c1 := p.c0, p.c1
	ubL := 0.0
	for _, gr := range io.groups {
		ubL = max(ubL, weight(L.idf, float64(gr.tf), c0, c1, io.dl(gr.start)))
	}
	theta := max(h.threshold(), kthLargest(part, nil, h.k, &sc.kth)/margin)
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
	} else {
		pos := sc.pos(len(p.qt))
		for c, d := range touched {
			if v := part[c]; v < 0 || (v+ubL)*margin < theta {
				continue
			}
			score := 0.0
			var mask uint64
			dl := dls[c]
			for j := range p.qt {
				q := &p.qt[j]
				if j == li {
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
}

// impactWalk offers the documents of the long list alone, best first, from
// its impact order, until the next cannot enter; the candidates (touched)
// were scored in full already.
func (s *Snapshot) impactWalk(touched []uint32, L *qterm, io *impactOrder, p *plan, h *hitHeap) {
	c0, c1 := p.c0, p.c1
	bit := uint64(1) << L.ti
	type head struct {
		pos, end uint32
		tf       float64
		w        float64
	}
	heads := make([]head, len(io.groups))
	for g, gr := range io.groups {
		heads[g] = head{pos: gr.start, end: gr.end, tf: float64(gr.tf)}
		heads[g].w = weight(L.idf, heads[g].tf, c0, c1, io.dl(gr.start))
	}
	for {
		best := -1
		for g := range heads {
			if heads[g].pos < heads[g].end && (best < 0 || heads[g].w > heads[best].w) {
				best = g
			}
		}
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
		if _, short := slices.BinarySearch(touched, d); !short && !s.isDead(d) && h.admits(d) && !h.push(d, w, bit) {
			// d ties the k-th best (w is not below it) and ranks after
			// it: so do the rest of d's run, which weigh the same and
			// come after d in the result order.
			for hd.pos < hd.end && io.dl(hd.pos) == dl {
				hd.pos++
			}
		}
		if hd.pos < hd.end {
			hd.w = weight(L.idf, hd.tf, c0, c1, io.dl(hd.pos))
		}
	}
}

// dead is the partial score of a dead candidate: below 0, where every
// live one is, and no weight added brings it up.
var dead = math.Inf(-1)

// impactScratch is impactTop's room for its candidates: their documents,
// |D| and positions in the long list.
type impactScratch struct {
	docs, dls, at []uint32
	part, kth     []float64
	cursors       []int
}

// pos returns n cursors at 0.
func (sc *impactScratch) pos(n int) []int {
	sc.cursors = zeroed(sc.cursors, n)
	return sc.cursors
}

var impactPool = sync.Pool{New: func() any { return new(impactScratch) }}

// seek returns the position of the first posting of q's list at or after
// pos whose doc is at least d: by the block ends, then a binary search in
// the block.
func seek(q *qterm, pos int, d uint32) int {
	l := q.list.docs
	if pos >= len(l) || l[pos] >= d {
		return pos
	}
	if len(q.blocks) == 0 { // bounds not filled in: the plain search
		i, _ := findPosting(l[pos:], d)
		return pos + i
	}
	bi := pos / blockSize
	for bi < len(q.blocks) && q.blocks[bi].last < d {
		bi++
	}
	if bi == len(q.blocks) {
		return len(l)
	}
	lo := max(pos, bi*blockSize)
	hi := min((bi+1)*blockSize, len(l))
	i, _ := findPosting(l[lo:hi], d)
	return lo + i
}
