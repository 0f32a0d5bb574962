package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
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
//	revision | analyzer name | meta | docs: n, the texts of all docs one
//	after the other (a byte string: category, name, content of each), then
//	per doc the lengths of its category, name and content, |D|, tokens_est,
//	its date's kind (0 none, 1 instant, 2 day, 3 written) and, unless none, the date
//	in Unix nanoseconds (a varint) |
//	extras: n, then per document with an Input.Extra, in ord order, its
//	ord as a delta from the previous one's and the extra (a byte string) |
//	terms: n, the number of postings of all, the texts of all terms one
//	after the other (a byte string), then per term the length of its text
//	and its postings (a count, then per posting the doc as a delta from the
//	previous one, and tf) |
//	duplicates: see appendDups (dupbuild.go; version 6)
//
// The texts come in blocks so that a load copies each block once: the
// documents' strings share one allocation, and the term dictionary
// (terms.go) takes its block as it is and hashes each term once.
//
// Everything a load could not recompute without tokenizing is there; the
// rest (|D| table, block bounds, identity table, name map) is recomputed,
// which costs a pass over the postings and the documents.

// PersistVersion is the version of the persisted snapshot layout. Decode
// rejects any other.
const PersistVersion = 6

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
	size += len(seg.terms.text) + 4*seg.terms.Len() + 3*len(seg.pdocs)
	b := make([]byte, persistHeader, persistHeader+size)
	b = binary.AppendUvarint(b, s.rev)
	b = appendBytes(b, s.tok.Name())
	b = appendBytes(b, string(meta))
	b = binary.AppendUvarint(b, uint64(len(seg.docs)))
	text := 0
	for i := range seg.docs {
		d := &seg.docs[i]
		text += len(d.Category) + len(d.Name) + len(d.Content)
	}
	b = binary.AppendUvarint(b, uint64(text))
	for i := range seg.docs {
		d := &seg.docs[i]
		b = append(b, d.Category...)
		b = append(b, d.Name...)
		b = append(b, d.Content...)
	}
	for i := range seg.docs {
		d := &seg.docs[i]
		b = binary.AppendUvarint(b, uint64(len(d.Category)))
		b = binary.AppendUvarint(b, uint64(len(d.Name)))
		b = binary.AppendUvarint(b, uint64(len(d.Content)))
		b = binary.AppendUvarint(b, uint64(seg.lens[i]))
		b = binary.AppendUvarint(b, uint64(d.est))
		b = append(b, seg.dateKind[i])
		if seg.dateKind[i] != dateNone {
			b = binary.AppendVarint(b, seg.dateAt[i])
		}
	}
	b = appendExtras(b, seg.extra)
	b = binary.AppendUvarint(b, uint64(seg.terms.Len()))
	b = binary.AppendUvarint(b, uint64(len(seg.pdocs)))
	b = binary.AppendUvarint(b, uint64(len(seg.terms.text)))
	b = append(b, seg.terms.text...)
	for id := range seg.nTerms() {
		l := seg.list(uint32(id))
		b = binary.AppendUvarint(b, uint64(len(seg.terms.term(uint32(id)))))
		b = binary.AppendUvarint(b, uint64(len(l.docs)))
		prev := uint32(0)
		for i, d := range l.docs {
			b = binary.AppendUvarint(b, uint64(d-prev))
			b = binary.AppendUvarint(b, uint64(l.tf(i)))
			prev = d
		}
	}
	b = appendDups(b, seg.dup)
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
// the one that was encoded. meta is what Encode was given. The snapshot
// and meta share no memory with data, which the caller may reuse.
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
	n := r.count(5)
	seg := &segment{docs: make([]Doc, 0, n), keys: newKeyTable(n), lens: make([]uint32, 0, n),
		dateAt: make([]int64, 0, n), dateKind: make([]uint8, 0, n)}
	text := r.str()
	for i := 0; i < n && r.err == nil; i++ {
		d := Doc{Category: r.cut(&text), Name: r.cut(&text), Content: r.cut(&text), ord: int32(i)}
		dl := r.u32()
		d.est = r.u32()
		var dr dateRec
		dr.kind = r.byte()
		switch {
		case r.err != nil:
		case dr.kind == dateInstant || dr.kind == dateDay || dr.kind == dateWritten:
			dr.at = r.varint()
		case dr.kind != dateNone:
			r.err = fmt.Errorf("unknown date kind %d", dr.kind)
		}
		if r.err != nil {
			break
		}
		seg.dateAt = append(seg.dateAt, dr.at)
		seg.dateKind = append(seg.dateKind, dr.kind)
		if i > 0 && compareIdentity(seg.docs[i-1], d) >= 0 {
			// Identity order is an invariant of every base segment
			// (segment.docs); a copy without it is rebuilt, not fixed up.
			r.err = errors.New("documents out of identity order")
			break
		}
		seg.docs = append(seg.docs, d)
		if _, added := seg.keys.add(seg.docs, uint32(i)); !added {
			r.err = errors.New("duplicate identity")
			break
		}
		seg.totalLen += uint64(dl)
		seg.lens = append(seg.lens, dl)
	}
	if r.err == nil && len(text) != 0 {
		r.err = errors.New("document text left over")
	}
	seg.extra = r.extras(len(seg.docs))
	nt := r.count(2)
	np := r.count(2)
	seg.pdocs = make([]uint32, 0, np)
	seg.ptfs = make([]uint8, 0, np)
	seg.starts = make([]uint32, 1, nt+1)
	tlen := r.uvarint()
	if r.err == nil && tlen > uint64(len(r.b)) {
		r.err = errors.New("truncated")
	}
	seg.terms = newTermDict(nt, 0)
	if r.err == nil {
		seg.terms.text = bytes.Clone(r.b[:tlen])
		r.b = r.b[tlen:]
	}
	end := uint64(0)
	for id := 0; id < nt && r.err == nil; id++ {
		end += r.uvarint()
		if end > uint64(len(seg.terms.text)) {
			r.err = errors.New("term text out of range")
			break
		}
		if err := seg.terms.addNew(uint32(end)); err != nil {
			r.err = err
			break
		}
		r.postings(seg, r.count(2), uint64(len(seg.docs)))
		seg.starts = append(seg.starts, uint32(len(seg.pdocs)))
	}
	if r.err == nil && end != uint64(len(seg.terms.text)) {
		r.err = errors.New("term text left over")
	}
	seg.dup = r.dups(len(seg.docs))
	if r.err == nil && len(r.b) != 0 {
		r.err = errors.New("trailing bytes")
	}
	if r.err != nil {
		return fail("%v", r.err)
	}
	seg.bigTF.pos = slices.Clip(seg.bigTF.pos)
	seg.bigTF.tf = slices.Clip(seg.bigTF.tf)
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

// postings appends one list of np postings read from r (per posting the
// doc as a delta from the previous one, and tf, uvarints) to seg's posting
// arrays; docs must be below ndocs, and the arrays hold fewer than 2^32
// postings. A load spends most of its time here, so a posting whose two
// values take one byte each, most of them, is read with one test.
func (r *reader) postings(seg *segment, np int, ndocs uint64) {
	if uint64(len(seg.pdocs))+uint64(np) > math.MaxUint32 {
		r.err = errors.New("too many postings")
		return
	}
	b, i := r.b, 0
	doc := uint64(0)
	for j := 0; j < np; j++ {
		var delta, tf uint64
		if i+1 < len(b) && b[i]|b[i+1] < 0x80 {
			delta, tf = uint64(b[i]), uint64(b[i+1])
			i += 2
		} else {
			d, n := binary.Uvarint(b[i:])
			if n <= 0 {
				r.err = errors.New("truncated")
				break
			}
			i += n
			t, m := binary.Uvarint(b[i:])
			if m <= 0 {
				r.err = errors.New("truncated")
				break
			}
			i += m
			delta, tf = d, t
		}
		// doc < ndocs holds, so doc+delta < ndocs is delta < ndocs-doc;
		// tf-1 wraps for tf = 0.
		if delta == 0 && j > 0 || delta >= ndocs-doc || tf-1 >= math.MaxUint32 {
			if delta == 0 && j > 0 {
				r.err = errors.New("postings out of order")
			} else {
				r.err = errors.New("posting out of range")
			}
			break
		}
		doc += delta
		seg.ptfs = append(seg.ptfs, seg.bigTF.add(uint32(len(seg.pdocs)), uint32(tf)))
		seg.pdocs = append(seg.pdocs, uint32(doc))
	}
	r.b = b[i:]
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

// cut returns the next string of a length read from r, cut from the front
// of *text: many strings sharing one allocation.
func (r *reader) cut(text *string) string {
	n := r.uvarint()
	if n > uint64(len(*text)) {
		r.err = errors.New("text out of range")
		return ""
	}
	s := (*text)[:n]
	*text = (*text)[n:]
	return s
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

func (r *reader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errors.New("truncated")
		return 0
	}
	r.b = r.b[n:]
	return v
}
