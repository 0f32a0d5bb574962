package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
)

// A persisted snapshot is a disposable copy of a base segment that a
// process loads instead of tokenizing the whole store again (SPEC §4: the
// index is derived data; a stale or damaged copy is rebuilt, never
// trusted). Its layout is in mapped.go: a header (magic, version, CRC-32C
// and length of the payload) and sections holding the segment's arrays
// and tables as they are in memory, so that a load points into the data
// instead of decoding it (Open), or into one copy of it (Decode).

// PersistVersion is the version of the persisted snapshot layout. Decode
// rejects any other. 6 (issue 24, links): a document's extra may hold the
// links part (retrieve/linkextra.go), so a copy made before it, which lacks
// every entry's property links and aliases, is rebuilt rather than served;
// 7: the sections of mapped.go, aliases and titles (titles.go) and the
// duplicates (dupbuild.go) among them; 8: a name is analysed as written
// (appendNameTokens), so the postings and title keys of a mapped name
// ("Why sleep%3F") differ from a 7's, and a removal would take out terms
// the 7 never put in.
const PersistVersion = 8

var persistMagic = []byte("RCLSNAP\n")

const persistHeader = 8 + 4 + 4 + 8

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrPersisted is wrapped by every error of Decode: the copy is damaged,
// of another version, another analyzer or another revision, and must be
// rebuilt from the store.
var ErrPersisted = errors.New("persisted index unusable")

// Encode returns s, with its overlay folded in, as a persisted snapshot
// carrying meta (opaque to the index; Decode returns it); nil for a
// snapshot too large for the layout (4 GiB of contents).
func Encode(s *Snapshot, meta []byte) []byte {
	if len(s.overlay) > 0 || s.nDead > 0 {
		s = s.Compact()
	}
	return encodeMapped(s, meta)
}

func appendBytes(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Decode loads a persisted snapshot. It fails, with an error wrapping
// ErrPersisted, unless data is complete and undamaged (length and
// CRC-32C), of PersistVersion, built with an analyzer of tok's name (nil:
// Spec) and at revision rev; the snapshot then answers every query as
// the one that was encoded. meta is what Encode was given. The snapshot
// and meta share no memory with data, which the caller may reuse: Decode
// is Open on one copy of data.
func Decode(data []byte, tok *Analyzer, rev uint64) (s *Snapshot, meta []byte, err error) {
	if len(data) < persistHeader || string(data[:8]) != string(persistMagic) {
		return nil, nil, fmt.Errorf("%w: not a persisted index", ErrPersisted)
	}
	return Open(alignedCopy(data), tok, rev, nil)
}

// reader decodes the payload; the first error sticks and zero values
// follow, so callers check err once per record.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if len(r.b) > 0 && r.b[0] < 0x80 {
		v := r.b[0]
		r.b = r.b[1:]
		return uint64(v)
	}
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errors.New("truncated")
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a count of records of at least min bytes each.
func (r *reader) count(min int) int {
	v := r.uvarint()
	if v > uint64(len(r.b)/min+1) {
		r.err = errors.New("count out of range")
		return 0
	}
	return int(v)
}

func (r *reader) str() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.err = errors.New("truncated")
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *reader) u32() uint32 {
	v := r.uvarint()
	if v > math.MaxUint32 {
		r.err = errors.New("value out of range")
		return 0
	}
	return uint32(v)
}

func (r *reader) byte() uint8 {
	if r.err != nil {
		return 0
	}
	if len(r.b) == 0 {
		r.err = errors.New("truncated")
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}
