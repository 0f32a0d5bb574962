package index

import (
	"cmp"
	"encoding/binary"
	"errors"
	"maps"
	"slices"
	"sync"
)

// forward collects, while a build analyses its documents, each one's
// distinct content term ids and content hash: what the bulk detection
// reads once the posting lists are made.
type forward struct {
	ids   []uint32 // every document's distinct content term ids, one after the other
	start []uint32 // document i's are ids[start[i]:start[i+1]]
	seen  []uint32 // by term id: doc+1 that last noted it
	hash  []uint64
}

// newForward sizes the table for the documents docs: about one distinct
// content term per 8 bytes of content, so that it is not regrown (and
// copied) a dozen times on the way.
func newForward(docs []Doc) *forward {
	text := 0
	for i := range docs {
		text += len(docs[i].Content)
	}
	return &forward{ids: make([]uint32, 0, text/8), start: make([]uint32, 1, len(docs)+1), hash: make([]uint64, 0, len(docs))}
}

// term notes a content term of the document being analysed.
func (f *forward) term(id uint32) {
	for int(id) >= len(f.seen) {
		f.seen = append(f.seen, 0)
	}
	doc := uint32(len(f.start)) // the current document + 1
	if f.seen[id] != doc {
		f.seen[id] = doc
		f.ids = append(f.ids, id)
	}
}

// end closes the document being analysed, whose normalized content
// (normalize) is normal. Only a document without content terms is
// hashed: an exact copy of one with terms has the same terms, and the
// near-duplicate pass finds it (Jaccard 1, no word differs).
func (f *forward) end(normal string) {
	f.start = append(f.start, uint32(len(f.ids)))
	var h uint64
	if n := len(f.start); f.start[n-1] == f.start[n-2] {
		h = hashNormal(normal)
	}
	f.hash = append(f.hash, h)
}

func (f *forward) of(d uint32) []uint32 { return f.ids[f.start[d]:f.start[d+1]] }

// detect finds every duplicate pair of seg's documents: exact ones (of
// the documents without content terms) by sorting their hashes, near
// ones by prefix filtering on both sides (nearPairs), each candidate
// confirmed by the exact measure. The signatures are made on a second
// goroutine while this one makes the hash table, the exact pairs and the
// prefixes; it is joined before the near pass reads them, and before
// detect returns in any case.
func (f *forward) detect(seg *segment) *dupTable {
	n := len(seg.docs)
	t := &dupTable{hash: f.hash, ctn: make([]uint32, n)}
	for i := range n {
		t.ctn[i] = f.start[i+1] - f.start[i]
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	nt := len(f.seen) // every content term id is below it
	wg.Go(func() { t.sig = f.signatures(seg, nt) })
	t.indexHashes()
	ps := newPairSet(n)
	t.exactPairs(seg, ps)
	pi := f.prefixes(seg, t.ctn)
	wg.Wait()
	f.nearPairs(seg, t, pi, ps)
	t.setRel(ps.pairs)
	return t
}

// pairSet collects a build's duplicate pairs, at most MaxDuplicates of
// each document: a store of many copies of one note records a bounded
// number of them, not n².
type pairSet struct {
	pairs [][2]uint32
	cnt   []uint16 // by ord: the pairs it is in
}

func newPairSet(n int) *pairSet { return &pairSet{cnt: make([]uint16, n)} }

// full reports whether x is in MaxDuplicates pairs already.
func (p *pairSet) full(x uint32) bool { return p.cnt[x] >= MaxDuplicates }

// add records the pair x, y; neither may be full.
func (p *pairSet) add(x, y uint32) {
	p.pairs = append(p.pairs, [2]uint32{x, y})
	p.cnt[x]++
	p.cnt[y]++
}

// signatures is every document's signature (termSig) of its content
// terms, whose ids are below nt.
func (f *forward) signatures(seg *segment, nt int) []uint64 {
	bit := make([]uint64, nt)
	for id := range bit {
		bit[id] = termSig(string(seg.terms.term(uint32(id))))
	}
	sig := make([]uint64, len(f.start)-1)
	for d := range sig {
		for _, id := range f.of(uint32(d)) {
			sig[d] |= bit[id]
		}
	}
	return sig
}

// exactPairs adds to ps the pairs of documents without content terms
// whose contents are equal (after dupNormal) and not empty.
func (t *dupTable) exactPairs(seg *segment, ps *pairSet) {
	for i, nh := 0, len(t.byHash); i < nh; {
		j := i + 1
		for j < nh && t.hash[t.byHash[j]] == t.hash[t.byHash[i]] {
			j++
		}
		for a := i; a < j && t.hash[t.byHash[i]] != emptyHash; a++ {
			for b := a + 1; b < j && !ps.full(t.byHash[a]); b++ {
				x, y := t.byHash[a], t.byHash[b]
				if !ps.full(y) && dupNormal(seg.docs[x].Content) == dupNormal(seg.docs[y].Content) {
					ps.add(x, y)
				}
			}
		}
		i = j
	}
}

// prefixIndex is the prefix filter's inverted index. Under one global
// order of the terms (rarest first: document frequency, then id), a
// document's prefix is its first prefixLen(n) content terms; two sets
// with Jaccard ≥ t share at least ⌈t·max(|x|,|y|)⌉ terms, so their
// prefixes share one (the first of their common terms in that order is
// in both). The documents with content terms are taken by size (number
// of distinct content terms, then ord), and each term lists the
// positions, in that order, of the documents whose prefix holds it.
type prefixIndex struct {
	order  []uint32 // the documents with content terms, by size then ord
	pre    []uint32 // the prefix term ids of order[p]: pre[pstart[p]:pstart[p+1]]
	pstart []uint32
	start  []uint32 // by term id: its positions are ent[start[id]:start[id+1]]
	ent    []uint32
	first  []uint32 // by term id: start[id], for nearPairs' cursors
}

// prefixes makes the prefix index of the documents, whose numbers of
// distinct content terms are ctn.
func (f *forward) prefixes(seg *segment, ctn []uint32) *prefixIndex {
	nt := seg.nTerms()
	// Term ids by rank, rarest first (df, then id), and each id's rank:
	// choosing a document's rarest terms compares plain numbers.
	byRank := make([]uint64, nt)
	for id := range byRank {
		byRank[id] = uint64(seg.listLen(uint32(id)))<<32 | uint64(id)
	}
	slices.Sort(byRank)
	rank := make([]uint32, nt)
	for r, x := range byRank {
		rank[uint32(x)] = uint32(r)
	}
	pi := &prefixIndex{}
	for d, c := range ctn {
		if c > 0 {
			pi.order = append(pi.order, uint32(d))
		}
	}
	slices.SortStableFunc(pi.order, func(a, b uint32) int { return cmp.Compare(ctn[a], ctn[b]) })
	total := 0
	for _, d := range pi.order {
		total += prefixLen(int(ctn[d]))
	}
	pi.pre = make([]uint32, 0, total)
	pi.pstart = make([]uint32, 1, len(pi.order)+1)
	count := make([]uint32, nt+1) // by term id + 1: its prefix entries
	for _, d := range pi.order {
		ids := f.of(d)
		k := len(pi.pre)
		pi.pre = appendRarest(pi.pre, ids, rank, prefixLen(len(ids)))
		for j, r := range pi.pre[k:] {
			id := uint32(byRank[r])
			pi.pre[k+j] = id
			count[id+1]++
		}
		pi.pstart = append(pi.pstart, uint32(len(pi.pre)))
	}
	for id := range nt {
		count[id+1] += count[id]
	}
	pi.start = count
	// Fill each list from its end, the positions descending: each comes
	// out ascending, and the fill counters end at each list's start,
	// which the near pass takes as its cursors.
	first := slices.Clone(count[1:])
	pi.ent = make([]uint32, total)
	for p := len(pi.order) - 1; p >= 0; p-- {
		for _, id := range pi.pre[pi.pstart[p]:pi.pstart[p+1]] {
			first[id]--
			pi.ent[first[id]] = uint32(p)
		}
	}
	pi.first = first
	return pi
}

// appendRarest appends to pre the p smallest ranks of ids (distinct term
// ids), ascending: one pass that keeps them sorted at pre's end,
// inserting the few that beat the largest kept (the common case costs
// one comparison an id, and writes nothing).
func appendRarest(pre, ids, rank []uint32, p int) []uint32 {
	k := len(pre)
	for _, id := range ids {
		r := rank[id]
		if len(pre)-k == p {
			if r >= pre[len(pre)-1] {
				continue
			}
			pre = pre[:len(pre)-1]
		}
		pre = append(pre, r)
		j := len(pre) - 1
		for j > k && pre[j-1] > r {
			pre[j] = pre[j-1]
			j--
		}
		pre[j] = r
	}
	return pre
}

// nearPairs adds to ps the near pairs (and exact pairs with content
// terms, Jaccard 1) of the documents of pi: for each document x in size
// order, the documents after it in the lists of its prefix terms (the
// same size or larger, up to the length filter's bound, which ends the
// walk of a list), each confirmed by the signature filter, the exact
// Jaccard over the forward table and the value guard. Each pair is met
// from its smaller document (or the first by ord of two of one size).
func (f *forward) nearPairs(seg *segment, t *dupTable, pi *prefixIndex, ps *pairSet) {
	mark := f.seen // by term id: x+1 while x's terms are marked
	clear(mark)
	seen := make([]uint32, len(pi.order)) // by position: px+1 once a candidate of x
	cur := pi.first                       // by term id: the position of its list next to take
docs:
	for px, x := range pi.order {
		pre := pi.pre[pi.pstart[px]:pi.pstart[px+1]]
		if ps.full(x) {
			for _, id := range pre {
				cur[id]++
			}
			continue
		}
		nx := t.ctn[x]
		marked := false
		for j, id := range pre {
			// x is its list's next position: those after it follow.
			cur[id]++
			for _, py := range pi.ent[cur[id]:pi.start[id+1]] {
				y := pi.order[py]
				ny := t.ctn[y]
				if uint64(nx)*NearDen < NearNum*uint64(ny) {
					break // too long, as every later one is
				}
				if seen[py] == uint32(px)+1 || ps.full(y) {
					continue
				}
				seen[py] = uint32(px) + 1
				if !sigOK(t.sig[x], t.sig[y], nx, ny) {
					continue
				}
				if !marked {
					for _, id := range f.of(x) {
						mark[id] = x + 1
					}
					marked = true
				}
				inter := 0
				for _, id := range f.of(y) {
					if mark[id] == x+1 {
						inter++
					}
				}
				if jaccardOK(inter, int(nx), int(ny)) && valueGuard(seg.docs[x].Content, seg.docs[y].Content) {
					ps.add(x, y)
					if ps.full(x) {
						for _, id := range pre[j+1:] {
							cur[id]++
						}
						continue docs
					}
				}
			}
		}
	}
}

// dupCount is the number of duplicates recorded of document ord, the
// dead ones included.
func (s *Snapshot) dupCount(ord int32) int {
	n := len(s.ovDup[ord])
	if t := s.base.dup; t != nil && int(ord) < len(s.base.docs) {
		n += len(t.rel[uint32(ord)])
	}
	return n
}

// MaxDuplicates is the most duplicates the index records of one document:
// a store holding many copies of one note (a template, a log line) records
// a bounded number of pairs, so a build stays near linear, instead of one
// per two copies. Past it a copy may go unreported and uncollapsed; none
// is ever reported or collapsed wrongly.
const MaxDuplicates = 64

// relOf makes the symmetric relation of pairs: each list ascending,
// without repeats.
func relOf(pairs [][2]uint32) map[uint32][]uint32 {
	if len(pairs) == 0 {
		return nil
	}
	rel := make(map[uint32][]uint32)
	for _, p := range pairs {
		rel[p[0]] = append(rel[p[0]], p[1])
		rel[p[1]] = append(rel[p[1]], p[0])
	}
	for k, l := range rel {
		slices.Sort(l)
		rel[k] = slices.Clip(slices.Compact(l))
	}
	return rel
}

// setRel makes t's relation of pairs, and its bitset.
func (t *dupTable) setRel(pairs [][2]uint32) {
	t.rel = relOf(pairs)
	t.has = nil
	if len(t.rel) > 0 {
		t.has = make([]uint64, (len(t.hash)+63)/64)
		for ord := range t.rel {
			t.has[ord/64] |= 1 << (ord % 64)
		}
	}
}

// indexHashes makes t.byHash: the documents without content terms (the
// only ones hashed), by hash, then ord.
func (t *dupTable) indexHashes() {
	t.byHash = t.byHash[:0]
	for i, c := range t.ctn {
		if c == 0 {
			t.byHash = append(t.byHash, uint32(i))
		}
	}
	t.byHash = slices.Clip(t.byHash)
	slices.SortFunc(t.byHash, func(a, b uint32) int {
		if c := cmp.Compare(t.hash[a], t.hash[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
}

// dupsOf returns the ords of the live documents of s that are duplicates
// of a document with content, whose distinct content terms are xs
// (sorted), and hash h: exact ones from the base's hash table and the
// overlay's hashes, near ones from the base's lists and the overlay's
// postings of its rarest terms.
func (s *Snapshot) dupsOf(content string, xs []string, h, sig uint64) []int32 {
	t := s.base.dup
	var out []int32
	seen := map[int32]bool{}
	nx := uint32(len(xs))
	confirm := func(ord int32, yc string, yh, ysig uint64, ny uint32) {
		if seen[ord] || len(out) >= MaxDuplicates || s.dupCount(ord) >= MaxDuplicates {
			return
		}
		seen[ord] = true
		if len(xs) == 0 && ny == 0 && yh == h && h != emptyHash && dupNormal(yc) == dupNormal(content) {
			out = append(out, ord)
			return
		}
		if !lenOK(nx, ny) || !sigOK(sig, ysig, nx, ny) {
			return
		}
		ys := contentTerms(s.tok, yc)
		if jaccardOK(interSorted(xs, ys), len(xs), len(ys)) && valueGuard(content, yc) {
			out = append(out, ord)
		}
	}
	nb := len(s.base.docs)
	if len(xs) == 0 { // exact copies, by the hash of those without terms
		lo, _ := slices.BinarySearchFunc(t.byHash, h, func(ord uint32, h uint64) int { return cmp.Compare(t.hash[ord], h) })
		for _, y := range t.byHash[lo:] {
			if t.hash[y] != h {
				break
			}
			if !s.isDead(y) {
				confirm(int32(y), s.base.docs[y].Content, h, t.sig[y], t.ctn[y])
			}
		}
		for i, o := range s.overlay {
			if o != nil && o.ctn == 0 && o.hash == h {
				confirm(int32(nb+i), o.Content, o.hash, o.sig, o.ctn)
			}
		}
		return out
	}
	// The rarest terms first, by their base lists (a term the base lacks
	// is the rarest of all): any order finds every pair, this one reads
	// the least.
	type pterm struct {
		term string
		id   uint32
		df   int // 0: not in the base
	}
	pre := make([]pterm, len(xs))
	for i, term := range xs {
		pre[i].term = term
		if id, ok := s.base.terms.id(term); ok {
			pre[i].id, pre[i].df = id, s.base.listLen(id)
		}
	}
	slices.SortStableFunc(pre, func(a, b pterm) int { return cmp.Compare(a.df, b.df) })
	for _, p := range pre[:prefixLen(len(xs))] {
		if p.df > 0 {
			for _, y := range s.base.list(p.id).docs {
				if !s.isDead(y) && lenOK(nx, t.ctn[y]) && sigOK(sig, t.sig[y], nx, t.ctn[y]) {
					confirm(int32(y), s.base.docs[y].Content, t.hash[y], t.sig[y], t.ctn[y])
				}
			}
		}
		s.ovPostings(termHash(p.term), func(op ovPosting) {
			if o := s.overlay[op.doc]; op.term == p.term && o != nil {
				confirm(int32(nb)+int32(op.doc), o.Content, o.hash, o.sig, o.ctn)
			}
		})
	}
	return out
}

// linkDups records, in ns (a fresh clone that does not hold d yet), the
// pairs of d, an overlay document about to be added at ord, with the
// documents dups names.
func (ns *Snapshot) linkDups(ord int32, dups []int32) {
	if len(dups) == 0 {
		return
	}
	m := make(map[int32][]int32, len(ns.ovDup)+len(dups)+1)
	maps.Copy(m, ns.ovDup)
	slices.Sort(dups)
	m[ord] = dups
	for _, y := range dups {
		m[y] = append(slices.Clip(m[y]), ord)
	}
	ns.ovDup = m
}

// compactDups makes the duplicate table of a compaction of s: baseOrd
// and ovOrd map s's ords (base, overlay index) to the new ones (^0: gone).
func (s *Snapshot) compactDups(seg *segment, baseOrd, ovOrd []uint32) *dupTable {
	old := s.base.dup
	if old == nil {
		return nil
	}
	n := len(seg.docs)
	t := &dupTable{hash: make([]uint64, n), sig: make([]uint64, n), ctn: make([]uint32, n)}
	for i, o := range baseOrd {
		if o != gone {
			t.hash[o], t.sig[o], t.ctn[o] = old.hash[i], old.sig[i], old.ctn[i]
		}
	}
	for i, o := range ovOrd {
		if o != gone {
			t.hash[o], t.sig[o], t.ctn[o] = s.overlay[i].hash, s.overlay[i].sig, s.overlay[i].ctn
		}
	}
	t.indexHashes()
	newOf := func(ord uint32) uint32 {
		if int(ord) < len(baseOrd) {
			return baseOrd[ord]
		}
		return ovOrd[int(ord)-len(baseOrd)]
	}
	var pairs [][2]uint32
	for x, l := range old.rel {
		for _, y := range l {
			if a, b := newOf(x), newOf(y); x < y && a != gone && b != gone {
				pairs = append(pairs, [2]uint32{a, b})
			}
		}
	}
	for x, l := range s.ovDup {
		for _, y := range l {
			if a, b := newOf(uint32(x)), newOf(uint32(y)); x < y && a != gone && b != gone {
				pairs = append(pairs, [2]uint32{a, b})
			}
		}
	}
	t.setRel(pairs)
	return t
}

// gone marks an ord that a compaction leaves out.
const gone = ^uint32(0)

// appendDups writes the duplicates section of a persisted snapshot: 0
// when detection is off, else 1, the hash of every document (8 bytes LE;
// 0 for a document with content terms, see forward.end),
// then the signature of every document (8 bytes LE), then its count of content terms, and the pairs (n, then each as the first
// ord's delta from the previous pair's and the second's distance past it).
func appendDups(b []byte, t *dupTable) []byte {
	if t == nil {
		return append(b, 0)
	}
	b = append(b, 1)
	for _, h := range t.hash {
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	for _, x := range t.sig {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	for _, c := range t.ctn {
		b = binary.AppendUvarint(b, uint64(c))
	}
	var pairs [][2]uint32
	for _, x := range slices.Sorted(maps.Keys(t.rel)) {
		for _, y := range t.rel[x] {
			if x < y {
				pairs = append(pairs, [2]uint32{x, y})
			}
		}
	}
	b = binary.AppendUvarint(b, uint64(len(pairs)))
	prev := uint32(0)
	for _, p := range pairs {
		b = binary.AppendUvarint(b, uint64(p[0]-prev))
		b = binary.AppendUvarint(b, uint64(p[1]-p[0]))
		prev = p[0]
	}
	return b
}

// dups reads the duplicates section of a persisted snapshot of n docs.
func (r *reader) dups(n int) *dupTable {
	switch flag := r.byte(); {
	case r.err != nil || flag == 0:
		return nil
	case flag != 1:
		r.err = errors.New("bad duplicates flag")
		return nil
	}
	if len(r.b) < 16*n {
		r.err = errors.New("truncated")
		return nil
	}
	t := &dupTable{hash: make([]uint64, n), sig: make([]uint64, n), ctn: make([]uint32, n)}
	for i := range t.hash {
		t.hash[i] = binary.LittleEndian.Uint64(r.b[8*i:])
		t.sig[i] = binary.LittleEndian.Uint64(r.b[8*(n+i):])
	}
	r.b = r.b[16*n:]
	for i := range t.ctn {
		t.ctn[i] = r.u32()
	}
	np := r.count(2)
	pairs := make([][2]uint32, 0, np)
	x := uint64(0)
	for i := 0; i < np && r.err == nil; i++ {
		x += r.uvarint()
		y := x + r.uvarint()
		if y == x || y >= uint64(n) {
			r.err = errors.New("duplicate pair out of range")
			return nil
		}
		pairs = append(pairs, [2]uint32{uint32(x), uint32(y)})
	}
	if r.err != nil {
		return nil
	}
	t.indexHashes()
	t.setRel(pairs)
	return t
}
