package index

import (
	"errors"
	"math"
	"slices"
	"sync"
)

// This file holds the query side of the snapshot: a per-query plan (idf,
// posting lists, what the overlay and the dead documents change), an
// exhaustive term-at-a-time scorer, and an exact pruned top-k scorer
// (MaxScore with block bounds) that gives the same answer as the
// exhaustive one, bit for bit, while skipping most postings of common
// terms.

// blockSize is the number of postings per block bound.
const blockSize = 64

// block bounds blockSize consecutive postings of one list: the largest
// term frequency and the shortest document among them. They do not
// depend on avgdl, so they are computed once at build time and bound the
// term's BM25 weight in any snapshot sharing the segment.
type block struct {
	last   uint32 // doc of the block's last posting
	maxTf  uint32
	minLen uint32
}

// termBound is the same bound over a whole list, and where its blocks are.
type termBound struct {
	maxTf, minLen uint32
	blk, nblk     uint32 // blocks[blk : blk+nblk]
}

// buildBounds stores the bounds of the lists longer than one block. A
// shorter list (most terms) gets its one block computed when a query uses
// it, which costs less than the list's own scoring and spares 16 bytes of
// heap per term.
func (seg *segment) buildBounds() {
	nb := 0
	for _, l := range seg.postings {
		if len(l) > blockSize {
			nb += (len(l) + blockSize - 1) / blockSize
			seg.longIDs = append(seg.longIDs, 0)
		}
	}
	seg.longIDs = seg.longIDs[:0]
	seg.blocks = make([]block, 0, nb)
	for id, l := range seg.postings {
		if len(l) <= blockSize {
			continue
		}
		tb := termBound{minLen: math.MaxUint32, blk: uint32(len(seg.blocks))}
		for start := 0; start < len(l); start += blockSize {
			b := seg.blockOf(l[start:min(start+blockSize, len(l))])
			tb.maxTf = max(tb.maxTf, b.maxTf)
			tb.minLen = min(tb.minLen, b.minLen)
			seg.blocks = append(seg.blocks, b)
		}
		tb.nblk = uint32(len(seg.blocks)) - tb.blk
		seg.longIDs = append(seg.longIDs, uint32(id))
		seg.bounds = append(seg.bounds, tb)
	}
}

// blockOf computes the bound of a run of postings.
func (seg *segment) blockOf(l []posting) block {
	b := block{last: l[len(l)-1].doc, minLen: math.MaxUint32}
	for _, p := range l {
		b.maxTf = max(b.maxTf, p.tf)
		b.minLen = min(b.minLen, seg.lens[p.doc])
	}
	return b
}

// termBounds returns the bound and the blocks of term id's list.
func (seg *segment) termBounds(id uint32) (termBound, []block) {
	l := seg.postings[id]
	if len(l) <= blockSize {
		b := seg.blockOf(l)
		return termBound{maxTf: b.maxTf, minLen: b.minLen, nblk: 1}, []block{b}
	}
	i, _ := slices.BinarySearch(seg.longIDs, id)
	tb := seg.bounds[i]
	return tb, seg.blocks[tb.blk : tb.blk+tb.nblk]
}

// weight is one term's BM25 contribution. Every scorer calls it, so they
// all round the same way.
func weight(idf, tf, c0, c1 float64, dl uint32) float64 {
	return idf * tf * (K1 + 1) / (tf + c0 + c1*float64(dl))
}

// ErrCanceled is returned by Snapshot.Top when TopQuery.Done closed before the
// search finished.
var ErrCanceled = errors.New("search canceled")

// TopQuery is a top-k search.
type TopQuery struct {
	// Terms are the distinct query terms (Snapshot.Terms).
	Terms []string
	// Limit is k; <= 0 means every document that matches.
	Limit int
	// Done, when it closes, stops the search (ErrCanceled) within a few
	// thousand postings. Typically ctx.Done().
	Done <-chan struct{}
	// Pruning chooses the scorer; the answer is the same either way.
	Pruning Pruning
}

// Pruning chooses between exhaustive scoring and the pruned top-k.
type Pruning int

const (
	// PruneAuto prunes when the query's lists promise to pay for it.
	PruneAuto Pruning = iota
	// PruneNever scores every posting (for tests and measurements).
	PruneNever
	// PruneAlways prunes whenever the query allows it (a limit, at most
	// 64 terms, two lists or more), for tests.
	PruneAlways
)

// checkEvery is how many postings or candidates the scorers handle
// between two looks at TopQuery.Done: a few microseconds of work.
const checkEvery = 1 << 12

func canceled(done <-chan struct{}) bool {
	if done == nil {
		return false
	}
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// qterm is one query term in a plan.
type qterm struct {
	ti     int // index in the query's terms
	idf    float64
	list   []posting // base postings
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

// plan is what every scorer needs for one query on one snapshot.
type plan struct {
	terms  []string
	c0, c1 float64
	qt     []qterm // terms with df > 0 that have base postings, in term order
	idf    []float64
	ov     []ovHit // sorted by doc, then ti
}

func (s *Snapshot) plan(terms []string) *plan {
	if len(terms) == 0 || s.n == 0 || s.totalLen == 0 {
		return nil
	}
	N := float64(s.n)
	avgdl := float64(s.totalLen) / N
	p := &plan{terms: terms, c0: K1 * (1 - B), c1: K1 * B / avgdl, idf: make([]float64, len(terms))}
	df := make([]int, len(terms))
	lists := make([][]posting, len(terms))
	ids := make([]uint32, len(terms))
	for ti, t := range terms {
		if id, ok := s.base.terms.id(t); ok {
			lists[ti] = s.base.postings[id]
			ids[ti] = id
			df[ti] = len(lists[ti])
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
		if len(lists[ti]) == 0 {
			continue
		}
		b, blocks := s.base.termBounds(ids[ti])
		p.qt = append(p.qt, qterm{
			ti: ti, idf: idf, list: lists[ti], bound: b, blocks: blocks,
			ub: weight(idf, float64(b.maxTf), p.c0, p.c1, b.minLen),
		})
	}
	return p
}

// subtractDead takes the dead base documents out of df.
func (s *Snapshot) subtractDead(lists [][]posting, ids []uint32, df []int) {
	for ti, l := range lists {
		if len(l) > 0 {
			df[ti] -= s.deadCount(ids[ti])
		}
	}
}

func findPosting(l []posting, doc uint32) (int, bool) {
	return slices.BinarySearchFunc(l, doc, func(p posting, d uint32) int {
		switch {
		case p.doc < d:
			return -1
		case p.doc > d:
			return 1
		}
		return 0
	})
}

// overlayHits finds the query terms in the overlay's live documents,
// sorted by document, then term.
func (s *Snapshot) overlayHits(terms []string, out []ovHit) []ovHit {
	if len(s.overlay) == 0 {
		return out
	}
	for ti, t := range terms {
		for _, p := range s.ovRange(termHash(t)) {
			if p.term == t && s.overlay[p.doc] != nil {
				out = append(out, ovHit{doc: int(p.doc), ti: ti, tf: p.tf})
			}
		}
	}
	slices.SortFunc(out, func(a, b ovHit) int {
		if a.doc != b.doc {
			return a.doc - b.doc
		}
		return a.ti - b.ti
	})
	return out
}

// overlayScores calls fn with each overlay document's score and matched
// mask, summing its terms' weights in term order like the other scorers.
func (s *Snapshot) overlayScores(p *plan, fn func(ord uint32, score float64, mask uint64)) {
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

// scratch is a dense score accumulator reused across queries.
type scratch struct {
	scores  []float64
	masks   []uint64
	touched []uint32
	kth     []float64
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// exhaustive scores every posting, term at a time, and offers every
// document with a score > 0 to h, or when h is nil calls fn for each (base
// documents first, in no particular order, then overlay documents).
func (s *Snapshot) exhaustive(p *plan, done <-chan struct{}, h *hitHeap, fn func(ord uint32, score float64, mask uint64)) error {
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	nb := len(s.base.docs)
	if cap(sc.scores) < nb {
		sc.scores = make([]float64, nb)
		sc.masks = make([]uint64, nb)
	}
	scores := sc.scores[:nb]
	masks := sc.masks[:nb]
	touched := sc.touched[:0]
	lens := s.base.lens
	c0, c1 := p.c0, p.c1
	var err error
	work := checkEvery // look at done before the first list
	for _, q := range p.qt {
		var bit uint64
		if q.ti < 64 {
			bit = 1 << q.ti
		}
		idf := q.idf
		if work += len(q.list); work >= checkEvery {
			work = 0
			if canceled(done) {
				err = ErrCanceled
				break
			}
		}
		if s.nDead == 0 {
			for _, po := range q.list {
				v := weight(idf, float64(po.tf), c0, c1, lens[po.doc])
				if scores[po.doc] == 0 {
					touched = append(touched, po.doc)
				}
				scores[po.doc] += v
				masks[po.doc] |= bit
			}
			continue
		}
		for _, po := range q.list {
			if s.isDead(po.doc) {
				continue
			}
			v := weight(idf, float64(po.tf), c0, c1, lens[po.doc])
			if scores[po.doc] == 0 {
				touched = append(touched, po.doc)
			}
			scores[po.doc] += v
			masks[po.doc] |= bit
		}
	}
	switch {
	case err != nil:
		for _, i := range touched {
			scores[i], masks[i] = 0, 0
		}
	case h != nil:
		// Into the heap without a call per document: most lose to the
		// worst kept on the score alone.
		for _, i := range touched {
			if v := scores[i]; v > 0 && (h.k <= 0 || len(h.h) < h.k || v >= h.h[0].score) {
				h.push(i, v, masks[i])
			}
			scores[i], masks[i] = 0, 0
		}
	default:
		for _, i := range touched {
			if v := scores[i]; v > 0 {
				fn(i, v, masks[i])
			}
			scores[i], masks[i] = 0, 0
		}
	}
	sc.touched = touched[:0]
	if err != nil {
		return err
	}
	if h != nil {
		fn = func(ord uint32, score float64, mask uint64) { h.push(ord, score, mask) }
	}
	s.overlayScores(p, fn)
	return nil
}

// pruneMin is the least number of postings, per result asked for, below
// which the exhaustive scorer is used without looking further.
const pruneMin = 16

// minPrunePostings: below this many postings the exhaustive scorer takes
// a few microseconds, less than the pruned scorer's set-up pays back
// (BenchmarkSearchPruning at 1k entries).
const minPrunePostings = 1 << 14

// pruneRatio: the pruned scorer runs only when the lists it must walk
// (the essential ones under the start threshold) hold at most 1/pruneRatio
// of the query's postings. A candidate costs the pruned scorer several
// times what a posting costs the exhaustive one (cursor minimum, probes
// into the other lists), so it pays only when it skips most postings
// (measured with BenchmarkSearchPruning and BenchmarkSharedSetsRetrieve
// in bench: at k = 100 over 5k documents, common words decide the tail of
// the top k and cannot be skipped).
const pruneRatio = 4

// byBound returns the plan's terms sorted by their bound, ascending.
func byBound(p *plan) []qterm {
	qs := slices.Clone(p.qt)
	slices.SortFunc(qs, func(a, b qterm) int {
		switch {
		case a.ub < b.ub:
			return -1
		case a.ub > b.ub:
			return 1
		}
		return a.ti - b.ti
	})
	return qs
}

// prefixBounds returns pre[j] = Σ ub of qs[0..j], widened by margin.
func prefixBounds(qs []qterm) []float64 {
	pre := make([]float64, len(qs))
	sum := 0.0
	for j, q := range qs {
		sum += q.ub
		pre[j] = sum * margin
	}
	return pre
}

// margin widens every bound compared with the threshold so that rounding
// (bounds and scores are summed in different orders) can never prune a
// document that would have made the top k.
const margin = 1 + 1e-9

// pruned is the exact MaxScore top-k: terms sorted by their bound; the
// lists whose bounds together cannot lift a document past the k-th best
// score so far (the threshold) are not walked, only probed for the
// candidates the other lists produce, and a candidate is dropped as soon
// as its score so far plus the bounds of the terms left (per block where
// the block is known) falls below the threshold. Documents are pushed to
// h with exactly the score the exhaustive scorer gives them.
func (s *Snapshot) pruned(p *plan, qs []qterm, theta0 float64, h *hitHeap, done <-chan struct{}) error {
	// Overlay documents first: they are few and may raise the threshold.
	s.overlayScores(p, func(ord uint32, score float64, mask uint64) { h.push(ord, score, mask) })
	m := len(qs)
	pre := prefixBounds(qs)
	pos := make([]int, m)
	var contrib [64]float64
	lens := s.base.lens
	c0, c1 := p.c0, p.c1
	dead := s.nDead > 0

	theta := max(h.threshold(), theta0)
	ess := 0 // qs[ess:] are walked; qs[:ess] only probed
	for ess < m && pre[ess] < theta {
		ess++
	}
	work := checkEvery - 1
	for ess < m {
		if work++; work >= checkEvery {
			work = 0
			if canceled(done) {
				return ErrCanceled
			}
		}
		// The next candidate: the smallest doc under the walked cursors.
		d := uint32(math.MaxUint32)
		for j := ess; j < m; j++ {
			if pos[j] < len(qs[j].list) && qs[j].list[pos[j]].doc < d {
				d = qs[j].list[pos[j]].doc
			}
		}
		if d == math.MaxUint32 {
			break
		}
		var mask uint64
		partial := 0.0
		for j := ess; j < m; j++ {
			q := &qs[j]
			if pos[j] < len(q.list) && q.list[pos[j]].doc == d {
				po := q.list[pos[j]]
				pos[j]++
				c := weight(q.idf, float64(po.tf), c0, c1, lens[d])
				contrib[q.ti] = c
				partial += c
				mask |= 1 << q.ti
			}
		}
		if dead && s.isDead(d) {
			clearContrib(&contrib, mask)
			continue
		}
		ok := true
		for j := ess - 1; j >= 0; j-- {
			if partial*margin+pre[j] < theta {
				ok = false
				break
			}
			q := &qs[j]
			// Find d's block; past the last block the list has no d.
			bi := pos[j] / blockSize
			for bi < len(q.blocks) && q.blocks[bi].last < d {
				bi++
			}
			if bi == len(q.blocks) {
				pos[j] = len(q.list)
				continue
			}
			b := q.blocks[bi]
			rest := 0.0
			if j > 0 {
				rest = pre[j-1]
			}
			if (partial+weight(q.idf, float64(b.maxTf), c0, c1, b.minLen))*margin+rest < theta {
				// The block cannot lift d far enough: skip its
				// postings up to d without reading them.
				pos[j] = max(pos[j], bi*blockSize)
				ok = false
				break
			}
			lo := max(pos[j], bi*blockSize)
			hi := min(bi*blockSize+blockSize, len(q.list))
			i, found := findPosting(q.list[lo:hi], d)
			pos[j] = lo + i
			if found {
				po := q.list[pos[j]]
				pos[j]++
				c := weight(q.idf, float64(po.tf), c0, c1, lens[d])
				contrib[q.ti] = c
				partial += c
				mask |= 1 << q.ti
			}
		}
		if ok {
			// Sum in term order, as the exhaustive scorer does.
			score := 0.0
			for mm := mask; mm != 0; mm &= mm - 1 {
				score += contrib[trailingZeros(mm)]
			}
			if score > 0 && h.push(d, score, mask) {
				if t := h.threshold(); t > theta {
					theta = t
					for ess < m && pre[ess] < theta {
						ess++
					}
				}
			}
		}
		clearContrib(&contrib, mask)
	}
	return nil
}

// startThreshold is a lower bound of the final k-th best score, found
// cheaply before the document-at-a-time walk starts: the k-th best partial
// score over the lists with the highest bounds (typically short: rare
// terms). Every document's full score is at least its partial score, so k
// documents reach the bound and nothing below it can make the top k.
// Without it the walk starts at threshold 0 and reads the long lists
// until k good documents turn up, most of the way through the index.
func (s *Snapshot) startThreshold(p *plan, qs []qterm, k int) float64 {
	total := 0
	for _, q := range qs {
		total += len(q.list)
	}
	budget := total / 8
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	nb := len(s.base.docs)
	if cap(sc.scores) < nb {
		sc.scores = make([]float64, nb)
		sc.masks = make([]uint64, nb)
	}
	scores := sc.scores[:nb]
	touched := sc.touched[:0]
	lens := s.base.lens
	used := 0
	for j := len(qs) - 1; j >= 0; j-- {
		q := &qs[j]
		if used += len(q.list); used > budget && j < len(qs)-1 {
			break
		}
		for _, po := range q.list {
			if s.nDead > 0 && s.isDead(po.doc) {
				continue
			}
			if scores[po.doc] == 0 {
				touched = append(touched, po.doc)
			}
			scores[po.doc] += weight(q.idf, float64(po.tf), p.c0, p.c1, lens[po.doc])
		}
	}
	theta := 0.0
	if len(touched) >= k {
		// The k-th largest partial score, by a min-heap of k.
		top := sc.kth[:0]
		for _, d := range touched {
			v := scores[d]
			if len(top) < k {
				top = append(top, v)
				for i := len(top) - 1; i > 0; {
					pi := (i - 1) / 2
					if top[pi] <= top[i] {
						break
					}
					top[i], top[pi] = top[pi], top[i]
					i = pi
				}
				continue
			}
			if v <= top[0] {
				continue
			}
			top[0] = v
			for i := 0; ; {
				l := 2*i + 1
				if l >= k {
					break
				}
				m := l
				if r := l + 1; r < k && top[r] < top[l] {
					m = r
				}
				if top[i] <= top[m] {
					break
				}
				top[i], top[m] = top[m], top[i]
				i = m
			}
		}
		theta = top[0] / margin / margin
		sc.kth = top[:0]
	}
	for _, d := range touched {
		scores[d] = 0
	}
	sc.touched = touched[:0]
	return theta
}

func clearContrib(c *[64]float64, mask uint64) {
	for ; mask != 0; mask &= mask - 1 {
		c[trailingZeros(mask)] = 0
	}
}

// Top returns the top q.Limit documents by BM25 score for the distinct
// query terms, best first; ties by category, then name, ascending. With
// q.Limit > 0 it prunes (exactly: the answer is the exhaustive one).
func (s *Snapshot) Top(q TopQuery) ([]Scored, error) {
	p := s.plan(q.Terms)
	if p == nil {
		return nil, nil
	}
	h := hitHeap{s: s, k: q.Limit}
	var err error
	if qs, theta0, ok := s.usePruning(p, q); ok {
		err = s.pruned(p, qs, theta0, &h, q.Done)
	} else {
		err = s.exhaustive(p, q.Done, &h, nil)
	}
	if err != nil {
		return nil, err
	}
	return h.sorted(), nil
}

// usePruning decides between the scorers. When it prunes it returns the
// terms by bound and the start threshold.
func (s *Snapshot) usePruning(p *plan, q TopQuery) ([]qterm, float64, bool) {
	if q.Pruning == PruneNever || q.Limit <= 0 || len(q.Terms) > 64 || len(p.qt) < 2 {
		return nil, 0, false
	}
	total := 0
	for _, t := range p.qt {
		total += len(t.list)
	}
	if (total < pruneMin*q.Limit || total < minPrunePostings) && q.Pruning != PruneAlways {
		return nil, 0, false
	}
	qs := byBound(p)
	theta := s.startThreshold(p, qs, q.Limit)
	pre := prefixBounds(qs)
	walked := total
	for j := 0; j < len(qs) && pre[j] < theta; j++ {
		walked -= len(qs[j].list)
	}
	if walked*pruneRatio > total && q.Pruning != PruneAlways {
		return nil, 0, false
	}
	return qs, theta, true
}

// cand is a scored document in the top-k heap: no pointers, so the heap
// costs the garbage collector nothing.
type cand struct {
	score float64
	mask  uint64
	ord   uint32
}

// hitHeap keeps the best k candidates under the result order (Less).
type hitHeap struct {
	s *Snapshot
	k int
	h []cand // min-heap: h[0] is the worst kept
}

// better reports whether a ranks before b: higher score, then category,
// then name.
func (hh *hitHeap) better(a, b cand) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	da, db := hh.s.Doc(int(a.ord)), hh.s.Doc(int(b.ord))
	if da.Category != db.Category {
		return da.Category < db.Category
	}
	return da.Name < db.Name
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
	x := cand{score: score, mask: mask, ord: ord}
	if hh.k <= 0 {
		hh.h = append(hh.h, x)
		return true
	}
	if len(hh.h) < hh.k {
		hh.h = append(hh.h, x)
		// up
		i := len(hh.h) - 1
		for i > 0 {
			p := (i - 1) / 2
			if !hh.better(hh.h[p], hh.h[i]) {
				break
			}
			hh.h[i], hh.h[p] = hh.h[p], hh.h[i]
			i = p
		}
		return true
	}
	if score < hh.h[0].score || !hh.better(x, hh.h[0]) {
		return false
	}
	hh.h[0] = x
	// down
	n := len(hh.h)
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && hh.better(hh.h[l], hh.h[r]) {
			m = r
		}
		if !hh.better(hh.h[i], hh.h[m]) {
			break
		}
		hh.h[i], hh.h[m] = hh.h[m], hh.h[i]
		i = m
	}
	return true
}

func (hh *hitHeap) sorted() []Scored {
	slices.SortFunc(hh.h, func(a, b cand) int {
		switch {
		case hh.better(a, b):
			return -1
		case hh.better(b, a):
			return 1
		}
		return 0
	})
	out := make([]Scored, len(hh.h))
	for i, c := range hh.h {
		out[i] = Scored{Doc: hh.s.Doc(int(c.ord)), Score: c.score, Matched: c.mask}
	}
	return out
}
