package index

import (
	"cmp"
	"math/bits"
	"slices"
)

// The overlay holds documents written since the base segment was built,
// and the base documents they replaced or deleted. A query must find its
// terms in both, so each snapshot keeps two small sorted tables, rebuilt
// by a linear merge on every write (tens of microseconds at the largest
// overlay) and searched by binary search per query term:
//
//   - ovPost: the overlay documents' terms, by term hash, so scoring an
//     overlay costs a lookup per query term, not one per document and term
//     (ovIdx finds a hash's postings in one read and a short scan);
//   - deadPost: the dead base documents' term ids, by term id, so the
//     document frequency of a term drops by a count found in one search
//     instead of a walk of the term's whole posting list.

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

// mergeSorted returns a new slice holding old (sorted) and add (sorted
// here) in order; old is not modified, so snapshots sharing it are safe.
func mergeSorted[T any](old, add []T, c func(a, b T) int) []T {
	slices.SortFunc(add, c)
	out := make([]T, 0, len(old)+len(add))
	i, j := 0, 0
	for i < len(old) && j < len(add) {
		if c(old[i], add[j]) <= 0 {
			out = append(out, old[i])
			i++
		} else {
			out = append(out, add[j])
			j++
		}
	}
	out = append(out, old[i:]...)
	return append(out, add[j:]...)
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
	return deadFrom(s.deadPost, id+1) - deadFrom(s.deadPost, id)
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
