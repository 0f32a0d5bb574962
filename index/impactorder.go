package index

import (
	"math"
	"slices"
)

// A query with one long list and short other lists (an English question:
// a stop word the analyzer keeps, "what", and a rare word or two) spends
// nearly all of an exhaustive or a pruned search on the long list, though
// only the documents the short lists hold and the best few of the long
// list alone can make the top k. The impact order of the long list gives
// those few without reading the rest: its documents grouped by tf
// (descending), each group by |D| (ascending). Within a group a document's
// weight falls as |D| grows, whatever avgdl and idf are, so a merge of the
// groups by the weight of their heads yields the list's documents in
// descending weight, exactly, in any snapshot sharing the segment.
// The impact scorer is in impact.go.

// impactOrder is one list's documents in impact order; documents of one
// tf and one |D| (one weight) are in ascending ord, which is the result
// order of equal scores (segment.docs), so that the walk can leave a run
// at its first document that ties the k-th best and does not enter.
type impactOrder struct {
	docs []uint32
	// |D| of docs[i] (dl), read with it in the walk: one more sequential
	// read instead of a random one into the length table. In 16 bits
	// when every length fits (lens16), else 32 (lens32): the order is a
	// cache kept for the life of its segment, 6 bytes a posting, not 8.
	lens16 []uint16
	lens32 []uint32
	groups []impactGroup // by tf, descending
}

// dl returns |D| of docs[i].
func (io *impactOrder) dl(i uint32) uint32 {
	if io.lens16 != nil {
		return uint32(io.lens16[i])
	}
	return io.lens32[i]
}

// impactGroup is the documents of one tf: docs[start:end] of its order.
type impactGroup struct {
	tf         uint32
	start, end uint32
}

// impactOf returns the impact order of term id's list, making it on first
// use. Concurrent first uses may both make it; they make the same one, and
// the first stored is kept.
func (seg *segment) impactOf(id uint32) *impactOrder {
	if v, ok := seg.impacts.Load(id); ok {
		return v.(*impactOrder)
	}
	l := seg.list(id)
	io := &impactOrder{docs: make([]uint32, len(l.docs))}
	fits := true
	for i, d := range l.docs {
		if l.tfs[i] == tfEscape || seg.lens[d] >= 1<<24 {
			fits = false
			break
		}
	}
	if fits {
		// One integer key per posting: tf descending, |D|, doc.
		keys := make([]uint64, len(l.docs))
		for i, d := range l.docs {
			keys[i] = uint64(255-l.tfs[i])<<56 | uint64(seg.lens[d])<<32 | uint64(d)
		}
		slices.Sort(keys)
		for i, k := range keys {
			io.docs[i] = uint32(k)
		}
	} else {
		tfs := make(map[uint32]uint32, len(l.docs))
		for i, d := range l.docs {
			io.docs[i] = d
			tfs[d] = l.tf(i)
		}
		slices.SortFunc(io.docs, func(a, b uint32) int {
			if ta, tb := tfs[a], tfs[b]; ta != tb {
				return int(tb) - int(ta)
			}
			if la, lb := seg.lens[a], seg.lens[b]; la != lb {
				if la < lb {
					return -1
				}
				return 1
			}
			return int(a) - int(b)
		})
	}
	// The groups: each document's tf, found in the list.
	for i, d := range io.docs {
		j, _ := findPosting(l.docs, d)
		tf := l.tf(j)
		if n := len(io.groups); n == 0 || io.groups[n-1].tf != tf {
			io.groups = append(io.groups, impactGroup{tf: tf, start: uint32(i)})
		}
		io.groups[len(io.groups)-1].end = uint32(i) + 1
	}
	short := true
	for _, d := range io.docs {
		short = short && seg.lens[d] <= math.MaxUint16
	}
	if short {
		io.lens16 = make([]uint16, len(io.docs))
		for i, d := range io.docs {
			io.lens16[i] = uint16(seg.lens[d])
		}
	} else {
		io.lens32 = make([]uint32, len(io.docs))
		for i, d := range io.docs {
			io.lens32[i] = seg.lens[d]
		}
	}
	v, loaded := seg.impacts.LoadOrStore(id, io)
	if !loaded {
		seg.cacheBytes.Add(int64(impactSize(len(io.docs))))
	}
	return v.(*impactOrder)
}
