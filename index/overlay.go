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
//     overlay costs a lookup per query term, not one per document and term;
//   - deadPost: the dead base documents' term ids, by term id, so the
//     document frequency of a term drops by a count found in one search
//     instead of a walk of the term's whole posting list.

// ovDoc is an overlay document: what a base segment keeps in its tables,
// |D| and the terms, is kept here with it.
type ovDoc struct {
	Doc
	len uint32            // |D|
	tf  map[string]uint32 // its terms
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

// ovRange returns the overlay postings whose term hash is h.
func (s *Snapshot) ovRange(h uint64) []ovPosting {
	ps := s.ovPost
	// The first posting with hash >= h: a search with the comparison
	// inline (every query term of a snapshot with writes pending pays it).
	lo, hi := 0, len(ps)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ps[m].hash < h {
			lo = m + 1
		} else {
			hi = m
		}
	}
	j := lo
	for j < len(ps) && ps[j].hash == h {
		j++
	}
	return ps[lo:j]
}

// deadCount returns how many dead base documents hold base term id.
func (s *Snapshot) deadCount(id uint32) int {
	return deadFrom(s.deadPost, id+1) - deadFrom(s.deadPost, id)
}

// deadFrom returns the index of the first posting of ps with id >= id.
func deadFrom(ps []deadPosting, id uint32) int {
	lo, hi := 0, len(ps)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ps[m].id < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }
