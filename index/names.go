package index

import "slices"

// The name index: which documents hold a name, whatever their category.
// Link resolution needs it (SPEC §7 step 3: a bare [[name]] resolves to
// the one entry with that name in any category), and a scan of every
// document per link would make a retrieve cost O(corpus). It lives apart
// from the scoring structures: Build indexes a base segment's names, With
// and Without keep the overlay's, and Compact rebuilds both through Build.

// baseNames maps each name of a base segment to the ord of the document
// holding it; names held by several documents (in different categories)
// are in dups instead, with every ord, ascending.
type baseNames struct {
	one  map[string]uint32
	dups map[string][]uint32
}

// indexNames fills seg.names from seg.docs.
func (seg *segment) indexNames() {
	seg.names.one = make(map[string]uint32, len(seg.docs))
	for i := range seg.docs {
		name := seg.docs[i].Name
		if ords, ok := seg.names.dups[name]; ok {
			seg.names.dups[name] = append(ords, uint32(i))
			continue
		}
		first, ok := seg.names.one[name]
		if !ok {
			seg.names.one[name] = uint32(i)
			continue
		}
		if seg.names.dups == nil {
			seg.names.dups = make(map[string][]uint32)
		}
		delete(seg.names.one, name)
		seg.names.dups[name] = []uint32{first, uint32(i)}
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
	if ords, ok := s.base.names.dups[name]; ok {
		for _, o := range ords {
			if !s.isDead(o) && !visit(&s.base.docs[o]) {
				return nil, 2
			}
		}
	} else if o, ok := s.base.names.one[name]; ok && !s.isDead(o) {
		visit(&s.base.docs[o])
	}
	for _, i := range s.onames[name] {
		if !visit(s.overlay[i]) {
			return nil, 2
		}
	}
	return d, n
}

// addName records that overlay slot i holds name. ns must be a fresh clone
// (see cloneNames): slices are never appended to in place, since clones
// share them.
func (ns *Snapshot) addName(name string, i int) {
	ns.onames[name] = append(slices.Clip(ns.onames[name]), i)
}

// dropName forgets that overlay slot i holds name.
func (ns *Snapshot) dropName(name string, i int) {
	ords := slices.DeleteFunc(slices.Clone(ns.onames[name]), func(x int) bool { return x == i })
	if len(ords) == 0 {
		delete(ns.onames, name)
		return
	}
	ns.onames[name] = ords
}

// cloneNames gives ns its own overlay name map.
func (ns *Snapshot) cloneNames() {
	m := make(map[string][]int, len(ns.onames)+1)
	for k, v := range ns.onames {
		m[k] = v
	}
	ns.onames = m
}
