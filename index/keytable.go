package index

// keyTable maps identities to base document ords. It is an open-addressed
// table of ord+1 (0 = empty) with linear probing at a load of at most three
// quarters; the identities themselves are read from the documents, so it
// costs 4 bytes per slot (5–11 bytes per document) where a Go map keyed by
// two strings costs about 90. Built once per segment; read-only after.
type keyTable struct {
	slots []uint32
	mask  uint64
}

func newKeyTable(n int) keyTable {
	size := termDictSize(n)
	return keyTable{slots: make([]uint32, size), mask: uint64(size - 1)}
}

// keyHash is FNV-1a over category, a zero byte and name.
func keyHash(category, name string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(category); i++ {
		h ^= uint64(category[i])
		h *= 1099511628211
	}
	h *= 1099511628211 // the zero byte
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 1099511628211
	}
	return h
}

// find returns the ord of the document with the identity among docs.
func (t *keyTable) find(docs []Doc, category, name string) (uint32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	for i := keyHash(category, name) & t.mask; ; i = (i + 1) & t.mask {
		v := t.slots[i]
		if v == 0 {
			return 0, false
		}
		if d := &docs[v-1]; d.Name == name && d.Category == category {
			return v - 1, true
		}
	}
}

// insert adds ord for an identity that is not in the table.
func (t *keyTable) insert(category, name string, ord uint32) {
	for i := keyHash(category, name) & t.mask; ; i = (i + 1) & t.mask {
		if t.slots[i] == 0 {
			t.slots[i] = ord + 1
			return
		}
	}
}
