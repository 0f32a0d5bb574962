package index

import (
	"math"
	"slices"
)

// The pruned scorer: the exact MaxScore top k with block bounds. Terms
// are sorted by their bound; the lists whose bounds together cannot lift
// a document past the k-th best score so far (the threshold) are not
// walked, only probed for the candidates the other lists produce, and a
// candidate is dropped as soon as its score so far plus the bounds of the
// terms left (per block where the block is known) falls below the
// threshold. Documents are pushed to the heap with exactly the score the
// exhaustive scorer gives them.

// margin widens every bound compared with the threshold so that rounding
// (bounds and scores are summed in different orders) can never prune a
// document that would have made the top k.
const margin = 1 + 1e-9

// maxScore is the state of one pruned walk.
type maxScore struct {
	*plan
	qs    []qterm   // the plan's terms by bound, ascending
	pre   []float64 // pre[j]: Σ ub of qs[:j+1], widened by margin
	theta float64   // the threshold: a lower bound of the k-th best score
	ess   int       // qs[ess:] are walked; qs[:ess] only probed
	// The walked lists' cursors, and each one's current block (by block
	// index) with its bound.
	pos    []int
	curBlk []int
	curUB  []float64
}

// newMaxScore sets up the pruned walk of p: the terms' bounds, their
// order, and the start threshold of a top k, which decides the lists
// walked.
func newMaxScore(p *plan, k int) maxScore {
	p.withBounds()
	w := maxScore{plan: p, qs: byBound(p)}
	w.pre = prefixBounds(w.qs)
	if p.h.within == nil && !w.impactStart(k) {
		// The start threshold is read off the whole index; inside a
		// set (TopQuery.Within) the k-th best may score less.
		w.raise(w.startThreshold(k))
	}
	return w
}

// raise lifts the threshold to theta if it is higher, and with it the
// lists that are only probed.
func (w *maxScore) raise(theta float64) {
	if theta <= w.theta {
		return
	}
	w.theta = theta
	for w.ess < len(w.qs) && w.pre[w.ess] < theta {
		w.ess++
	}
}

// rest is the bound of the lists only probed.
func (w *maxScore) rest() float64 {
	if w.ess == 0 {
		return 0
	}
	return w.pre[w.ess-1]
}

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

// estimate is about how many postings of the walked lists the walk
// reads: those of the blocks whose bound, with the full bounds of the
// other lists, reaches the threshold (an over-estimate: the threshold
// only rises during the walk).
func (w *maxScore) estimate() int {
	if li, ok := w.impactWalk(); ok {
		return w.impactEstimate(li)
	}
	rest := w.rest()
	sumUB := 0.0
	for _, q := range w.qs[w.ess:] {
		sumUB += q.ub
	}
	walked := 0
	for _, q := range w.qs[w.ess:] {
		others := (sumUB-q.ub)*margin + rest
		for bi, b := range q.blocks {
			if w.weight(q.idf, float64(b.maxTf), b.minLen)*margin+others >= w.theta {
				walked += min(blockSize, len(q.list.docs)-bi*blockSize)
			}
		}
	}
	return walked
}

// run walks the lists document at a time and pushes to the heap every
// document that can still enter.
func (w *maxScore) run() error {
	// Overlay documents first: they are few and may raise the threshold.
	w.overlayToHeap()
	h := &w.h
	qs, pre := w.qs, w.pre
	m := len(qs)
	w.pos = make([]int, m)
	pos := w.pos
	var contrib [64]float64
	lens := w.s.base.lens
	c0, c1 := w.c0, w.c1
	dead := w.s.nDead > 0
	w.raise(h.threshold())
	if li, ok := w.impactWalk(); ok {
		return w.runImpact(li)
	}
	// A dense list, once only probed, is probed through its bitmap
	// (dense.go): its block bounds would cost a search of the blocks and
	// a binary search in one, a chain of cache misses, per candidate.
	members := make([]*denseSet, m)
	for j := range qs {
		members[j] = w.s.base.denseOf(qs[j].id)
	}
	w.curBlk = make([]int, m)
	w.curUB = make([]float64, m)
	for j := range w.curBlk {
		w.curBlk[j] = -1
	}
	work := checkEvery - 1
	for w.ess < m {
		if work++; work >= checkEvery {
			work = 0
			if canceled(w.done) {
				return ErrCanceled
			}
		}
		// Block skip: every doc up to the first end of the walked lists'
		// current blocks scores at most the sum of those blocks' bounds
		// plus the bounds of the probed lists. Below the threshold, none
		// of them can enter: move every walked cursor past them.
		if w.blockSkip() {
			continue
		}
		ess, theta := w.ess, w.theta
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
		if dead && w.s.isDead(d) {
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
				w.raise(h.threshold())
			}
		}
		clearContrib(&contrib, mask)
	}
	return nil
}

// blockSkip moves the walked cursors past a run of documents none of
// which can reach the threshold, judged by the bounds of the blocks the
// cursors are in, and reports whether it did.
func (w *maxScore) blockSkip() bool {
	qs, pos, curBlk, curUB := w.qs, w.pos, w.curBlk, w.curUB
	sum := 0.0
	end := uint32(math.MaxUint32)
	live := 0
	for j := w.ess; j < len(qs); j++ {
		q := &qs[j]
		if pos[j] >= len(q.list.docs) {
			continue
		}
		live++
		bi := pos[j] / blockSize
		if curBlk[j] != bi {
			b := q.blocks[bi]
			curBlk[j] = bi
			curUB[j] = weight(q.idf, float64(b.maxTf), w.c0, w.c1, b.minLen)
		}
		sum += curUB[j]
		end = min(end, q.blocks[bi].last)
	}
	if live == 0 {
		return false
	}
	if sum*margin+w.rest() >= w.theta {
		return false
	}
	for j := w.ess; j < len(qs); j++ {
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
func (w *maxScore) startThreshold(k int) float64 {
	qs, s := w.qs, w.s
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
			scores[d] += weight(q.idf, float64(l.tf(i)), w.c0, w.c1, lens[d])
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
		for _, bi := range w.bestBlocks(q, nbest, best[:0]) {
			add(q, q.list.sub(bi*blockSize, min((bi+1)*blockSize, len(q.list.docs))))
		}
	}
	theta := 0.0
	if len(touched) >= k {
		// The k-th largest partial score.
		theta = s.kthLargest(scores, touched, k, &sc.kth) / margin / margin
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
func (w *maxScore) bestBlocks(q *qterm, n int, out []int) []int {
	var ub [64]float64
	for bi, b := range q.blocks {
		v := w.weight(q.idf, float64(b.maxTf), b.minLen)
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

func clearContrib(c *[64]float64, mask uint64) {
	for ; mask != 0; mask &= mask - 1 {
		c[trailingZeros(mask)] = 0
	}
}
