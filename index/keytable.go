package index

// keyTable maps identities to base document ords. It is an open-addressed
// table of ord+1 (0 = empty) with linear probing at a load of at most three
// quarters; the identities themselves are read from the documents, so it
// costs 4 bytes per slot (5–11 bytes per document) where a Go map keyed by
// two strings costs about 90. Built once per segment; read-only after.
type keyTable struct {
	slots []uint32
	mask  uint64
	hash  strHasher
}

func newKeyTable(n int) keyTable {
	size := termDictSize(n)
	return keyTable{slots: make([]uint32, size), mask: uint64(size - 1)}
}

// keyHash hashes an identity.
func keyHash(h strHasher, category, name string) uint64 {
	return h.str(name) ^ h.str(category)*0x9e3779b97f4a7c15
}

// find returns the ord of the document with the identity among docs.
func (t *keyTable) find(docs []Doc, category, name string) (uint32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	for i := keyHash(t.hash, category, name) & t.mask; ; i = (i + 1) & t.mask {
		v := t.slots[i]
		if v == 0 {
			return 0, false
		}
		if d := &docs[v-1]; d.Name == name && d.Category == category {
			return v - 1, true
		}
	}
}

// add records docs[ord]'s identity as ord's, unless a document among
// docs already has it: then it returns that one's ord and false.
func (t *keyTable) add(docs []Doc, ord uint32) (uint32, bool) {
	category, name := docs[ord].Category, docs[ord].Name
	for i := keyHash(t.hash, category, name) & t.mask; ; i = (i + 1) & t.mask {
		v := t.slots[i]
		if v == 0 {
			t.slots[i] = ord + 1
			return ord, true
		}
		if d := &docs[v-1]; d.Name == name && d.Category == category {
			return v - 1, false
		}
	}
}
