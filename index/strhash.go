package index

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"unsafe"
)

// strHasher is the hash of one of a segment's open-addressed tables (the
// term dictionary, the identity and name tables). A table built in this
// process uses maphash under the process's random termSeed (the zero
// value); a table laid out in a persisted copy (mapped.go) was built by
// another process, so it uses a hash every process computes alike,
// fixedHash, under the seed the copy carries.
type strHasher struct {
	fixed bool
	seed  uint64
}

func (h strHasher) str(s string) uint64 {
	if !h.fixed {
		return maphash.String(termSeed, s)
	}
	return fixedHash(h.seed, s)
}

func (h strHasher) bytes(b []byte) uint64 {
	if !h.fixed {
		return maphash.Bytes(termSeed, b)
	}
	return fixedHash(h.seed, unsafe.String(unsafe.SliceData(b), len(b)))
}

// fixedHash is a seeded 64-bit string hash, the same in every process (a
// multiply-fold over 8-byte words, then a final mix). The seed is random
// per copy, so the tables of a copy do not share their collisions with
// those of another.
func fixedHash(seed uint64, s string) uint64 {
	const m1, m2 = 0xa0761d6478bd642f, 0xe7037ed1a0b428db
	h := seed ^ uint64(len(s))*m2
	for len(s) >= 8 {
		hi, lo := bits.Mul64(h^binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8)), m1)
		h = hi ^ lo
		s = s[8:]
	}
	if len(s) > 0 {
		var w uint64
		for i := range len(s) {
			w |= uint64(s[i]) << (8 * i)
		}
		hi, lo := bits.Mul64(h^w^m2, m1)
		h = hi ^ lo
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}
