package index

// Except returns the documents of w (every live document of s when w is
// nil) but those whose ord is set in hidden: a bitset over the ords of s,
// bit ord%64 of hidden[ord/64] (ords past its end are kept). The result
// is a Set for TopQuery.Within, so the top Limit are the best of what is
// left, never a filtered top list; hidden must not change while it is in
// use. A nil or all-zero hidden returns w as it is. Retrieve leaves out
// superseded and expired entries this way (docs/validity.md).
func (s *Snapshot) Except(w *Set, hidden []uint64) *Set {
	some := false
	for _, x := range hidden {
		if x != 0 {
			some = true
			break
		}
	}
	if !some {
		return w
	}
	if w == nil {
		w = s.In(TimeRange{})
	}
	if w.hide != nil {
		// Both sets of hidden documents are left out.
		merged := make([]uint64, max(len(w.hide), len(hidden)))
		copy(merged, w.hide)
		for i, x := range hidden {
			merged[i] |= x
		}
		hidden = merged
	}
	nw := *w
	nw.hide = hidden
	nw.all = false
	return &nw
}

// hidden reports whether ord is left out of w (Except).
func (w *Set) hidden(ord uint32) bool {
	i := ord / 64
	return int(i) < len(w.hide) && w.hide[i]&(1<<(ord%64)) != 0
}
