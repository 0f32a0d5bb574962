package index

import (
	"hash/maphash"
	"math"
)

// termDict is a base segment's term dictionary: term text → term id, ids
// dense from 0 in the order terms were added. The texts sit one after the
// other in one byte array (term id's text is text[ends[id-1]:ends[id]]),
// and an open-addressed table of id+1 (0 = empty, linear probing, load at
// most three quarters) finds them by hash, comparing the text in place. It
// costs about 4 bytes of offset, 4–10 bytes of table and the text itself
// per term, where a map[string]uint32 costs a 16-byte string header, a
// separate allocation for the text and the map's own slots (about 60 bytes
// per term in all); and a load fills it with one copy of the texts and one
// hash per term instead of a map insert and an allocation per term.
//
// Build adds terms as it meets them; after that the dictionary is
// read-only and safe for concurrent readers.
type termDict struct {
	text  []byte
	ends  []uint32
	slots []uint32
	mask  uint64
	hash  strHasher // maphash for a dictionary built here (strhash.go)
}

// termSeed seeds the tables' hash when they are built in this process
// (strhash.go): a persisted copy lays out its own under a fixed hash.
var termSeed = maphash.MakeSeed()

// termDictSize is the number of slots (a power of two) of an open-addressed
// table for n keys at a load of at most three quarters.
func termDictSize(n int) int {
	size := 16
	for size*3 < n*4+4 {
		size <<= 1
	}
	return size
}

// newTermDict returns an empty dictionary sized for n terms and textLen
// bytes of text (it grows past both).
func newTermDict(n, textLen int) termDict {
	size := termDictSize(n)
	return termDict{
		text:  make([]byte, 0, textLen),
		ends:  make([]uint32, 0, n),
		slots: make([]uint32, size),
		mask:  uint64(size - 1),
	}
}

// Len is the number of terms.
func (d *termDict) Len() int { return len(d.ends) }

// term returns the text of term id, in the dictionary's bytes (never
// modified once added).
func (d *termDict) term(id uint32) []byte {
	start := uint32(0)
	if id > 0 {
		start = d.ends[id-1]
	}
	return d.text[start:d.ends[id]]
}

// id returns the id of term t.
func (d *termDict) id(t string) (uint32, bool) {
	if len(d.slots) == 0 {
		return 0, false
	}
	for i := d.hash.str(t) & d.mask; ; i = (i + 1) & d.mask {
		v := d.slots[i]
		if v == 0 {
			return 0, false
		}
		if string(d.term(v-1)) == t {
			return v - 1, true
		}
	}
}

// add returns the id of t, adding it with the next id if it is not there.
func (d *termDict) add(t string) (id uint32, added bool) {
	if (len(d.ends)+1)*4 > len(d.slots)*3 {
		d.grow()
	}
	i := d.hash.str(t) & d.mask
	for ; ; i = (i + 1) & d.mask {
		v := d.slots[i]
		if v == 0 {
			break
		}
		if string(d.term(v-1)) == t {
			return v - 1, false
		}
	}
	if uint64(len(d.text))+uint64(len(t)) > math.MaxUint32 {
		panic("index: term texts over 4 GiB")
	}
	id = uint32(len(d.ends))
	d.text = append(d.text, t...)
	d.ends = append(d.ends, uint32(len(d.text)))
	d.slots[i] = id + 1
	return id, true
}

// grow doubles the table (or sizes an empty one) and rehashes every term.
func (d *termDict) grow() {
	size := max(2*len(d.slots), termDictSize(len(d.ends)+1))
	d.slots = make([]uint32, size)
	d.mask = uint64(size - 1)
	for id := range d.ends {
		i := d.hash.bytes(d.term(uint32(id))) & d.mask
		for d.slots[i] != 0 {
			i = (i + 1) & d.mask
		}
		d.slots[i] = uint32(id) + 1
	}
}

// done trims the slack append left in the text and offsets.
func (d *termDict) done() {
	if cap(d.text) > len(d.text) {
		d.text = append([]byte(nil), d.text...)
	}
	if cap(d.ends) > len(d.ends) {
		d.ends = append([]uint32(nil), d.ends...)
	}
}
