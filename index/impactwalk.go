package index

import "slices"

// The pruned walk's impact path: when the start threshold leaves one list
// walked (every other list's bound together stays under it, so that only
// documents of that list can enter) and the list has an impact order, the
// list is read in that order, best weight first, each document probed in
// the other lists and scored in full, until the next weight plus the other
// lists' bounds falls under the threshold. An English question with a
// stop word at k = 100 ("what is the dra of the lomi": what in 43% of the
// notes, dra in 14%) is that shape: the block walk reads every block of
// the middle list, because every block holds a document good enough, and
// the impact path stops after the few best of them.

// impactWalkMin is the shortest walked list read in impact order: below
// it the block walk reads the whole list in about the time the impact
// order's merge and random probes take for a part of it.
const impactWalkMin = 1 << 11

// impactWalk reports whether the walk can take its impact path, and which
// of the walked lists is the long one: no set, a walked list long enough,
// whose impact order the cache budget allows, and the other walked lists
// (rare words) short beside it.
func (w *maxScore) impactWalk() (li int, ok bool) {
	if w.h.within != nil || w.ess == len(w.qs) {
		return 0, false
	}
	li = w.ess
	others := 0
	for j := w.ess + 1; j < len(w.qs); j++ {
		if len(w.qs[j].list.docs) > len(w.qs[li].list.docs) {
			li = j
		}
	}
	for j := w.ess; j < len(w.qs); j++ {
		if j != li {
			others += len(w.qs[j].list.docs)
		}
	}
	L := &w.qs[li]
	if len(L.list.docs) < impactWalkMin || others*impactShare > len(L.list.docs) || !w.s.base.impactReady(L.id) {
		return 0, false
	}
	return li, true
}

// usesImpact reports whether run takes the impact path (a test's question).
func (w *maxScore) usesImpact() bool {
	_, ok := w.impactWalk()
	return ok
}

// impactEstimate is how many documents the impact path reads at most:
// the other walked lists' postings, and the documents of the long list
// whose weight, with the probed lists' bounds, reaches the threshold
// (each tf group is in ascending |D|, so in descending weight: a binary
// search finds its end) at the start threshold.
func (w *maxScore) impactEstimate(li int) int {
	L := &w.qs[li]
	io := w.s.base.impactOf(L.id)
	rest := w.rest()
	n := 0
	for j := w.ess; j < len(w.qs); j++ {
		if j != li {
			n += len(w.qs[j].list.docs)
		}
	}
	theta := w.theta
	for _, gr := range io.groups {
		tf := float64(gr.tf)
		lo, hi := gr.start, gr.end
		for lo < hi {
			m := lo + (hi-lo)/2
			if w.weight(L.idf, tf, io.dl(m))*margin+rest >= theta {
				lo = m + 1
			} else {
				hi = m
			}
		}
		n += int(lo - gr.start)
	}
	return n
}

// kthWeight is the k-th best weight of a live document in list L (its
// impact order io), 0 when it holds fewer than k live documents: a lower
// bound of the k-th best score of any query holding L's term, since a
// document scores at least its weight in L.
func (w *maxScore) kthWeight(L *qterm, io *impactOrder, k int) float64 {
	if k <= 0 || k > len(io.docs) {
		return 0
	}
	var room [16]groupHead
	heads := room[:0]
	for _, gr := range io.groups {
		heads = append(heads, groupHead{pos: gr.start, end: gr.end, w: w.weight(L.idf, float64(gr.tf), io.dl(gr.start))})
	}
	for n := 0; ; {
		best := bestHead(heads)
		if best < 0 {
			return 0
		}
		hd := &heads[best]
		v, d := hd.w, io.docs[hd.pos]
		if hd.pos++; hd.pos < hd.end {
			hd.w = w.weight(L.idf, float64(io.groups[best].tf), io.dl(hd.pos))
		}
		if w.s.isDead(d) {
			continue
		}
		if n++; n == k {
			return v
		}
	}
}

// impactStart raises the threshold to the best k-th weight of the long
// lists that have impact orders, and reports whether the walk can then
// take its impact path: if so, the start threshold (startThreshold,
// which scores the lists with the highest bounds, often the long one in
// full) is not needed, and the threshold is raised further to the best
// k-th weight of the short lists, where the best documents usually are
// (a rare word's): each is a lower bound of the k-th best score, since a
// document scores at least its weight in any one list.
func (w *maxScore) impactStart(k int) bool {
	if w.h.within != nil || k <= 0 {
		return false
	}
	// The long lists whose impact orders exist, and the one of the
	// highest bound (the rarest: its k-th weight is usually the highest),
	// whose order is made if need be. A stop word's order is not made
	// here: a query that the path then does not answer would pay for
	// sorting the longest list once.
	theta := 0.0
	top := -1
	for j := range w.qs {
		if q := &w.qs[j]; len(q.list.docs) >= impactWalkMin && w.s.base.impactReady(q.id) {
			top = j // qs is in ascending bound
		}
	}
	for j := range w.qs {
		q := &w.qs[j]
		if j == top || (len(q.list.docs) >= impactWalkMin && w.s.base.impactMade(q.id)) {
			theta = max(theta, w.kthWeight(q, w.s.base.impactOf(q.id), k)/margin)
		}
	}
	w.raise(theta)
	li, ok := w.impactWalk()
	if !ok {
		return false
	}
	sc := impactPool.Get().(*impactScratch)
	defer impactPool.Put(sc)
	lens := w.s.base.lens
	for j := w.ess; j < len(w.qs); j++ {
		q := &w.qs[j]
		if j == li || len(q.list.docs) < k {
			continue
		}
		part := zeroed(sc.part, len(q.list.docs))
		sc.part = part[:0]
		for i, d := range q.list.docs {
			part[i] = w.weight(q.idf, float64(q.list.tf(i)), lens[d])
			if w.s.isDead(d) {
				part[i] = -1 // not counted
			}
		}
		theta = max(theta, w.s.kthLargest(part, nil, k, &sc.kth)/margin)
	}
	w.raise(theta)
	if li, ok = w.impactWalk(); ok {
		w.raise(w.sampleThreshold(li, k, sc))
	}
	_, ok = w.impactWalk()
	return ok
}

// sampleSize is how many of the long list's best documents, per result
// asked for, sampleThreshold scores.
const sampleSize = 4

// sampleThreshold is the k-th best score, without the other walked lists,
// of the long list's sampleSize·k best documents (those the walk reads
// first), each probed in the lists not walked: a lower bound of the k-th
// best score (a score is at least the sum of a part of its terms, summed
// in the same order, since rounding is monotone), and a tighter one than
// the weights alone when the probed lists (a stop word in 43% of the
// notes) add to most of those documents. It lets the estimate see how
// early the walk stops.
func (w *maxScore) sampleThreshold(li, k int, sc *impactScratch) float64 {
	qs, ess := w.qs, w.ess
	L := &qs[li]
	io := w.s.base.impactOf(L.id)
	m := min(sampleSize*k, len(io.docs))
	if m < k {
		return 0
	}
	members := make([]*denseSet, ess)
	for j := range members {
		members[j] = w.s.base.denseOf(qs[j].id)
	}
	var room [16]groupHead
	heads := room[:0]
	for _, gr := range io.groups {
		heads = append(heads, groupHead{pos: gr.start, end: gr.end, w: w.weight(L.idf, float64(gr.tf), io.dl(gr.start))})
	}
	var contrib [64]float64
	part := zeroed(sc.part, m)[:0]
	for len(part) < m {
		best := bestHead(heads)
		if best < 0 {
			break
		}
		hd := &heads[best]
		wl, d, dl := hd.w, io.docs[hd.pos], io.dl(hd.pos)
		if hd.pos++; hd.pos < hd.end {
			hd.w = w.weight(L.idf, float64(io.groups[best].tf), io.dl(hd.pos))
		}
		if w.s.isDead(d) {
			continue
		}
		contrib[L.ti] = wl
		mask := uint64(1) << L.ti
		for j := range ess {
			if tf := w.find(j, members[j], d); tf != 0 {
				q := &qs[j]
				contrib[q.ti] = w.weight(q.idf, float64(tf), dl)
				mask |= 1 << q.ti
			}
		}
		v := 0.0
		for mm := mask; mm != 0; mm &= mm - 1 {
			v += contrib[trailingZeros(mm)]
		}
		clearContrib(&contrib, mask)
		part = append(part, v)
	}
	sc.part = part[:0]
	return w.s.kthLargest(part, nil, k, &sc.kth) / margin
}

// find returns the tf of d in qs[j], 0 when the list does not hold it:
// through the list's bitmap when it has one, else a search of its blocks
// and of the block.
func (w *maxScore) find(j int, member *denseSet, d uint32) uint32 {
	q := &w.qs[j]
	if member != nil {
		if i, ok := member.find(d); ok {
			return q.list.tf(i)
		}
		return 0
	}
	bi, _ := slices.BinarySearchFunc(q.blocks, d, func(b block, d uint32) int {
		switch {
		case b.last < d:
			return -1
		case b.last > d:
			return 1
		}
		return 0
	})
	if bi == len(q.blocks) {
		return 0
	}
	lo := bi * blockSize
	if i, ok := findPosting(q.list.docs[lo:min(lo+blockSize, len(q.list.docs))], d); ok {
		return q.list.tf(lo + i)
	}
	return 0
}

// runImpact is run's impact path, qs[li] the long list (impactWalk).
// The documents of the other walked lists first, each scored in full;
// then the long list's documents outside them, best weight first, each
// probed in the lists not walked.
func (w *maxScore) runImpact(li int) error {
	h := &w.h
	qs, pre := w.qs, w.pre
	ess := w.ess
	L := &qs[li]
	io := w.s.base.impactOf(L.id)
	lens := w.s.base.lens
	c0, c1 := w.c0, w.c1
	dead := w.s.nDead > 0
	members := make([]*denseSet, len(qs))
	for j := range members {
		members[j] = w.s.base.denseOf(qs[j].id)
	}
	var contrib [64]float64
	// The short walked lists' documents, each once, ascending.
	sc := impactPool.Get().(*impactScratch)
	defer impactPool.Put(sc)
	cands := sc.docs[:0]
	for j := ess; j < len(qs); j++ {
		if j != li {
			cands = append(cands, qs[j].list.docs...)
		}
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	sc.docs = cands[:0]
	// Ascending, so every list without a bitmap is read forward once.
	pos := sc.pos(len(qs))
	for _, d := range cands {
		if dead && w.s.isDead(d) {
			continue
		}
		var mask uint64
		dl := lens[d]
		for j := range qs {
			q := &qs[j]
			var tf uint32
			if ds := members[j]; ds != nil {
				if i, found := ds.find(d); found {
					tf = q.list.tf(i)
				}
			} else if pos[j] = seek(q, pos[j], d); pos[j] < len(q.list.docs) && q.list.docs[pos[j]] == d {
				tf = q.list.tf(pos[j])
			}
			if tf != 0 {
				contrib[q.ti] = weight(q.idf, float64(tf), c0, c1, dl)
				mask |= 1 << q.ti
			}
		}
		score := 0.0
		for mm := mask; mm != 0; mm &= mm - 1 {
			score += contrib[trailingZeros(mm)]
		}
		if score > 0 {
			h.push(d, score, mask)
		}
		clearContrib(&contrib, mask)
	}
	// The long list alone (with the lists not walked), best first.
	rest := w.rest()
	heads := make([]groupHead, len(io.groups))
	for g, gr := range io.groups {
		heads[g] = groupHead{pos: gr.start, end: gr.end, tf: float64(gr.tf)}
		heads[g].w = weight(L.idf, heads[g].tf, c0, c1, io.dl(gr.start))
	}
	work := checkEvery - 1
	for {
		if work++; work >= checkEvery {
			work = 0
			if canceled(w.done) {
				return ErrCanceled
			}
		}
		best := bestHead(heads)
		if best < 0 {
			break
		}
		hd := &heads[best]
		wl := hd.w
		theta := max(w.theta, h.threshold())
		if wl*margin+rest < theta {
			break // no later document can enter
		}
		d, dl := io.docs[hd.pos], io.dl(hd.pos)
		hd.pos++
		if hd.pos < hd.end {
			hd.w = weight(L.idf, hd.tf, c0, c1, io.dl(hd.pos))
		}
		if (dead && w.s.isDead(d)) || (len(cands) > 0 && holds(cands, d)) {
			continue
		}
		contrib[L.ti] = wl
		partial := wl
		mask := uint64(1) << L.ti
		ok := true
		for j := ess - 1; j >= 0; j-- {
			if partial*margin+pre[j] < theta {
				ok = false
				break
			}
			if tf := w.find(j, members[j], d); tf != 0 {
				q := &qs[j]
				c := weight(q.idf, float64(tf), c0, c1, dl)
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
			if score > 0 {
				h.push(d, score, mask)
			}
		}
		clearContrib(&contrib, mask)
	}
	return nil
}
