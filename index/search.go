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
	for id := range seg.nTerms() {
		if n := seg.listLen(uint32(id)); n > blockSize {
			nb += (n + blockSize - 1) / blockSize
			seg.longIDs = append(seg.longIDs, 0)
		}
	}
	seg.longIDs = seg.longIDs[:0]
	seg.blocks = make([]block, 0, nb)
	for id := range seg.nTerms() {
		if seg.listLen(uint32(id)) <= blockSize {
			continue
		}
		l := seg.list(uint32(id))
		n := len(l.docs)
		tb := termBound{minLen: math.MaxUint32, blk: uint32(len(seg.blocks))}
		for start := 0; start < n; start += blockSize {
			b := seg.blockOf(l.sub(start, min(start+blockSize, n)))
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
func (seg *segment) blockOf(l plist) block {
	b := block{last: l.docs[len(l.docs)-1], minLen: math.MaxUint32}
	for i, d := range l.docs {
		b.maxTf = max(b.maxTf, l.tf(i))
		b.minLen = min(b.minLen, seg.lens[d])
	}
	return b
}

// termBounds returns the bound and the blocks of term id's list.
func (seg *segment) termBounds(id uint32) (termBound, []block) {
	l := seg.list(id)
	if len(l.docs) <= blockSize {
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
	// Within, when not nil, admits only its documents (a Set of this
	// snapshot, such as Snapshot.In builds for a time range): the top
	// Limit are the best inside it, never a filtered top list. A narrow
	// set is scored document by document instead of list by list.
	Within *Set
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

// plan is what every scorer needs for one query on one snapshot.
type plan struct {
	terms  []string
	c0, c1 float64
	qt     []qterm // terms with df > 0 that have base postings, in term order
	idf    []float64
	ov     []ovHit // sorted by doc, then ti
	// bounded: the terms' bounds are filled in (withBounds).
	bounded bool
}

func (s *Snapshot) plan(terms []string) *plan {
	return s.planIn(new(topScratch), terms)
}

// topScratch is the room of one Top call: its plan and heap, pooled so
// that a query allocates only its answer.
type topScratch struct {
	p     plan
	df    []int
	lists []plist
	ids   []uint32
	cands []cand
}

var topPool = sync.Pool{New: func() any { return new(topScratch) }}

// release drops what ts points into (the terms, the segment's lists) and
// puts it back in the pool.
func (ts *topScratch) release() {
	clear(ts.lists)
	clear(ts.p.qt)
	ts.p = plan{idf: ts.p.idf, qt: ts.p.qt[:0], ov: ts.p.ov[:0]}
	topPool.Put(ts)
}

// planIn is plan with its room in ts.
func (s *Snapshot) planIn(ts *topScratch, terms []string) *plan {
	if len(terms) == 0 || s.n == 0 || s.totalLen == 0 {
		return nil
	}
	N := float64(s.n)
	avgdl := float64(s.totalLen) / N
	n := len(terms)
	p := &ts.p
	*p = plan{terms: terms, c0: K1 * (1 - B), c1: K1 * B / avgdl,
		idf: zeroed(ts.p.idf, n), qt: ts.p.qt[:0], ov: ts.p.ov[:0]}
	ts.df = zeroed(ts.df, n)
	ts.lists = zeroed(ts.lists, n)
	ts.ids = zeroed(ts.ids, n)
	df, lists, ids := ts.df, ts.lists, ts.ids
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
func (s *Snapshot) withBounds(p *plan) {
	if p.bounded {
		return
	}
	p.bounded = true
	for j := range p.qt {
		q := &p.qt[j]
		q.bound, q.blocks = s.base.termBounds(q.id)
		q.ub = weight(q.idf, float64(q.bound.maxTf), p.c0, p.c1, q.bound.minLen)
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

// findPosting returns the position of the first doc of docs (ascending)
// that is at least doc, and whether it is doc.
func findPosting(docs []uint32, doc uint32) (int, bool) {
	lo, hi := 0, len(docs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if docs[m] < doc {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(docs) && docs[lo] == doc
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
	ovc     []cand    // the overlay's candidates
	hist    histogram // of the exhaustive top k's scores
	ends    []uint32  // the histogram's runs
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

// exhaustive scores every posting, term at a time, and offers every
// document with a score > 0 to h, or when h is nil calls fn for each (base
// documents first, in no particular order, then overlay documents).
func (s *Snapshot) exhaustive(p *plan, done <-chan struct{}, h *hitHeap, fn func(ord uint32, score float64, mask uint64)) error {
	sc, nb := s.scratch()
	defer scratchPool.Put(sc)
	scores := sc.scores[:nb]
	masks := sc.masks[:nb]
	touched := sc.touched[:0]
	lens := s.base.lens
	c0, c1 := p.c0, p.c1
	var err error
	// top is the highest score: scores only grow, so it is the highest
	// sum any document reached (dead ones included, an upper bound).
	top := 0.0
	work := checkEvery // look at done before the first list
	for _, q := range p.qt {
		var bit uint64
		if q.ti < 64 {
			bit = 1 << q.ti
		}
		idf := q.idf
		if work += len(q.list.docs); work >= checkEvery {
			work = 0
			if canceled(done) {
				err = ErrCanceled
				break
			}
		}
		docs, tfs := q.list.docs, q.list.tfs
		tfs = tfs[:len(docs)]
		// Runs of plain tfs, each followed by at most one escaped. Dead
		// documents are scored too and dropped below: a test per touched
		// document, not one per posting.
		for lo := 0; lo < len(docs); {
			hi := q.list.plainEnd(lo)
			touched, top = accumulate(docs[lo:hi], tfs[lo:hi], idf, c0, c1, lens, scores, masks, bit, touched, top)
			if hi < len(docs) {
				d := docs[hi]
				v := weight(idf, float64(q.list.bigAt(hi)), c0, c1, lens[d])
				if scores[d] == 0 {
					touched = append(touched, d)
				}
				scores[d] += v
				top = max(top, scores[d])
				masks[d] |= bit
				hi++
			}
			lo = hi
		}
	}
	if s.nDead > 0 {
		// top may be a dead document's score: take it over the live ones,
		// or a dead high scorer would crowd the live into low buckets.
		n := 0
		top = 0
		for _, d := range touched {
			if s.isDead(d) {
				scores[d], masks[d] = 0, 0
				continue
			}
			if v := scores[d]; v > top { // not max: see accumulate
				top = v
			}
			touched[n] = d
			n++
		}
		touched = touched[:n]
	}
	sc.touched = touched[:0] // the buffer, for the next query
	// The overlay's documents join the base's as candidates of the top k.
	ovc := sc.ovc[:0]
	if err == nil && h != nil && len(p.ov) > 0 {
		s.overlayScores(p, func(ord uint32, score float64, mask uint64) {
			ovc = append(ovc, cand{score: score, mask: mask, ord: ord})
		})
	}
	sc.ovc = ovc[:0]
	if err == nil && h != nil && h.within != nil {
		// Only the set's documents are candidates (the histogram below
		// must count only them).
		touched, ovc = keepWithin(h.within, touched, ovc, scores, masks)
	}
	switch {
	case err != nil:
		for _, i := range touched {
			scores[i], masks[i] = 0, 0
		}
	case h != nil && h.k > 0 && len(touched)+len(ovc) > 2*h.k:
		// Without a heap: keep the documents (the overlay's included)
		// whose score falls in the histogram buckets that hold the k best
		// (bucketing is monotone in the score, so a document left out has
		// k documents scoring strictly more), placed bucket by bucket and
		// sorted within each; appendSorted keeps k.
		hi := top
		for _, c := range ovc {
			hi = max(hi, c.score)
		}
		scale := float64(histBuckets-1) / hi
		hist := &sc.hist
		for _, i := range touched {
			hist.add(int(scores[i] * scale))
		}
		for _, c := range ovc {
			hist.add(int(c.score * scale))
		}
		b, n := hist.cut(h.k)
		// Each kept document goes straight to its bucket's place, best
		// bucket first (a counting sort): only documents sharing a
		// bucket are left to order.
		hist.place()
		h.h = slices.Grow(h.h[:0], n)[:n]
		for _, i := range touched {
			if bk := int(scores[i] * scale); bk >= b {
				h.h[hist.slot(bk)] = cand{score: scores[i], mask: masks[i], ord: i}
			}
			scores[i], masks[i] = 0, 0
		}
		for _, c := range ovc {
			if bk := int(c.score * scale); bk >= b {
				h.h[hist.slot(bk)] = c
			}
		}
		ends := hist.runs(sc.ends[:0])
		sc.ends = ends[:0]
		start := uint32(0)
		for _, end := range ends {
			if end-start > 1 {
				h.sortCands(h.h[start:end])
			}
			start = end
		}
		h.sorted = true
		hist.reset()
		return nil
	case h != nil:
		// Into the heap without a call per document: most lose to the
		// worst kept on the score alone.
		for _, i := range touched {
			if v := scores[i]; v > 0 && (h.k <= 0 || len(h.h) < h.k || v >= h.h[0].score) {
				h.push(i, v, masks[i])
			}
			scores[i], masks[i] = 0, 0
		}
		for _, c := range ovc {
			h.push(c.ord, c.score, c.mask)
		}
		return nil
	default:
		for _, i := range touched {
			if v := scores[i]; v > 0 {
				fn(i, v, masks[i])
			}
			scores[i], masks[i] = 0, 0
		}
	}
	if err != nil {
		return err
	}
	s.overlayScores(p, fn)
	return nil
}

// accumulate adds the weights of the postings docs, tfs (plain tfs, no
// tfEscape) to scores, sets bit in masks and appends the documents it
// touches first to touched; it returns touched and the highest of hi and
// the sums it wrote. touched grows before the loop, so that the loop
// makes no call and the compiler keeps its values in registers.
func accumulate(docs []uint32, tfs []uint8, idf, c0, c1 float64, lens []uint32, scores []float64, masks []uint64, bit uint64, touched []uint32, hi float64) ([]uint32, float64) {
	tfs = tfs[:len(docs)]
	masks, lens = masks[:len(scores)], lens[:len(scores)] // one length to check
	n := len(touched)
	touched = slices.Grow(touched, len(docs))
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
		if v > hi { // rarely true: a predicted branch, not a dependency chain
			hi = v
		}
		masks[d] |= bit
	}
	return out[:n], hi
}

// oneList is the exhaustive top k of a query with one base list: a
// document's score is its one weight (0 + w, as the exhaustive scorer sums
// it), so no accumulator is needed.
func (s *Snapshot) oneList(p *plan, done <-chan struct{}, h *hitHeap) error {
	if canceled(done) {
		return ErrCanceled
	}
	s.overlayScores(p, func(ord uint32, score float64, mask uint64) { h.push(ord, score, mask) })
	q := &p.qt[0]
	bit := uint64(1) << q.ti
	lens := s.base.lens
	for n, d := range q.list.docs {
		if n&(checkEvery-1) == checkEvery-1 && canceled(done) {
			return ErrCanceled
		}
		if s.isDead(d) {
			continue
		}
		v := weight(q.idf, float64(q.list.tf(n)), p.c0, p.c1, lens[d])
		if len(h.h) < h.k || v >= h.h[0].score {
			h.push(d, v, bit)
		}
	}
	return nil
}

// pruneMin is the least number of postings, per result asked for, below
// which the exhaustive scorer is used without looking further.
const pruneMin = 16

// minPrunePostings: below this many postings the exhaustive scorer takes
// a few microseconds, less than the pruned scorer's set-up pays back
// (BenchmarkSearchPruning at 1k entries).
const minPrunePostings = 1 << 11

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
	// A dense list, once only probed, is probed through its bitmap
	// (dense.go): its block bounds would cost a search of the blocks and
	// a binary search in one, a chain of cache misses, per candidate.
	members := make([]*denseSet, m)
	for j := range qs {
		members[j] = s.base.denseOf(qs[j].id)
	}
	// The bound of each walked list's current block, by block index.
	curBlk := make([]int, m)
	curUB := make([]float64, m)
	for j := range curBlk {
		curBlk[j] = -1
	}
	work := checkEvery - 1
	for ess < m {
		if work++; work >= checkEvery {
			work = 0
			if canceled(done) {
				return ErrCanceled
			}
		}
		// Block skip: every doc up to the first end of the walked lists'
		// current blocks scores at most the sum of those blocks' bounds
		// plus the bounds of the probed lists. Below the threshold, none
		// of them can enter: move every walked cursor past them.
		if s.blockSkip(qs, ess, pos, curBlk, curUB, pre, theta, c0, c1) {
			continue
		}
		// The next candidate: the smallest doc under the walked cursors.
		d := uint32(math.MaxUint32)
		for j := ess; j < m; j++ {
			if docs := qs[j].list.docs; pos[j] < len(docs) && docs[pos[j]] < d {
				d = docs[pos[j]]
			}
		}
		if d == math.MaxUint32 {
			break
		}
		var mask uint64
		partial := 0.0
		for j := ess; j < m; j++ {
			q := &qs[j]
			if pos[j] < len(q.list.docs) && q.list.docs[pos[j]] == d {
				tf := q.list.tf(pos[j])
				pos[j]++
				c := weight(q.idf, float64(tf), c0, c1, lens[d])
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
			if ds := members[j]; ds != nil {
				if i, found := ds.find(d); found {
					c := weight(q.idf, float64(q.list.tf(i)), c0, c1, lens[d])
					contrib[q.ti] = c
					partial += c
					mask |= 1 << q.ti
				}
				continue
			}
			// Find d's block; past the last block the list has no d.
			bi := pos[j] / blockSize
			for bi < len(q.blocks) && q.blocks[bi].last < d {
				bi++
			}
			if bi == len(q.blocks) {
				pos[j] = len(q.list.docs)
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
			hi := min(bi*blockSize+blockSize, len(q.list.docs))
			i, found := findPosting(q.list.docs[lo:hi], d)
			pos[j] = lo + i
			if found {
				tf := q.list.tf(pos[j])
				pos[j]++
				c := weight(q.idf, float64(tf), c0, c1, lens[d])
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

// blockSkip moves the walked cursors (qs[ess:]) past a run of documents
// none of which can reach theta, judged by the bounds of the blocks the
// cursors are in, and reports whether it did. curBlk and curUB cache each
// list's current block and its bound.
func (s *Snapshot) blockSkip(qs []qterm, ess int, pos, curBlk []int, curUB, pre []float64, theta, c0, c1 float64) bool {
	sum := 0.0
	end := uint32(math.MaxUint32)
	live := 0
	for j := ess; j < len(qs); j++ {
		q := &qs[j]
		if pos[j] >= len(q.list.docs) {
			continue
		}
		live++
		bi := pos[j] / blockSize
		if curBlk[j] != bi {
			b := q.blocks[bi]
			curBlk[j] = bi
			curUB[j] = weight(q.idf, float64(b.maxTf), c0, c1, b.minLen)
		}
		sum += curUB[j]
		end = min(end, q.blocks[bi].last)
	}
	if live == 0 {
		return false
	}
	rest := 0.0
	if ess > 0 {
		rest = pre[ess-1]
	}
	if sum*margin+rest >= theta {
		return false
	}
	for j := ess; j < len(qs); j++ {
		q := &qs[j]
		if pos[j] >= len(q.list.docs) {
			continue
		}
		bi := pos[j] / blockSize
		if q.blocks[bi].last == end {
			pos[j] = min((bi+1)*blockSize, len(q.list.docs))
			continue
		}
		// end lies inside this block: find the first posting past it.
		hi := min((bi+1)*blockSize, len(q.list.docs))
		i, found := findPosting(q.list.docs[pos[j]:hi], end)
		pos[j] += i
		if found {
			pos[j]++
		}
	}
	return true
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
		total += len(q.list.docs)
	}
	budget := total / 8
	sc, nb := s.scratch()
	defer scratchPool.Put(sc)
	scores := sc.scores[:nb]
	touched := sc.touched[:0]
	lens := s.base.lens
	add := func(q *qterm, l plist) {
		for i, d := range l.docs {
			if s.nDead > 0 && s.isDead(d) {
				continue
			}
			if scores[d] == 0 {
				touched = append(touched, d)
			}
			scores[d] += weight(q.idf, float64(l.tf(i)), p.c0, p.c1, lens[d])
		}
	}
	used := 0
	j := len(qs) - 1
	for ; j >= 0; j-- {
		q := &qs[j]
		if used += len(q.list.docs); used > budget && (j < len(qs)-1 || len(q.list.docs) > startSample*blockSize) {
			break
		}
		add(q, q.list)
	}
	// When the short lists hold fewer than k documents, the lists too
	// long to score whole give their blocks of the highest bound, where
	// the best documents of the term are.
	nbest := min(max(startSample, k/8), 64)
	var best [64]int
	for ; j >= 0 && len(touched) < k; j-- {
		q := &qs[j]
		if len(q.blocks) <= nbest {
			add(q, q.list)
			continue
		}
		top := bestBlocks(q, nbest, p.c0, p.c1, best[:0])
		for _, bi := range top {
			add(q, q.list.sub(bi*blockSize, min((bi+1)*blockSize, len(q.list.docs))))
		}
	}
	theta := 0.0
	if len(touched) >= k {
		// The k-th largest partial score.
		theta = kthLargest(scores, touched, k, &sc.kth) / margin / margin
	}
	for _, d := range touched {
		scores[d] = 0
	}
	sc.touched = touched[:0]
	return theta
}

// startSample is how many blocks of a long list the start threshold
// scores (at least; k/8 for a larger k).
const startSample = 4

// bestBlocks appends to out the indexes of the n blocks of q with the
// highest bounds.
func bestBlocks(q *qterm, n int, c0, c1 float64, out []int) []int {
	var ub [64]float64
	for bi, b := range q.blocks {
		v := weight(q.idf, float64(b.maxTf), c0, c1, b.minLen)
		if len(out) < n {
			out = append(out, bi)
			ub[len(out)-1] = v
			continue
		}
		// Replace the lowest kept (n is small: a linear scan).
		lo := 0
		for i := 1; i < n; i++ {
			if ub[i] < ub[lo] {
				lo = i
			}
		}
		if v > ub[lo] {
			out[lo], ub[lo] = bi, v
		}
	}
	return out
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

func clearContrib(c *[64]float64, mask uint64) {
	for ; mask != 0; mask &= mask - 1 {
		c[trailingZeros(mask)] = 0
	}
}

// Top returns the top q.Limit documents by BM25 score for the distinct
// query terms, best first; ties by category, then name, ascending. With
// q.Limit > 0 it prunes (exactly: the answer is the exhaustive one).
func (s *Snapshot) Top(q TopQuery) ([]Scored, error) {
	return s.AppendTop(nil, q)
}

// AppendTop is Top appending the answer to dst (on an error, dst as
// given): a caller that keeps dst between queries ranks without an
// allocation.
func (s *Snapshot) AppendTop(dst []Scored, q TopQuery) ([]Scored, error) {
	ts := topPool.Get().(*topScratch)
	defer ts.release()
	p := s.planIn(ts, q.Terms)
	if p == nil {
		return dst, nil
	}
	if q.Within != nil && q.Within.all {
		q.Within = nil // it admits every document
	}
	h := hitHeap{s: s, k: q.Limit, h: ts.cands[:0], within: q.Within}
	if q.Limit > 0 {
		h.h = slices.Grow(h.h, min(q.Limit, s.Len()))
	}
	var err error
	li, others, impact := s.useImpact(p, q)
	if q.Within != nil && (q.Within.Len() == 0 || s.scoreEachPays(p, q.Within)) {
		err = s.scoreEach(p, q.Within, &h, q.Done)
	} else if impact && others <= impactFirst+4*q.Limit {
		err = s.impactTop(p, li, &h, q.Done)
	} else if qs, theta0, ok := s.usePruning(p, q); ok {
		err = s.pruned(p, qs, theta0, &h, q.Done)
	} else if impact {
		err = s.impactTop(p, li, &h, q.Done)
	} else if len(p.qt) == 1 && q.Limit > 0 && q.Pruning != PruneNever {
		err = s.oneList(p, q.Done, &h)
	} else {
		err = s.exhaustive(p, q.Done, &h, nil)
	}
	if err != nil {
		ts.cands = h.h[:0]
		return dst, err
	}
	dst = h.appendSorted(dst)
	ts.cands = h.h[:0]
	return dst, nil
}

// usePruning decides between the scorers. When it prunes it returns the
// terms by bound and the start threshold.
func (s *Snapshot) usePruning(p *plan, q TopQuery) ([]qterm, float64, bool) {
	if q.Pruning == PruneNever || q.Limit <= 0 || len(q.Terms) > 64 || len(p.qt) == 0 {
		return nil, 0, false
	}
	total := 0
	for _, t := range p.qt {
		total += len(t.list.docs)
	}
	if (total < pruneMin*q.Limit || total < minPrunePostings) && q.Pruning != PruneAlways {
		return nil, 0, false
	}
	s.withBounds(p)
	qs := byBound(p)
	theta := 0.0
	if q.Within == nil {
		// The start threshold is read off the whole index; inside a set
		// the k-th best may score less.
		theta = s.startThreshold(p, qs, q.Limit)
	}
	pre := prefixBounds(qs)
	ess := 0
	for ess < len(qs) && pre[ess] < theta {
		ess++
	}
	if walked := walkEstimate(qs, ess, pre, theta, p.c0, p.c1); walked*pruneRatio > total && q.Pruning != PruneAlways {
		return nil, 0, false
	}
	return qs, theta, true
}

// walkEstimate is about how many postings of the walked lists (qs[ess:])
// the pruned scorer reads: those of the blocks whose bound, with the full
// bounds of the other lists, reaches theta (an over-estimate: the
// threshold only rises during the walk).
func walkEstimate(qs []qterm, ess int, pre []float64, theta, c0, c1 float64) int {
	rest := 0.0
	if ess > 0 {
		rest = pre[ess-1]
	}
	sumUB := 0.0
	for _, q := range qs[ess:] {
		sumUB += q.ub
	}
	walked := 0
	for _, q := range qs[ess:] {
		others := (sumUB-q.ub)*margin + rest
		for bi, b := range q.blocks {
			if weight(q.idf, float64(b.maxTf), c0, c1, b.minLen)*margin+others >= theta {
				walked += min(blockSize, len(q.list.docs)-bi*blockSize)
			}
		}
	}
	return walked
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
	h []cand // min-heap: h[0] is the worst kept; unless sorted
	// sorted: h is already best first (the exhaustive scorer's
	// histogram put it in order) and no longer a heap: only
	// appendSorted may read it then, threshold and push may not.
	sorted bool
	// within, when not nil, admits only its documents (TopQuery.Within).
	within *Set
}

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

// admits reports whether the heap takes ord at all (TopQuery.Within).
func (hh *hitHeap) admits(ord uint32) bool { return hh.within == nil || hh.within.has(ord) }

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

// appendSorted appends the kept documents to dst, best first.
func (hh *hitHeap) appendSorted(dst []Scored) []Scored {
	if !hh.sorted {
		hh.sortCands(hh.h)
	}
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

// sortCands sorts a best first: a quicksort with the score comparison
// inline (the generic sort's call per comparison cost as much as the
// search on small top-k queries).
func (hh *hitHeap) sortCands(a []cand) {
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
			hh.sortCands(a[:i])
			a = a[i+1:]
		} else {
			hh.sortCands(a[i+1:])
			a = a[:i]
		}
	}
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && hh.better(a[j], a[j-1]); j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
