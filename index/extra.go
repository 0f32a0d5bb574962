package index

import (
	"encoding/binary"
	"errors"
	"maps"
	"slices"
)

// Extra returns the Input.Extra d, a document of s, was indexed with; ""
// for none, and for a document of another snapshot.
func (s *Snapshot) Extra(d *Doc) string {
	if s.isBaseDoc(d) {
		return s.base.extra[uint32(d.ord)]
	}
	if o := s.ovDocOf(d); o != nil {
		return o.extra
	}
	return ""
}

// HasExtra reports whether any live document of s carries an
// Input.Extra: one look at the base's table and a walk of the overlay.
func (s *Snapshot) HasExtra() bool {
	for ord := range s.base.extra {
		if !s.isDead(ord) {
			return true
		}
	}
	for _, o := range s.overlay {
		if o != nil && o.extra != "" {
			return true
		}
	}
	return false
}

// EachExtra calls fn with every live document of s that carries an
// Input.Extra, and that extra, in no particular order, until fn returns
// false. It costs the documents with an extra, not the whole snapshot.
func (s *Snapshot) EachExtra(fn func(d *Doc, extra string) bool) {
	for ord, x := range s.base.extra {
		if s.isDead(ord) {
			continue
		}
		if !fn(&s.base.docs[ord], x) {
			return
		}
	}
	for _, o := range s.overlay {
		if o != nil && o.extra != "" {
			if !fn(&o.Doc, o.extra) {
				return
			}
		}
	}
}

// appendExtras writes the extras section of a persisted snapshot.
func appendExtras(b []byte, extra map[uint32]string) []byte {
	b = binary.AppendUvarint(b, uint64(len(extra)))
	prev := uint32(0)
	for _, ord := range slices.Sorted(maps.Keys(extra)) {
		b = binary.AppendUvarint(b, uint64(ord-prev))
		b = appendBytes(b, extra[ord])
		prev = ord
	}
	return b
}

// extras reads the extras section of a persisted snapshot of ndocs
// documents.
func (r *reader) extras(ndocs int) map[uint32]string {
	n := r.count(2)
	if r.err != nil || n == 0 {
		return nil
	}
	m := make(map[uint32]string, n)
	ord := uint64(0)
	for i := 0; i < n && r.err == nil; i++ {
		delta := r.uvarint()
		ord += delta
		if i > 0 && delta == 0 || ord >= uint64(ndocs) {
			r.err = errors.New("extra out of range")
			return nil
		}
		x := r.str()
		if x == "" {
			r.err = errors.New("empty extra")
			return nil
		}
		m[uint32(ord)] = x
	}
	return m
}
