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
// trusted). Layout:
//
//	magic "RCLSNAP\n" | version uint32 LE | CRC-32C of payload uint32 LE |
//	payload length uint64 LE | payload
//
// and the payload, in uvarints and length-prefixed byte strings:
//
//	revision | analyzer name | meta | docs: n, then per doc category, name,
//	content, |D|, tokens_est | terms: n, the number of postings of all,
//	the texts of all terms one after the other (a byte string), then per
//	term the length of its text and its postings (a count, then per
//	posting the doc as a delta from the previous one, and tf)
//
// The term texts come in one block so that a load allocates one string
// for them all rather than one per term.
//
// Everything a load could not recompute without tokenizing is there; the
// rest (|D| table, block bounds, identity table, name map) is recomputed,
// which costs a pass over the postings and the documents.

// PersistVersion is the version of the persisted snapshot layout. Decode
// rejects any other.
const PersistVersion = 2

var persistMagic = []byte("RCLSNAP\n")

const persistHeader = 8 + 4 + 4 + 8

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrPersisted is wrapped by every error of Decode: the copy is damaged,
// of another version, another analyzer or another revision, and must be
// rebuilt from the store.
var ErrPersisted = errors.New("persisted index unusable")

// Encode returns s, with its overlay folded in, as a persisted snapshot
// carrying meta (opaque to the index; Decode returns it).
func Encode(s *Snapshot, meta []byte) []byte {
	if len(s.overlay) > 0 || s.nDead > 0 {
		s = s.Compact()
	}
	seg := s.base
	size := 64 + len(meta) + len(s.tok.Name())
	for i := range seg.docs {
		d := &seg.docs[i]
		size += len(d.Category) + len(d.Name) + len(d.Content) + 16
	}
	names := make([]string, len(seg.postings))
	for t, id := range seg.terms {
		names[id] = t
		size += len(t) + 4 + 3*len(seg.postings[id])
	}
	b := make([]byte, persistHeader, persistHeader+size)
	b = binary.AppendUvarint(b, s.rev)
	b = appendBytes(b, s.tok.Name())
	b = appendBytes(b, string(meta))
	b = binary.AppendUvarint(b, uint64(len(seg.docs)))
	for i := range seg.docs {
		d := &seg.docs[i]
		b = appendBytes(b, d.Category)
		b = appendBytes(b, d.Name)
		b = appendBytes(b, d.Content)
		b = binary.AppendUvarint(b, uint64(d.len))
		b = binary.AppendUvarint(b, uint64(d.est))
	}
	b = binary.AppendUvarint(b, uint64(len(names)))
	total := 0
	for _, l := range seg.postings {
		total += len(l)
	}
	b = binary.AppendUvarint(b, uint64(total))
	text := 0
	for _, t := range names {
		text += len(t)
	}
	b = binary.AppendUvarint(b, uint64(text))
	for _, t := range names {
		b = append(b, t...)
	}
	for id, t := range names {
		b = binary.AppendUvarint(b, uint64(len(t)))
		l := seg.postings[id]
		b = binary.AppendUvarint(b, uint64(len(l)))
		prev := uint32(0)
		for _, p := range l {
			b = binary.AppendUvarint(b, uint64(p.doc-prev))
			b = binary.AppendUvarint(b, uint64(p.tf))
			prev = p.doc
		}
	}
	copy(b, persistMagic)
	binary.LittleEndian.PutUint32(b[8:], PersistVersion)
	binary.LittleEndian.PutUint32(b[12:], crc32.Checksum(b[persistHeader:], castagnoli))
	binary.LittleEndian.PutUint64(b[16:], uint64(len(b)-persistHeader))
	return b
}

func appendBytes(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Decode loads a persisted snapshot. It fails, with an error wrapping
// ErrPersisted, unless data is complete and undamaged (length and
// CRC-32C), of PersistVersion, built with an analyzer of tok's name (nil:
// Spec) and at revision rev; the snapshot then answers every query as
// the one that was encoded. meta is what Encode was given.
func Decode(data []byte, tok *Analyzer, rev uint64) (s *Snapshot, meta []byte, err error) {
	if tok == nil {
		tok = Spec()
	}
	fail := func(format string, args ...any) (*Snapshot, []byte, error) {
		return nil, nil, fmt.Errorf("%w: %s", ErrPersisted, fmt.Sprintf(format, args...))
	}
	if len(data) < persistHeader || string(data[:8]) != string(persistMagic) {
		return fail("not a persisted index")
	}
	if v := binary.LittleEndian.Uint32(data[8:]); v != PersistVersion {
		return fail("format version %d, want %d", v, PersistVersion)
	}
	payload := data[persistHeader:]
	if n := binary.LittleEndian.Uint64(data[16:]); n != uint64(len(payload)) {
		return fail("payload of %d bytes, header says %d", len(payload), n)
	}
	if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(data[12:]) {
		return fail("checksum mismatch")
	}
	r := reader{b: payload}
	if got := r.uvarint(); got != rev {
		if r.err == nil {
			return fail("built at revision %d, store is at %d", got, rev)
		}
	}
	if name := r.str(); r.err == nil && name != tok.Name() {
		return fail("built with analyzer %q, want %q", name, tok.Name())
	}
	meta = []byte(r.str())
	n := r.count(3)
	seg := &segment{docs: make([]Doc, 0, n), keys: newKeyTable(n)}
	for i := 0; i < n && r.err == nil; i++ {
		d := Doc{Category: r.str(), Name: r.str(), Content: r.str(), ord: int32(i)}
		d.len = r.u32()
		d.est = r.u32()
		if _, dup := seg.keys.find(seg.docs, d.Category, d.Name); dup {
			r.err = errors.New("duplicate identity")
			break
		}
		seg.keys.insert(d.Category, d.Name, uint32(i))
		seg.totalLen += uint64(d.len)
		seg.docs = append(seg.docs, d)
	}
	nt := r.count(2)
	seg.terms = make(map[string]uint32, nt)
	seg.postings = make([][]posting, 0, nt)
	flat := make([]posting, 0, r.count(2))
	arena := r.str()
	starts := make([]int, 0, nt+1)
	for id := 0; id < nt && r.err == nil; id++ {
		n := r.uvarint()
		if n > uint64(len(arena)) {
			r.err = errors.New("term text out of range")
			break
		}
		seg.terms[arena[:n]] = uint32(id)
		arena = arena[n:]
		if len(seg.terms) != id+1 {
			r.err = errors.New("duplicate term")
			break
		}
		np := r.count(2)
		starts = append(starts, len(flat))
		doc := uint64(0)
		for j := 0; j < np && r.err == nil; j++ {
			delta := r.uvarint()
			if j > 0 && delta == 0 || delta >= uint64(len(seg.docs)) {
				r.err = errors.New("postings out of order") // or past the last document
			}
			doc += delta
			tf := r.u32()
			if doc >= uint64(len(seg.docs)) || tf == 0 {
				r.err = errors.New("posting out of range")
			}
			flat = append(flat, posting{doc: uint32(doc), tf: tf})
		}
	}
	if r.err == nil && (len(r.b) != 0 || len(arena) != 0) {
		r.err = errors.New("trailing bytes")
	}
	if r.err != nil {
		return fail("%v", r.err)
	}
	starts = append(starts, len(flat))
	for id := 0; id < nt; id++ {
		seg.postings = append(seg.postings, flat[starts[id]:starts[id+1]:starts[id+1]])
	}
	seg.lens = make([]uint32, len(seg.docs))
	for i := range seg.docs {
		seg.lens[i] = seg.docs[i].len
	}
	seg.buildBounds()
	seg.indexNames()
	return &Snapshot{rev: rev, tok: tok, base: seg, n: len(seg.docs), totalLen: seg.totalLen}, meta, nil
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

func (r *reader) u32() uint32 {
	v := r.uvarint()
	if v > math.MaxUint32 {
		r.err = errors.New("value out of range")
		return 0
	}
	return uint32(v)
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
