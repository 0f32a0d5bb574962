package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"slices"
	"unsafe"
)

// The persisted copy's layout (PersistVersion 8, as 7; 6 lacked secAliases
// and secTitles): the arrays a segment searches, laid out as they are in
// memory, so that a load points the segment's slices into the data
// instead of decoding it (Open), and the
// open-addressed tables (term dictionary, identity and name tables) laid
// out too, under a hash every process computes alike (strhash.go), so that
// no term or document is re-inserted. A load costs the checksum, the
// checks below and one Doc record per document; it reads nothing of a
// posting list or a document's content beyond that.
//
//	header: magic "RCLSNAP\n" | version uint32 | CRC-32C of the payload
//	        uint32 | payload length uint64                       (24 bytes)
//	payload: section count uint32 | 0 uint32 |
//	         per section: offset uint64, length uint64 (from the payload's
//	         start) | the sections, each at a multiple of 8
//
// All integers little endian. The sections, in secID order, are below;
// a section of fixed-width values holds exactly the count the meta
// section gives. Per-document data that other features keep with the
// copy goes into a section of its own after secExtras (append an id
// before secCount, encode it in encodeSections, read it in openSections);
// a reader of another version rejects the copy anyway.
const (
	secMeta      = iota // uvarints: revision, analyzer, meta, docs, terms, postings, total |D|, hash seed; then uvarint counts of big tfs and long lists
	secIDText           // category and name of every document, one after the other
	secContent          // the content of every document, one after the other
	secDocEnds          // uint32 ×3 per document: the end of its category and name in secIDText, and of its content in secContent
	secLens             // uint32 per document: |D|
	secEst              // uint32 per document: tokens_est
	secDateAt           // int64 per document: its date in Unix nanoseconds (0 for none)
	secDateKind         // uint8 per document: dateNone, dateInstant, dateDay, dateWritten
	secExtras           // Input.Extra of the documents with one (appendExtras, extra.go)
	secTermText         // the term texts, one after the other
	secTermEnds         // uint32 per term: the end of its text
	secTermSlots        // uint32 per slot: the term table (terms.go), id+1, under fixedHash
	secPDocs            // uint32 per posting: doc
	secPTfs             // uint8 per posting: tf, tfEscape for 255 or more
	secStarts           // uint32 per term + 1: where each term's postings start
	secBigPos           // uint32 per escaped tf: its posting's position, ascending
	secBigTF            // uint32 per escaped tf: the tf
	secKeySlots         // uint32 per slot: the identity table (keytable.go), ord+1
	secNameSlots        // uint32 per slot: the name table (names.go), ord+1 | nameShared
	secNameDups         // uvarints: names held by several documents: count, then per name the ords holding it (a count, then deltas)
	secLongIDs          // uint32 per long list: its term id, ascending (bounds.go)
	secBounds           // termBound (uint32 ×4) per long list
	secBlocks           // block (uint32 ×3) per block of a long list
	secAliases          // Input.Aliases of the documents with some (appendAliases, titles.go)
	secTitles           // the title table (appendTitles, titles.go)
	secDups             // the duplicate table (appendDups, dupbuild.go)
	secCount
)

// The in-memory layouts the copy's sections are read as.
var (
	_ [16]byte = [unsafe.Sizeof(termBound{})]byte{}
	_ [12]byte = [unsafe.Sizeof(block{})]byte{}
)

// littleEndian reports whether this machine stores integers as the copy
// does; elsewhere every copy is rejected (and rebuilt).
var littleEndian = func() bool { x := uint16(1); return *(*byte)(unsafe.Pointer(&x)) == 1 }()

// encodeMapped is Encode (persist.go) for a segment without overlay. A
// segment whose identities or contents take 4 GiB or more (the offsets are
// 32-bit) is not persisted: it returns nil, which Decode refuses.
func encodeMapped(s *Snapshot, meta []byte) []byte {
	seg := s.base
	n := len(seg.docs)
	idLen, contentLen := 0, 0
	for i := range seg.docs {
		d := &seg.docs[i]
		idLen += len(d.Category) + len(d.Name)
		contentLen += len(d.Content)
	}
	if idLen > math.MaxUint32 || contentLen > math.MaxUint32 {
		return nil
	}
	seed := rand.Uint64()
	h := strHasher{fixed: true, seed: seed}
	secs := make([][]byte, secCount)

	m := binary.AppendUvarint(nil, s.rev)
	m = appendBytes(m, s.tok.Name())
	m = appendBytes(m, string(meta))
	for _, v := range []uint64{uint64(n), uint64(seg.terms.Len()), uint64(len(seg.pdocs)), seg.totalLen, seed,
		uint64(len(seg.bigTF.pos)), uint64(len(seg.longIDs))} {
		m = binary.AppendUvarint(m, v)
	}
	secs[secMeta] = m

	// Identities apart from contents: a load reads every identity (their
	// order is checked) and a query only the contents it returns.
	ids := make([]byte, 0, idLen)
	content := make([]byte, 0, contentLen)
	ends := make([]uint32, 0, 3*n)
	est := make([]uint32, n)
	for i := range seg.docs {
		d := &seg.docs[i]
		ids = append(ids, d.Category...)
		ends = append(ends, uint32(len(ids)))
		ids = append(ids, d.Name...)
		ends = append(ends, uint32(len(ids)))
		content = append(content, d.Content...)
		ends = append(ends, uint32(len(content)))
		est[i] = d.est
	}
	secs[secIDText] = ids
	secs[secContent] = content
	secs[secDocEnds] = asBytes(ends)
	secs[secLens] = asBytes(seg.lens)
	secs[secEst] = asBytes(est)
	secs[secDateAt] = asBytes(seg.dateAt)
	secs[secDateKind] = seg.dateKind
	secs[secExtras] = appendExtras(nil, seg.extra)
	secs[secAliases] = appendAliases(nil, seg.aliases)
	secs[secTitles] = appendTitles(nil, seg.titles)
	secs[secDups] = appendDups(nil, seg.dup)

	secs[secTermText] = seg.terms.text
	secs[secTermEnds] = asBytes(seg.terms.ends)
	terms := termDict{text: seg.terms.text, ends: seg.terms.ends, hash: h}
	size := termDictSize(terms.Len())
	terms.slots, terms.mask = make([]uint32, size), uint64(size-1)
	for id := range terms.ends {
		i := h.bytes(terms.term(uint32(id))) & terms.mask
		for terms.slots[i] != 0 {
			i = (i + 1) & terms.mask
		}
		terms.slots[i] = uint32(id) + 1
	}
	secs[secTermSlots] = asBytes(terms.slots)
	secs[secPDocs] = asBytes(seg.pdocs)
	secs[secPTfs] = seg.ptfs
	secs[secStarts] = asBytes(seg.starts)
	secs[secBigPos] = asBytes(seg.bigTF.pos)
	secs[secBigTF] = asBytes(seg.bigTF.tf)

	keys := newKeyTable(n)
	keys.hash = h
	for i := range seg.docs {
		keys.add(seg.docs, uint32(i))
	}
	secs[secKeySlots] = asBytes(keys.slots)
	names := segment{docs: seg.docs}
	names.indexNamesWith(h)
	secs[secNameSlots] = asBytes(names.names.slots)
	secs[secNameDups] = appendNameDups(nil, names.names.dups, seg.docs)

	secs[secLongIDs] = asBytes(seg.longIDs)
	secs[secBounds] = asBytes(seg.bounds)
	secs[secBlocks] = asBytes(seg.blocks)

	table := 8 + 16*secCount
	total := persistHeader + table
	for _, sec := range secs {
		total = align8(total) + len(sec)
	}
	b := make([]byte, persistHeader+table, total)
	le := binary.LittleEndian
	le.PutUint32(b[persistHeader:], secCount)
	for i, sec := range secs {
		b = b[:align8(len(b))]
		at := persistHeader + 8 + 16*i
		le.PutUint64(b[at:], uint64(len(b)-persistHeader))
		le.PutUint64(b[at+8:], uint64(len(sec)))
		b = append(b, sec...)
	}
	copy(b, persistMagic)
	le.PutUint32(b[8:], PersistVersion)
	le.PutUint32(b[12:], crc32.Checksum(b[persistHeader:], castagnoli))
	le.PutUint64(b[16:], uint64(len(b)-persistHeader))
	return b
}

func align8(n int) int { return (n + 7) &^ 7 }

// asBytes is the memory of s, which holds no pointers.
func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}

// appendNameDups encodes the name table's shared names, in ord order of
// their first holder.
func appendNameDups(b []byte, dups map[string][]uint32, docs []Doc) []byte {
	lists := make([][]uint32, 0, len(dups))
	for _, ords := range dups {
		lists = append(lists, ords)
	}
	slices.SortFunc(lists, func(a, b []uint32) int { return int(a[0]) - int(b[0]) })
	b = binary.AppendUvarint(b, uint64(len(lists)))
	for _, ords := range lists {
		b = binary.AppendUvarint(b, uint64(len(ords)))
		prev := uint32(0)
		for _, o := range ords {
			b = binary.AppendUvarint(b, uint64(o-prev))
			prev = o
		}
	}
	return b
}

// alignedCopy returns a copy of data whose first byte is 8-aligned, as
// Open needs (bytes of an int64 slice).
func alignedCopy(data []byte) []byte {
	words := make([]uint64, (len(data)+7)/8)
	b := asBytes(words)[:len(data)]
	copy(b, data)
	return b
}

// Open returns the snapshot persisted in data (as Encode made it),
// checked as Decode checks it, without copying it: the snapshot's
// posting lists, tables and documents' strings point into data. data
// must start at a multiple of 8 in memory and must stay readable and
// unchanged for as long as the snapshot, any snapshot made from it (With,
// Without) or any string of its documents is in use; a memory-mapped file
// that is never unmapped or rewritten in place does. Decode is Open on a
// copy.
//
// release, unless nil, is called with parts of data that Open has read
// and does not need again soon (most of it: the checksum reads it all),
// so that a caller whose data is a memory mapping can drop them from the
// process's resident set; they must stay readable.
func Open(data []byte, tok *Analyzer, rev uint64, release func(read []byte)) (s *Snapshot, meta []byte, err error) {
	return open(data, tok, rev, release, false)
}

// OpenChecked is Open of a copy that Open accepted before, byte for byte,
// as its caller vouches (bolt: a record that the very copy was checked in
// the very state its file is in, store.CheckedIndexMapper). It reads the
// header, the section table, the counts and the document records, as
// Open does, but not the rest of the copy: the checksum of the whole
// payload, the check of every posting, tf, table slot and list bound are
// skipped, which is most of a load's time and all of its reading of the
// postings (docs/performance.md, "A checked copy is trusted"). A copy
// that is damaged yet vouched for may answer wrongly or crash the
// process: vouch only for bytes that cannot have changed since.
func OpenChecked(data []byte, tok *Analyzer, rev uint64, release func(read []byte)) (s *Snapshot, meta []byte, err error) {
	return open(data, tok, rev, release, true)
}

func open(data []byte, tok *Analyzer, rev uint64, release func(read []byte), checked bool) (s *Snapshot, meta []byte, err error) {
	if release == nil {
		release = func([]byte) {}
	}
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
	if !littleEndian {
		return fail("this machine is big-endian")
	}
	if uintptr(unsafe.Pointer(unsafe.SliceData(data)))%8 != 0 {
		return fail("data not 8-aligned in memory")
	}
	if !checked {
		crc := uint32(0)
		for rest := payload; len(rest) > 0; {
			chunk := rest[:min(len(rest), releaseChunk)]
			crc = crc32.Update(crc, castagnoli, chunk)
			release(chunk)
			rest = rest[len(chunk):]
		}
		if crc != binary.LittleEndian.Uint32(data[12:]) {
			return fail("checksum mismatch")
		}
	}
	secs, err := sections(payload)
	if err != nil {
		return fail("%v", err)
	}
	o := opener{secs: secs, release: release, checked: checked}
	seg, gotRev, name, meta := o.segment()
	switch {
	case o.err != nil:
		return fail("%v", o.err)
	case gotRev != rev:
		return fail("built at revision %d, store is at %d", gotRev, rev)
	case name != tok.Name():
		return fail("built with analyzer %q, want %q", name, tok.Name())
	}
	release(data)
	return &Snapshot{rev: rev, tok: tok, base: seg, n: len(seg.docs), totalLen: seg.totalLen}, meta, nil
}

// sections cuts payload into its sections.
func sections(payload []byte) ([][]byte, error) {
	le := binary.LittleEndian
	if len(payload) < 8+16*secCount || le.Uint32(payload) != secCount || le.Uint32(payload[4:]) != 0 {
		return nil, errors.New("section table damaged")
	}
	secs := make([][]byte, secCount)
	for i := range secs {
		off, n := le.Uint64(payload[8+16*i:]), le.Uint64(payload[16+16*i:])
		if off%8 != 0 || off < uint64(8+16*secCount) || off > uint64(len(payload)) || n > uint64(len(payload))-off {
			return nil, fmt.Errorf("section %d out of range", i)
		}
		secs[i] = payload[off : off+n : off+n]
	}
	return secs, nil
}

// opener reads a copy's sections into a segment; the first error sticks.
type opener struct {
	secs    [][]byte
	release func([]byte)
	err     error
	checked bool // the copy was checked whole before (OpenChecked)
}

// releaseChunk is how much of a long section Open reads before it
// releases it.
const releaseChunk = 4 << 20

func (o *opener) fail(format string, args ...any) {
	if o.err == nil {
		o.err = fmt.Errorf(format, args...)
	}
}

// records reads section id, of uvarint records, with read, refusing
// bytes read leaves over; what names the section in an error.
func (o *opener) records(id int, what string, read func(r *reader)) {
	r := reader{b: o.secs[id]}
	read(&r)
	if r.err == nil && len(r.b) != 0 {
		r.err = errors.New("trailing bytes")
	}
	if r.err != nil {
		o.fail("%s: %v", what, r.err)
	}
}

// fixed returns section id as a slice of n values of T, in place.
func fixed[T any](o *opener, id int, n uint64) []T {
	var zero T
	size := uint64(unsafe.Sizeof(zero))
	b := o.secs[id]
	if o.err != nil || n > math.MaxInt32*4 || uint64(len(b)) != n*size {
		o.fail("section %d: %d bytes for %d values of %d", id, len(b), n, size)
		return nil
	}
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

func (o *opener) segment() (seg *segment, rev uint64, analyzer string, meta []byte) {
	r := reader{b: o.secs[secMeta]}
	rev = r.uvarint()
	analyzer = r.str()
	meta = []byte(r.str())
	var c [7]uint64
	for i := range c {
		c[i] = r.uvarint()
	}
	if r.err != nil || len(r.b) != 0 {
		o.fail("meta section damaged")
		return nil, 0, "", nil
	}
	n, nt, np, totalLen, seed, nbig, nlong := c[0], c[1], c[2], c[3], c[4], c[5], c[6]
	if n >= math.MaxInt32 || nt >= math.MaxInt32 || np >= math.MaxUint32 {
		o.fail("counts out of range")
		return nil, 0, "", nil
	}
	h := strHasher{fixed: true, seed: seed}
	seg = &segment{totalLen: totalLen}
	ends := fixed[uint32](o, secDocEnds, 3*n)
	est := fixed[uint32](o, secEst, n)
	seg.lens = fixed[uint32](o, secLens, n)
	seg.dateAt = fixed[int64](o, secDateAt, n)
	seg.dateKind = fixed[uint8](o, secDateKind, n)
	seg.terms.text = o.secs[secTermText]
	seg.terms.ends = fixed[uint32](o, secTermEnds, nt)
	seg.terms.slots = o.table(secTermSlots, nt, h)
	seg.terms.hash = h
	seg.pdocs = fixed[uint32](o, secPDocs, np)
	seg.ptfs = fixed[uint8](o, secPTfs, np)
	seg.starts = fixed[uint32](o, secStarts, nt+1)
	seg.bigTF.pos = fixed[uint32](o, secBigPos, nbig)
	seg.bigTF.tf = fixed[uint32](o, secBigTF, nbig)
	seg.keys.slots = o.table(secKeySlots, n, h)
	seg.keys.hash = h
	seg.names.slots = o.table(secNameSlots, n, h)
	seg.names.hash = h
	seg.longIDs = fixed[uint32](o, secLongIDs, nlong)
	seg.bounds = fixed[termBound](o, secBounds, nlong)
	seg.blocks = fixed[block](o, secBlocks, uint64(len(o.secs[secBlocks]))/12)
	if o.err != nil {
		return nil, 0, "", nil
	}
	seg.terms.mask = uint64(len(seg.terms.slots) - 1)
	seg.keys.mask = uint64(len(seg.keys.slots) - 1)
	seg.names.mask = uint64(len(seg.names.slots) - 1)
	o.docs(seg, ends, est)
	o.termsAndPostings(seg)
	o.bounds(seg)
	if o.err != nil {
		return nil, 0, "", nil
	}
	o.records(secExtras, "extras", func(r *reader) { seg.extra = r.extras(len(seg.docs)) })
	o.records(secAliases, "aliases", func(r *reader) { seg.aliases = r.aliases(len(seg.docs)) })
	o.records(secTitles, "titles", func(r *reader) { seg.titles = r.titles(len(seg.docs)) })
	o.records(secDups, "duplicates", func(r *reader) { seg.dup = r.dups(len(seg.docs)) })
	o.nameDups(seg)
	return seg, rev, analyzer, meta
}

// table returns a table section of slots for n keys (termDictSize(n)
// slots of id+1) after checking every slot is 0 or an id+1 below n.
func (o *opener) table(id int, n uint64, h strHasher) []uint32 {
	size := uint64(termDictSize(int(min(n, math.MaxInt32))))
	slots := fixed[uint32](o, id, size)
	if o.checked {
		return slots
	}
	for _, v := range slots {
		if uint64(v&^nameShared) > n || id != secNameSlots && v&nameShared != 0 {
			o.fail("section %d: slot out of range", id)
			return nil
		}
	}
	return slots
}

// docs makes the document records, their strings in secDocText, and
// checks their order (segment.docs is in identity order) and dates.
func (o *opener) docs(seg *segment, ends, est []uint32) {
	ids, content := o.secs[secIDText], o.secs[secContent]
	n := len(est)
	seg.docs = make([]Doc, n)
	idAt, contentAt := uint32(0), uint32(0)
	str := func(text []byte, start *uint32, end uint32) string {
		if end < *start || uint64(end) > uint64(len(text)) {
			o.fail("document text out of range")
			return ""
		}
		s := unsafe.String(unsafe.SliceData(text[*start:]), end-*start)
		*start = end
		return s
	}
	for i := 0; i < n && o.err == nil; i++ {
		d := &seg.docs[i]
		d.Category, d.Name = str(ids, &idAt, ends[3*i]), str(ids, &idAt, ends[3*i+1])
		d.Content = str(content, &contentAt, ends[3*i+2])
		d.ord, d.est = int32(i), est[i]
		if i > 0 && compareIdentity(seg.docs[i-1], *d) >= 0 {
			o.fail("documents out of identity order")
		}
		switch k := seg.dateKind[i]; {
		case k == dateNone && seg.dateAt[i] != 0:
			o.fail("a date without a kind")
		case k > dateWritten:
			o.fail("unknown date kind %d", k)
		}
	}
	if o.err == nil && (uint64(idAt) != uint64(len(ids)) || uint64(contentAt) != uint64(len(content))) {
		o.fail("document text left over")
	}
	total := uint64(0)
	for _, l := range seg.lens {
		total += uint64(l)
	}
	if o.err == nil && total != seg.totalLen {
		o.fail("document lengths do not add up")
	}
}

// termsAndPostings checks the term texts and every posting list: ends
// ascending within the text, lists in order within the arrays, docs
// strictly ascending and below the document count, tfs not zero, and the
// escaped tfs exactly those in bigTF.
func (o *opener) termsAndPostings(seg *segment) {
	if o.err != nil {
		return
	}
	prev := uint32(0)
	for _, e := range seg.terms.ends {
		if e < prev || uint64(e) > uint64(len(seg.terms.text)) {
			o.fail("term text out of range")
			return
		}
		prev = e
	}
	if uint64(prev) != uint64(len(seg.terms.text)) {
		o.fail("term text left over")
		return
	}
	if seg.starts[0] != 0 || seg.starts[len(seg.starts)-1] != uint32(len(seg.pdocs)) {
		o.fail("postings out of range")
		return
	}
	if o.checked {
		return
	}
	o.termTable(&seg.terms)
	if o.err != nil {
		return
	}
	nd := uint32(len(seg.docs))
	// The tfs: none zero, and the escaped ones exactly those bigTF lists
	// (ascending positions), found with byte scans rather than a test per
	// posting.
	escaped := 0
	for rest := seg.ptfs; len(rest) > 0; {
		chunk := rest[:min(len(rest), releaseChunk)]
		if bytes.IndexByte(chunk, 0) >= 0 {
			o.fail("a zero tf")
			return
		}
		escaped += bytes.Count(chunk, []byte{tfEscape})
		o.release(chunk)
		rest = rest[len(chunk):]
	}
	if escaped != len(seg.bigTF.pos) {
		o.fail("escaped tfs not in the table")
		return
	}
	for i, p := range seg.bigTF.pos {
		if p >= uint32(len(seg.ptfs)) || seg.ptfs[p] != tfEscape || seg.bigTF.tf[i] < tfEscape || i > 0 && p <= seg.bigTF.pos[i-1] {
			o.fail("escaped tf not in the table")
			return
		}
	}
	released := uint32(0) // postings before it were released
	for id := range seg.nTerms() {
		a, b := seg.starts[id], seg.starts[id+1]
		if a-released >= releaseChunk/4 {
			o.release(asBytes(seg.pdocs[released:a]))
			released = a
		}
		if b <= a || b > uint32(len(seg.pdocs)) {
			o.fail("postings out of range")
			return
		}
		docs := seg.pdocs[a:b]
		if docs[len(docs)-1] >= nd {
			o.fail("posting out of range")
			return
		}
		prev := docs[0]
		for _, d := range docs[1:] {
			if d <= prev {
				o.fail("postings out of order")
				return
			}
			prev = d
		}
	}
}

// bounds checks the long lists' bounds: one per list longer than a block,
// in term order, each with its list's blocks.
func (o *opener) bounds(seg *segment) {
	if o.err != nil || o.checked {
		return
	}
	next := uint32(0)
	k := 0
	for id := range seg.nTerms() {
		n := seg.listLen(uint32(id))
		if n <= blockSize {
			continue
		}
		if k >= len(seg.longIDs) || seg.longIDs[k] != uint32(id) {
			o.fail("long lists damaged")
			return
		}
		tb := seg.bounds[k]
		if tb.blk != next || tb.nblk != uint32((n+blockSize-1)/blockSize) || uint64(tb.blk)+uint64(tb.nblk) > uint64(len(seg.blocks)) {
			o.fail("block bounds damaged")
			return
		}
		next += tb.nblk
		k++
	}
	if k != len(seg.longIDs) || next != uint32(len(seg.blocks)) {
		o.fail("block bounds left over")
	}
}

// nameDups reads the shared names of the name table.
func (o *opener) nameDups(seg *segment) {
	if o.err != nil {
		return
	}
	r := reader{b: o.secs[secNameDups]}
	nd := r.count(2)
	if nd > 0 {
		seg.names.dups = make(map[string][]uint32, nd)
	}
	for i := 0; i < nd && r.err == nil; i++ {
		k := r.count(1)
		if k < 2 {
			r.err = errors.New("a shared name held once")
			break
		}
		ords := make([]uint32, k)
		prev := uint64(0)
		for j := range ords {
			prev += r.uvarint()
			if prev >= uint64(len(seg.docs)) || j > 0 && uint64(ords[j-1]) >= prev {
				r.err = errors.New("name ord out of range")
				break
			}
			ords[j] = uint32(prev)
		}
		if r.err != nil {
			break
		}
		name := seg.docs[ords[0]].Name
		for _, ord := range ords[1:] {
			if seg.docs[ord].Name != name {
				r.err = errors.New("shared name differs")
			}
		}
		slot, found := seg.names.find(seg.docs, name)
		if r.err == nil && (!found || seg.names.slots[slot] != (ords[0]+1)|nameShared) {
			r.err = errors.New("shared name not in the table")
		}
		seg.names.dups[name] = ords
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errors.New("trailing bytes")
	}
	if r.err != nil {
		o.fail("names: %v", r.err)
	}
}

// termTable checks the laid-out term table's structure: each term id in
// exactly one slot. That its terms are where their hashes lead (a lookup
// finds each one) is left to the checksum, with the rest of what Encode
// wrote: checking it costs a hash and a random read per term (15–20 ms
// at 100k entries, more than the rest of a load), what this layout
// exists to spare. A table that is wrong under a right checksum answers
// some terms wrongly but never panics.
func (o *opener) termTable(d *termDict) {
	seen := make([]uint64, (d.Len()+63)/64)
	found := 0
	for _, v := range d.slots {
		if v == 0 {
			continue
		}
		id := v - 1
		if seen[id/64]&(1<<(id%64)) != 0 {
			o.fail("term table damaged")
			return
		}
		seen[id/64] |= 1 << (id % 64)
		found++
	}
	if found != d.Len() {
		o.fail("term table damaged")
	}
}
