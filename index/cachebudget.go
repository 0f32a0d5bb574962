package index

// The first-use caches of a base segment (the impact orders of long
// lists, impact.go, and the bitmaps of dense ones, dense.go) live as long
// as the segment. A query makes the one it needs; a server answering
// varied queries would, without a bound, in time make one for every long
// list it ever walked: up to 6 bytes per posting of them, more than the
// index itself. So a segment spends at most cacheBudgetPerDoc bytes per
// document on them; past that, a query that would make a new one takes a
// path that needs none (the pruned scorer, a binary search for a probe),
// with the same answer. Concurrent first uses may each make one when
// room remains, so the total can pass the budget by what they make at
// once.

// cacheBudgetPerDoc is the first-use caches' budget, in bytes per base
// document of the segment. The 128 stop-word queries of the benchmark
// take about 17 at 1M documents.
var cacheBudgetPerDoc = 32

// cacheRoom reports whether n more bytes of first-use caches fit in the
// segment's budget.
func (seg *segment) cacheRoom(n int) bool {
	return seg.cacheBytes.Load()+int64(n) <= int64(len(seg.docs))*int64(cacheBudgetPerDoc)
}

// impactSize is about what the impact order of a list of n postings
// takes: 4 bytes a document, 2 (or 4) a length.
func impactSize(n int) int { return 6 * n }

// denseSize is what the bitmap of a list over n documents takes.
func denseSize(n int) int { return (n + 511) / 512 * (64 + 4) }

// impactMade reports whether term id's impact order is made.
func (seg *segment) impactMade(id uint32) bool {
	_, ok := seg.impacts.Load(id)
	return ok
}

// impactReady reports whether term id's impact order is made, or may be.
func (seg *segment) impactReady(id uint32) bool {
	if _, ok := seg.impacts.Load(id); ok {
		return true
	}
	return seg.cacheRoom(impactSize(seg.listLen(id)))
}
