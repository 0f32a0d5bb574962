package index

import "math/bits"

// A dense list (a word in a good share of the notes: "what", "how") is
// probed by the scorers for the candidates of the rarer lists. A binary
// search of its postings is a chain of dependent cache misses, which is
// most of what such a query costs when the caches are cold (an agent's
// host retrieves once per turn, and anything else it runs in between
// evicts them). A membership bitmap with rank counts answers the same
// probe with two reads that do not depend on each other's address: the
// bitmap's word, and the count before its 512-bit stretch; then the tf at
// the rank. It is derived from the list, made on first use, and never
// persisted.

// denseShare: a list gets a bitmap when it holds at least 1/denseShare of
// the base documents, so that the bitmap (one bit per document) costs at
// most 4 bytes per posting, under the 5 the posting itself takes.
const denseShare = 32

// denseOf returns the bitmap of term id's list when the list is dense,
// making it on first use if the segment's cache budget has room
// (cachebudget.go), else nil. Concurrent first uses may both make it;
// they make the same one, and the first stored is kept.
func (seg *segment) denseOf(id uint32) *denseSet {
	n := seg.listLen(id)
	if n < blockSize || n*denseShare < len(seg.docs) {
		return nil
	}
	if v, ok := seg.dense.Load(id); ok {
		return v.(*denseSet)
	}
	if !seg.cacheRoom(denseSize(len(seg.docs))) {
		return nil
	}
	v, loaded := seg.dense.LoadOrStore(id, newDenseSet(seg.list(id).docs, len(seg.docs)))
	if !loaded {
		seg.cacheBytes.Add(int64(denseSize(len(seg.docs))))
	}
	return v.(*denseSet)
}

// denseSet is the documents of one list as a bitmap over the base
// documents, with rank counts.
type denseSet struct {
	bits  []uint64
	ranks []uint32 // ranks[i]: set bits in bits[:8*i]
}

// newDenseSet makes the bitmap of docs (ascending, all < n). The bitmap
// is a whole number of 512-bit stretches, so that rank reads a whole one.
func newDenseSet(docs []uint32, n int) *denseSet {
	nw := (n + 511) / 512 * 8
	ds := &denseSet{bits: make([]uint64, nw), ranks: make([]uint32, nw/8)}
	for _, d := range docs {
		ds.bits[d/64] |= 1 << (d % 64)
	}
	c := uint32(0)
	for i, w := range ds.bits {
		if i%8 == 0 {
			ds.ranks[i/8] = c
		}
		c += uint32(bits.OnesCount64(w))
	}
	return ds
}

// find returns the position of d in the list and whether it is there.
// An absent d costs one read; the scorers that probe only the candidates
// that can still enter call it (rank takes no branch but always reads
// the count).
func (ds *denseSet) find(d uint32) (int, bool) {
	wi := int(d / 64)
	if wi >= len(ds.bits) {
		return 0, false
	}
	w := ds.bits[wi]
	if w&(1<<(d%64)) == 0 {
		return 0, false
	}
	r := int(ds.ranks[wi/8])
	for _, x := range ds.bits[wi&^7 : wi] {
		r += bits.OnesCount64(x)
	}
	return r + bits.OnesCount64(w&(1<<(d%64)-1)), true
}

// rank returns the number of the list's documents below d, and 1 when d
// is one of them, else 0; d must be below 64*len(ds.bits) (any d below
// the n the set was made for is). It takes no
// branch that depends on d: whether a document is in a list is a coin
// toss to the branch predictor, and so is the number of words before d
// in its stretch. It counts the bits below d in the whole 512-bit stretch
// (one cache line), each word under a mask.
func (ds *denseSet) rank(d uint32) (r, in uint32) {
	wi := d / 64
	base := wi &^ 7
	words := ds.bits[base : base+8 : base+8]
	r = ds.ranks[base/8]
	below := int(d - base*64) // bits of the stretch below d: 0 to 511
	for j, w := range words {
		// the bits of word j below d: all of them, some, or none
		nb := min(max(below-64*j, 0), 64)
		r += uint32(bits.OnesCount64(w & (1<<uint(nb) - 1)))
	}
	return r, uint32(words[wi-base]>>(d%64)) & 1
}
