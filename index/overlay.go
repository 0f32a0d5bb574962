package index

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// The overlay holds documents written since the base segment was built,
// and the base documents they replaced or deleted. A query must find its
// terms in both, so each snapshot keeps two sorted tables, searched per
// query term:
//
//   - ovPost: the overlay documents' terms, by term hash, so scoring an
//     overlay costs a lookup per query term, not one per document and term
//     (ovIdx finds a hash's postings in one read and a short scan);
//   - deadPost: the dead base documents' term ids, by term id, so the
//     document frequency of a term drops by a count found in one search
//     instead of a walk of the term's whole posting list.
//
// Each table has a second, small level holding the postings of the latest
// writes (ovRecent, deadRecent; binary-searched), and a write merges its
// postings into that level only. A snapshot is immutable, so a write
// copies whatever table it changes: copying the whole of ovPost and
// rebuilding ovIdx on every write cost O(overlay) per write, about 0.5 ms
// with a 100k index's overlay near its bound, most of a server's CPU per
// PUT. The recent level is folded into the main one when it outgrows
// recentBound of it, so a write copies about √(64·main) postings and, now
// and then, the main table.

// ovDoc is an overlay document: what a base segment keeps in its tables,
// |D| and the terms, is kept here with it.
type ovDoc struct {
	Doc
	date    dateRec
	extra   string            // Input.Extra
	aliases string            // Input.Aliases, one a line (titles.go)
	titles  []uint64          // title keys of its name and aliases
	len     uint32            // |D|
	tf      map[string]uint32 // its terms
	// hash, sig and ctn are its content's hash, signature and number of distinct content
	// terms (dup.go), set when the snapshot detects duplicates.
	hash uint64
	sig  uint64
	ctn  uint32
	// below is the number of base documents before it in identity order:
	// a tie between it and a base document is decided without reading
	// names (see hitHeap.tieBetter).
	below uint32
}

// ovPosting is one term of one overlay document.
type ovPosting struct {
	hash uint64
	term string
	doc  uint32 // index in Snapshot.overlay
	tf   uint32
}

// deadPosting says that base term id occurs in the dead base doc ord.
type deadPosting struct {
	id, ord uint32
}

// termHash is FNV-1a over the term's bytes.
func termHash(t string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(t); i++ {
		h ^= uint64(t[i])
		h *= 1099511628211
	}
	return h
}

func cmpOv(a, b ovPosting) int {
	if c := cmp.Compare(a.hash, b.hash); c != 0 {
		return c
	}
	return cmp.Compare(a.doc, b.doc)
}

func cmpDead(a, b deadPosting) int {
	if c := cmp.Compare(a.id, b.id); c != 0 {
		return c
	}
	return cmp.Compare(a.ord, b.ord)
}

// mergeTwo returns a new slice holding the sorted a and b in order;
// neither is modified, so snapshots sharing them are safe.
func mergeTwo[T any](a, b []T, c func(a, b T) int) []T {
	out := make([]T, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if c(a[i], b[j]) <= 0 {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// recentBound is the size past which a recent level is folded into its
// main level of main postings: the fold copies main, so folding every
// √(64·main) postings balances it against the copies of the recent level
// each write makes.
func recentBound(main int) int {
	return max(recentMin, int(math.Sqrt(64*float64(main))))
}

// recentMin is the least recentBound; tests lower it so that small
// snapshots fold their levels too.
var recentMin = 1024

// addOverlayPostings merges a write's overlay postings (sorted) into s's
// recent level, folding it into ovPost when it outgrows its bound.
func (s *Snapshot) addOverlayPostings(add []ovPosting) {
	s.ovRecent = mergeTwo(s.ovRecent, add, cmpOv)
	if len(s.ovRecent) > recentBound(len(s.ovPost)) {
		s.ovPost = mergeTwo(s.ovPost, s.ovRecent, cmpOv)
		s.ovIdx = newOvIndex(s.ovPost)
		s.ovRecent = nil
	}
}

// addDeadPostings is addOverlayPostings for the dead base documents'
// postings.
func (s *Snapshot) addDeadPostings(add []deadPosting) {
	s.deadRecent = mergeTwo(s.deadRecent, add, cmpDead)
	if len(s.deadRecent) > recentBound(len(s.deadPost)) {
		s.deadPost = mergeTwo(s.deadPost, s.deadRecent, cmpDead)
		s.deadRecent = nil
	}
}

// ovPostings calls fn with the overlay postings whose term hash is h, of
// both levels.
func (s *Snapshot) ovPostings(h uint64, fn func(p ovPosting)) {
	for _, p := range s.ovRange(h) {
		fn(p)
	}
	for _, p := range s.ovRecentRange(h) {
		fn(p)
	}
}

// ovRecentRange returns the recent level's postings whose term hash is h.
func (s *Snapshot) ovRecentRange(h uint64) []ovPosting {
	ps := s.ovRecent
	lo, _ := slices.BinarySearchFunc(ps, h, func(p ovPosting, h uint64) int { return cmp.Compare(p.hash, h) })
	j := lo
	for j < len(ps) && ps[j].hash == h {
		j++
	}
	return ps[lo:j]
}

// ovRange returns the overlay postings whose term hash is h: those of
// h's bucket in s.ovIdx (every posting of one hash is in one bucket),
// found by a short scan instead of a binary search of the whole table,
// whose first steps are cache misses when a query's postings have evicted
// it.
func (s *Snapshot) ovRange(h uint64) []ovPosting {
	ps := s.ovPost
	if len(ps) == 0 {
		return nil
	}
	b := h >> s.ovIdx.shift
	lo, hi := int(s.ovIdx.start[b]), int(s.ovIdx.start[b+1])
	for lo < hi && ps[lo].hash < h {
		lo++
	}
	j := lo
	for j < hi && ps[j].hash == h {
		j++
	}
	return ps[lo:j]
}

// ovIndex buckets a snapshot's ovPost by the top bits of the hash, about
// one posting per bucket: start[b] is the first posting whose hash's top
// bits are at least b, for b up to the number of buckets. Made with each
// ovPost (a write already copies the whole table), 4 or 8 bytes a posting
// against the posting's 32.
type ovIndex struct {
	start []uint32
	shift uint8 // 64 - bits.Len(len(ovPost))
}

func newOvIndex(ps []ovPosting) ovIndex {
	k := bits.Len(uint(len(ps)))
	x := ovIndex{start: make([]uint32, 1<<k+1), shift: uint8(64 - k)}
	b := 0
	for i, p := range ps {
		for ; b <= int(p.hash>>x.shift); b++ {
			x.start[b] = uint32(i)
		}
	}
	for ; b < len(x.start); b++ {
		x.start[b] = uint32(len(ps))
	}
	return x
}

// deadCount returns how many dead base documents hold base term id.
func (s *Snapshot) deadCount(id uint32) int {
	return deadFrom(s.deadPost, id+1) - deadFrom(s.deadPost, id) +
		deadFrom(s.deadRecent, id+1) - deadFrom(s.deadRecent, id)
}

// deadFrom returns the index of the first posting of ps with id >= id.
func deadFrom(ps []deadPosting, id uint32) int {
	lo := 0 // as in ovRange
	for n := len(ps); n > 1; {
		half := n / 2
		if ps[lo+half-1].id < id {
			lo += half
		}
		n -= half
	}
	if lo < len(ps) && ps[lo].id < id {
		lo++
	}
	return lo
}

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }
