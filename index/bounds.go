package index

import (
	"math"
	"slices"
)

// Block bounds: the largest term frequency and the shortest document of
// each run of blockSize postings, which bound a term's BM25 weight over
// the run. The pruned scorer (pruned.go) skips runs by them and the
// impact scorer (impact.go) seeks through lists by their ends.

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
