package bolt

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"slices"
	"time"

	"github.com/recallhq/recall/store"
)

// errCorrupt is wrapped by every failure to decode an entry's key or
// value, so a caller of decodeValue can tell a damaged record from other
// trouble. Its message is store.ErrCorrupt's ("damaged"), and it wraps both
// store.ErrCorrupt and store.ErrUnreadable: the record is damaged, and it
// concerns that one entry, which callers skip.
var errCorrupt error = damagedEntry{}

type damagedEntry struct{}

func (damagedEntry) Error() string   { return store.ErrCorrupt.Error() }
func (damagedEntry) Unwrap() []error { return []error{store.ErrCorrupt, store.ErrUnreadable} }

// Keys of the entries bucket are category + NUL + name. Validation forbids
// NUL in both, so the split is unambiguous, and bbolt's byte order groups the
// entries of a category together.
func encodeKey(category, name string) []byte {
	k := make([]byte, 0, len(category)+1+len(name))
	k = append(k, category...)
	k = append(k, 0)
	return append(k, name...)
}

func decodeKey(k []byte) (category, name string, err error) {
	i := bytes.IndexByte(k, 0)
	if i <= 0 || i == len(k)-1 {
		return "", "", fmt.Errorf("%w: key %q is not category NUL name", errCorrupt, k)
	}
	return string(k[:i]), string(k[i+1:]), nil
}

// Value layout, version 3. It is binary rather than JSON because building an
// index reads every value, and most entries carry only timestamps:
//
//	byte     version (3)
//	uvarint  len(content), then content
//	byte     flags: which of the optional fields below follow
//	created  varint Unix seconds, uvarint nanoseconds   (flagCreated)
//	updated  varint Unix seconds, uvarint nanoseconds   (flagUpdated)
//	tags     uvarint count, then per tag uvarint len + bytes (flagTags)
//	extra    uvarint len, then a JSON object            (flagExtra)
//	date     varint Unix seconds, uvarint nanoseconds   (flagDate)
//	uint32   LE CRC-32C (Castagnoli) of the key, then of every byte above
//
// bbolt checksums nothing but its meta pages, so the CRC is what catches a
// damaged value, and since it covers the key, a damaged key too (a flipped
// bit would otherwise move the entry to another identity). Version 1 was
// the same without the CRC and version 2 without the date; files holding
// them (FormatVersion 1 and 2) are migrated by Open.
//
// Times keep their instant, not their location: they decode in UTC.
const (
	valueVersion   = 3
	valueVersionV2 = 2
	valueVersionV1 = 1
	crcSize        = 4
)

const (
	flagCreated = 1 << iota
	flagUpdated
	flagTags
	flagExtra
	flagDate
	flagsKnown = flagCreated | flagUpdated | flagTags | flagExtra | flagDate
	// flagsKnownOld are the flags of versions 1 and 2.
	flagsKnownOld = flagCreated | flagUpdated | flagTags | flagExtra
)

// encodeValue encodes content and meta as the value stored under key. It
// fails only when meta.Extra cannot be represented as JSON (a channel, a
// NaN, …).
func encodeValue(key []byte, content string, m store.Meta) ([]byte, error) {
	extra, err := marshalExtra(m.Extra)
	if err != nil {
		return nil, err
	}
	return appendValue(nil, key, content, m, extra), nil
}

// marshalExtra encodes Meta.Extra for appendValue; nil when it is empty.
func marshalExtra(extra map[string]any) ([]byte, error) {
	if len(extra) == 0 {
		return nil, nil
	}
	return json.Marshal(extra)
}

// appendValue appends the record of content and m, stored under key, to b,
// with extra (from marshalExtra) standing in for m.Extra.
func appendValue(b, key []byte, content string, m store.Meta, extra []byte) []byte {
	start := len(b)
	b = appendBody(b, valueVersion, content, m, extra)
	sum := crc32.Update(crc32.Checksum(key, castagnoli), castagnoli, b[start:])
	return binary.LittleEndian.AppendUint32(b, sum)
}

// appendBody appends the version byte and the fields of a record.
func appendBody(b []byte, version byte, content string, m store.Meta, extra []byte) []byte {
	var flags byte
	size := 1 + binary.MaxVarintLen64 + len(content) + 1 + crcSize
	if !m.Created.IsZero() {
		flags |= flagCreated
		size += 2 * binary.MaxVarintLen64
	}
	if !m.Updated.IsZero() {
		flags |= flagUpdated
		size += 2 * binary.MaxVarintLen64
	}
	if len(m.Tags) > 0 {
		flags |= flagTags
		size += binary.MaxVarintLen64
		for _, t := range m.Tags {
			size += binary.MaxVarintLen64 + len(t)
		}
	}
	if extra != nil {
		flags |= flagExtra
		size += binary.MaxVarintLen64 + len(extra)
	}
	if !m.Date.IsZero() && version == valueVersion {
		flags |= flagDate
		size += 2 * binary.MaxVarintLen64
	}

	b = slices.Grow(b, size)
	b = append(b, version)
	b = binary.AppendUvarint(b, uint64(len(content)))
	b = append(b, content...)
	b = append(b, flags)
	if flags&flagCreated != 0 {
		b = appendTime(b, m.Created)
	}
	if flags&flagUpdated != 0 {
		b = appendTime(b, m.Updated)
	}
	if flags&flagTags != 0 {
		b = binary.AppendUvarint(b, uint64(len(m.Tags)))
		for _, t := range m.Tags {
			b = binary.AppendUvarint(b, uint64(len(t)))
			b = append(b, t...)
		}
	}
	if flags&flagExtra != 0 {
		b = binary.AppendUvarint(b, uint64(len(extra)))
		b = append(b, extra...)
	}
	if flags&flagDate != 0 {
		b = appendTime(b, m.Date)
	}
	return b
}

func appendTime(b []byte, t time.Time) []byte {
	b = binary.AppendVarint(b, t.Unix())
	return binary.AppendUvarint(b, uint64(t.Nanosecond()))
}

// decodeValue is the inverse of encodeValue: it checks the CRC against key
// and the record, then decodes it. Every string it returns is a copy, so b
// may be memory that bbolt reclaims when its transaction ends. Arbitrary
// input yields an error wrapping errCorrupt, never a panic or an
// allocation larger than b suggests.
func decodeValue(key, b []byte) (content string, m store.Meta, err error) {
	body, err := checkValue(key, b)
	if err != nil {
		return "", store.Meta{}, err
	}
	return decodeBody(body, valueVersion)
}

// checkValue verifies a record's CRC and returns the record without it.
func checkValue(key, b []byte) ([]byte, error) {
	if len(b) < 1+crcSize {
		return nil, fmt.Errorf("%w: record of %d bytes", errCorrupt, len(b))
	}
	body := b[:len(b)-crcSize]
	want := binary.LittleEndian.Uint32(b[len(body):])
	if crc32.Update(crc32.Checksum(key, castagnoli), castagnoli, body) != want {
		if body[0] == valueVersionV1 {
			return nil, fmt.Errorf("%w: record in the old format version 1 (no checksum) in a migrated file", errCorrupt)
		}
		return nil, fmt.Errorf("%w: checksum mismatch", errCorrupt)
	}
	return body, nil
}

// decodeValueV1 decodes a record of format version 1 (no CRC); only the
// migration of old files reads them.
func decodeValueV1(b []byte) (content string, m store.Meta, err error) {
	return decodeBody(b, valueVersionV1)
}

// decodeValueV2 decodes a record of format version 2 (CRC, no date); only
// the migration of old files reads them.
func decodeValueV2(key, b []byte) (content string, m store.Meta, err error) {
	body, err := checkValue(key, b)
	if err != nil {
		return "", store.Meta{}, err
	}
	return decodeBody(body, valueVersionV2)
}

// decodeBody decodes a record without its CRC.
func decodeBody(b []byte, version byte) (content string, m store.Meta, err error) {
	d := decoder{b: b}
	if v := d.byte(); d.err == nil && v != version {
		return "", store.Meta{}, fmt.Errorf("%w: unknown value version %d", errCorrupt, v)
	}
	content = string(d.bytes())
	flags := d.byte()
	known := byte(flagsKnown)
	if version != valueVersion {
		known = flagsKnownOld
	}
	if d.err == nil && flags&^known != 0 {
		return "", store.Meta{}, fmt.Errorf("%w: unknown flags %#x", errCorrupt, flags)
	}
	if flags&flagCreated != 0 {
		m.Created = d.time()
	}
	if flags&flagUpdated != 0 {
		m.Updated = d.time()
	}
	if flags&flagTags != 0 {
		n := d.uvarint()
		// Each tag takes at least one byte, which bounds the allocation.
		if d.err == nil && n > uint64(len(d.b)) {
			d.fail("tag count %d exceeds the record", n)
		}
		if d.err == nil && n > 0 {
			m.Tags = make([]string, n)
			for i := range m.Tags {
				m.Tags[i] = string(d.bytes())
			}
		}
	}
	if flags&flagExtra != 0 {
		raw := d.bytes()
		if d.err == nil {
			m.Extra, err = decodeExtra(raw)
			if err != nil {
				return "", store.Meta{}, err
			}
		}
	}
	if flags&flagDate != 0 {
		m.Date = d.time()
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d trailing bytes", len(d.b))
	}
	if d.err != nil {
		return "", store.Meta{}, d.err
	}
	return content, m, nil
}

// decodeCreated returns only the creation time of a record, skipping the
// content without copying it; Put uses it to keep the time of the entry it
// replaces. A record that fails its checksum yields an error.
func decodeCreated(key, b []byte) (time.Time, error) {
	body, err := checkValue(key, b)
	if err != nil {
		return time.Time{}, err
	}
	d := decoder{b: body}
	if v := d.byte(); d.err == nil && v != valueVersion {
		return time.Time{}, fmt.Errorf("%w: unknown value version %d", errCorrupt, v)
	}
	d.bytes()
	var t time.Time
	if flags := d.byte(); flags&flagCreated != 0 {
		t = d.time()
	}
	return t, d.err
}

// decodeExtra decodes the JSON object of Meta.Extra. Numbers come back as int
// when they are whole and fit, else as float64, so that a tag like
// "rating: 5" reads back as 5 and not 5.0 and decoding twice is stable.
func decodeExtra(raw []byte) (map[string]any, error) {
	if !json.Valid(raw) {
		return nil, fmt.Errorf("%w: metadata is not valid JSON", errCorrupt)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var extra map[string]any
	if err := dec.Decode(&extra); err != nil {
		return nil, fmt.Errorf("%w: metadata: %v", errCorrupt, err)
	}
	for k, v := range extra {
		extra[k] = store.NormaliseNumbers(v)
	}
	if len(extra) == 0 {
		return nil, nil
	}
	return extra, nil
}

// decoder reads fields from a record; after the first failure every read
// returns a zero value and err keeps that first failure.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: "+format, append([]any{errCorrupt}, args...)...)
	}
	d.b = nil
}

func (d *decoder) byte() byte {
	if d.err != nil {
		return 0
	}
	if len(d.b) == 0 {
		d.fail("truncated")
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("bad uvarint")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.b = d.b[n:]
	return v
}

// bytes reads a uvarint length and that many bytes. The result aliases the
// input; callers copy it (string conversion does).
func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.fail("length %d exceeds the %d bytes left", n, len(d.b))
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) time() time.Time {
	sec := d.varint()
	nsec := d.uvarint()
	if d.err != nil {
		return time.Time{}
	}
	if nsec >= uint64(time.Second) {
		d.fail("nanoseconds %d out of range", nsec)
		return time.Time{}
	}
	t := time.Unix(sec, int64(nsec)).UTC()
	if t.IsZero() {
		return time.Time{}
	}
	return t
}
