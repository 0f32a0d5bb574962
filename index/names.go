package index

import (
	"math"
	"slices"
)

// The name index: which documents hold a name, whatever their category.
// Link resolution needs it (SPEC §7 step 3: a bare [[name]] resolves to
// the one entry with that name in any category), and a scan of every
// document per link would make a retrieve cost O(corpus). It lives apart
// from the scoring structures: Build indexes a base segment's names, With
// and Without keep the overlay's, and Compact rebuilds both through Build.

// baseNames finds the documents of a base segment by name. It is an
// open-addressed table (linear probing, load at most three quarters) of
// ord+1 of the first document holding each name (0 = empty), the names
// read from the documents as keyTable does: 4 bytes per slot, where a
// map[string]uint32 costs about 40 bytes per document. A slot whose name
// several documents hold (in different categories) has nameShared set, and
// dups lists every ord holding that name, ascending.
type baseNames struct {
	slots []uint32
	mask  uint64
	dups  map[string][]uint32
	hash  strHasher
}

const nameShared = 1 << 31

// find returns the slot of name, or the empty slot where it would go.
func (ns *baseNames) find(docs []Doc, name string) (slot uint64, found bool) {
	if len(ns.slots) == 0 {
		return 0, false
	}
	for i := ns.hash.str(name) & ns.mask; ; i = (i + 1) & ns.mask {
		v := ns.slots[i] &^ nameShared
		if v == 0 {
			return i, false
		}
		if docs[v-1].Name == name {
			return i, true
		}
	}
}

// indexNames fills seg.names from seg.docs.
func (seg *segment) indexNames() { seg.indexNamesWith(strHasher{}) }

// indexNamesWith fills seg.names from seg.docs with the hash h.
func (seg *segment) indexNamesWith(h strHasher) {
	size := termDictSize(len(seg.docs))
	seg.names = baseNames{slots: make([]uint32, size), mask: uint64(size - 1), hash: h}
	for i := range seg.docs {
		name := seg.docs[i].Name
		slot, found := seg.names.find(seg.docs, name)
		switch {
		case !found:
			seg.names.slots[slot] = uint32(i) + 1
		case seg.names.slots[slot]&nameShared != 0:
			seg.names.dups[name] = append(seg.names.dups[name], uint32(i))
		default:
			if seg.names.dups == nil {
				seg.names.dups = make(map[string][]uint32)
			}
			first := seg.names.slots[slot] - 1
			seg.names.slots[slot] |= nameShared
			seg.names.dups[name] = []uint32{first, uint32(i)}
		}
	}
}

// LookupName returns the live document named name when exactly one
// document, in any category, holds that name. n tells how many do: 0, 1,
// or 2 for "two or more" (counting stops there). The cost depends on how
// many documents share the name, never on the size of the snapshot.
func (s *Snapshot) LookupName(name string) (d *Doc, n int) {
	visit := func(x *Doc) bool {
		n++
		if n == 1 {
			d = x
			return true
		}
		d = nil
		return false // two: ambiguous, stop
	}
	if slot, ok := s.base.names.find(s.base.docs, name); ok {
		if v := s.base.names.slots[slot]; v&nameShared != 0 {
			for _, o := range s.base.names.dups[name] {
				if !s.isDead(o) && !visit(&s.base.docs[o]) {
					return nil, 2
				}
			}
		} else if !s.isDead(v - 1) {
			visit(&s.base.docs[v-1])
		}
	}
	for _, i := range s.onames.get(name) {
		if !visit(&s.overlay[i].Doc) {
			return nil, 2
		}
	}
	return d, n
}

// overlayIndex returns the index in the overlay of its live document
// with the identity, found through onames: a name is shared by few
// documents, and a map by identity besides would be one more table that
// every write copies.
func (s *Snapshot) overlayIndex(category, name string) (int, bool) {
	for _, i := range s.onames.get(name) {
		if s.overlay[i].Category == category {
			return i, true
		}
	}
	return 0, false
}

// addName records that overlay slot i holds name. ns must be a fresh clone
// (see cloneNames): slices are never appended to in place, since clones
// share them.
func (ns *Snapshot) addName(name string, i int) {
	ns.onames.set(name, append(slices.Clip(ns.onames.get(name)), i))
	ns.addFold(name, i)
}

// dropName forgets that overlay slot i holds name.
func (ns *Snapshot) dropName(name string, i int) {
	ns.dropFold(name, i)
	ns.onames.set(name, slices.DeleteFunc(slices.Clone(ns.onames.get(name)), func(x int) bool { return x == i }))
}

// cloneNames gives ns its own overlay name maps.
func (ns *Snapshot) cloneNames() {
	ns.onames.clone()
	ns.ofold.clone()
}

// nameSlots maps a name to the overlay slots that hold it, in two levels
// as the posting tables are (overlay.go), so that a write copies only the
// small one: recent holds the names written since the last fold, each
// with its whole current list (an empty list: no slot any more), over
// main, which snapshots share. recent is folded into main past
// nameBound(len(main)) names. The zero value is an empty map.
type nameSlots struct {
	main, recent map[string][]int
	n            int // names with at least one slot
}

func (m *nameSlots) get(name string) []int {
	if v, ok := m.recent[name]; ok {
		return v
	}
	return m.main[name]
}

// clone gives m its own recent level; main stays shared.
func (m *nameSlots) clone() {
	r := make(map[string][]int, len(m.recent)+1)
	for k, v := range m.recent {
		r[k] = v
	}
	m.recent = r
}

// set makes slots name's list; m must have been cloned.
func (m *nameSlots) set(name string, slots []int) {
	switch had := len(m.get(name)) > 0; {
	case !had && len(slots) > 0:
		m.n++
	case had && len(slots) == 0:
		m.n--
	}
	m.recent[name] = slots
	if len(m.recent) <= nameBound(len(m.main)) {
		return
	}
	main := make(map[string][]int, len(m.main)+len(m.recent))
	for k, v := range m.main {
		main[k] = v
	}
	for k, v := range m.recent {
		if len(v) == 0 {
			delete(main, k)
		} else {
			main[k] = v
		}
	}
	m.main, m.recent = main, make(map[string][]int)
}

// nameBound is the size past which a nameSlots' recent level is folded
// into a main level of main names: about √(2·main), which balances the
// fold's copy of main against the copies of recent each write makes.
func nameBound(main int) int { return max(8, int(math.Sqrt(2*float64(main)))) }
