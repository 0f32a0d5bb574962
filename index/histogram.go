package index

import "math/bits"

// histogram buckets the scores of the exhaustive scorer's candidates to
// find the k best without sorting them all: bucket i holds the scores s
// with int(s*scale) == i, which is monotone in s, so a document in a
// lower bucket scores strictly less than one in a higher bucket. A bitmap
// of the non-empty buckets lets the cut visit those only, and the cut
// lists the buckets it keeps: a query touching a few hundred documents
// does not pay for 1,024 buckets.
//
// The zero histogram is empty; reset returns it to empty after use.
type histogram struct {
	counts   [histBuckets]uint32
	nonEmpty [histBuckets / 64]uint64
	kept     [histBuckets]uint16 // the buckets cut keeps, highest first
	nKept    int
}

const histBuckets = 1024

// add counts one score in bucket bk (0 <= bk < histBuckets).
func (h *histogram) add(bk int) {
	h.counts[bk]++
	h.nonEmpty[bk>>6] |= 1 << (bk & 63)
}

// cut keeps the non-empty buckets from the highest down to the first
// where the buckets kept hold k scores or more (every score below it has
// k scores strictly above), or all of them; it returns the lowest bucket
// kept and how many scores the kept buckets hold.
func (h *histogram) cut(k int) (b, n int) {
	h.nKept = 0
	for w := len(h.nonEmpty) - 1; w >= 0; w-- {
		for m := h.nonEmpty[w]; m != 0; {
			bit := 63 - bits.LeadingZeros64(m)
			m &^= 1 << bit
			b = w<<6 | bit
			h.kept[h.nKept] = uint16(b)
			h.nKept++
			if n += int(h.counts[b]); n >= k {
				return b, n
			}
		}
	}
	return b, n
}

// place turns the counts of the kept buckets into the positions where
// their scores go, best bucket first: after it, slot(bk) hands out bucket
// bk's places in turn.
func (h *histogram) place() {
	off := uint32(0)
	for _, bk := range h.kept[:h.nKept] {
		c := h.counts[bk]
		h.counts[bk] = off
		off += c
	}
}

// slot returns the next place of kept bucket bk.
func (h *histogram) slot(bk int) uint32 {
	p := h.counts[bk]
	h.counts[bk]++
	return p
}

// runs returns the end of each kept bucket's range of places after they
// were all handed out, best bucket first, reusing dst: bucket i of the
// kept spans [ends[i-1], ends[i]).
func (h *histogram) runs(dst []uint32) []uint32 {
	for _, bk := range h.kept[:h.nKept] {
		dst = append(dst, h.counts[bk])
	}
	return dst
}

// reset empties the histogram, touching only the buckets in use.
func (h *histogram) reset() {
	for w, m := range h.nonEmpty {
		for ; m != 0; m &= m - 1 {
			h.counts[w<<6|bits.TrailingZeros64(m)] = 0
		}
		h.nonEmpty[w] = 0
	}
	h.nKept = 0
}
