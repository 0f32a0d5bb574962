package index

import "math/bits"

// histogram buckets the scores of the exhaustive scorer's candidates to
// find the k best without sorting them all: bucket i holds the scores s
// with int(s*scale) == i, which is monotone in s, so a document in a
// lower bucket scores strictly less than one in a higher bucket. A bitmap
// of the non-empty buckets lets every walk visit those only: a query
// touching a few hundred documents does not pay for 1,024 buckets.
//
// The zero histogram is empty; reset returns it to empty after use.
type histogram struct {
	counts   [histBuckets]uint32
	nonEmpty [histBuckets / 64]uint64
}

const histBuckets = 1024

// add counts one score in bucket bk (0 <= bk < histBuckets).
func (h *histogram) add(bk int) {
	h.counts[bk]++
	h.nonEmpty[bk>>6] |= 1 << (bk & 63)
}

// each calls fn with the non-empty buckets from the highest down to
// bucket lo, until fn returns false.
func (h *histogram) each(lo int, fn func(bk int) bool) {
	for w := len(h.nonEmpty) - 1; w >= lo>>6; w-- {
		for m := h.nonEmpty[w]; m != 0; {
			bit := 63 - bits.LeadingZeros64(m)
			bk := w<<6 | bit
			if bk < lo || !fn(bk) {
				return
			}
			m &^= 1 << bit
		}
	}
}

// cut returns the highest bucket b such that buckets b and above hold k
// scores or more (every score below b has k scores strictly above it),
// or 0 when all of them hold fewer; and how many scores buckets b and
// above hold.
func (h *histogram) cut(k int) (b, n int) {
	h.each(0, func(bk int) bool {
		b = bk
		n += int(h.counts[bk])
		return n < k
	})
	return b, n
}

// place turns the counts of buckets b and above into the positions where
// their scores go, best bucket first: after it, slot(bk) hands out bucket
// bk's places in turn.
func (h *histogram) place(b int) {
	off := uint32(0)
	h.each(b, func(bk int) bool {
		c := h.counts[bk]
		h.counts[bk] = off
		off += c
		return true
	})
}

// slot returns the next place of bucket bk (>= the b given to place).
func (h *histogram) slot(bk int) uint32 {
	p := h.counts[bk]
	h.counts[bk]++
	return p
}

// runs calls fn with the range [lo, hi) of every bucket of b and above
// after its places were all handed out, best bucket first.
func (h *histogram) runs(b int, fn func(lo, hi uint32)) {
	lo := uint32(0)
	h.each(b, func(bk int) bool {
		hi := h.counts[bk]
		fn(lo, hi)
		lo = hi
		return true
	})
}

// reset empties the histogram, touching only the buckets in use.
func (h *histogram) reset() {
	for w, m := range h.nonEmpty {
		for ; m != 0; m &= m - 1 {
			h.counts[w<<6|bits.TrailingZeros64(m)] = 0
		}
		h.nonEmpty[w] = 0
	}
}
