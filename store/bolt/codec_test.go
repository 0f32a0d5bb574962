package bolt

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/recallhq/recall/store"
)

// testKey is the key the records of these tests are stored under; the
// CRC covers it.
var testKey = encodeKey("c", "n")

// withCRC completes a record body (version byte and fields) with the CRC
// of testKey and the body, as appendValue does.
func withCRC(body []byte) []byte {
	sum := crc32.Update(crc32.Checksum(testKey, castagnoli), castagnoli, body)
	return binary.LittleEndian.AppendUint32(bytes.Clone(body), sum)
}

func sameMeta(a, b store.Meta) bool {
	return reflect.DeepEqual(a.Tags, b.Tags) && a.Created.Equal(b.Created) && a.Updated.Equal(b.Updated) &&
		a.Date.Equal(b.Date) && reflect.DeepEqual(a.Extra, b.Extra)
}

func TestValueRoundTrip(t *testing.T) {
	cases := []struct {
		name    string
		content string
		meta    store.Meta
	}{
		{"empty", "", store.Meta{}},
		{"content only", "Alice likes the sea.", store.Meta{}},
		{"large content", strings.Repeat("海边玩 ", 50000), store.Meta{}},
		{"times", "x", store.Meta{
			Created: time.Date(2024, 3, 1, 9, 30, 0, 123456789, time.UTC),
			Updated: time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC),
		}},
		{"pre-1970 and far future", "x", store.Meta{
			Created: time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
			Updated: time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		}},
		{"tags", "x", store.Meta{Tags: []string{"travel", "海边", ""}}},
		{"extra", "x", store.Meta{Extra: map[string]any{
			"mood":   "sunny",
			"rating": 5,
			"score":  0.25,
			"ok":     true,
			"none":   nil,
			"list":   []any{"a", 1, 2.5},
			"nested": map[string]any{"big": 1 << 60, "html": "<a&b>"},
		}}},
		{"everything", "body\x00with NUL", store.Meta{
			Tags:    []string{"a"},
			Created: time.Unix(1700000000, 0).UTC(),
			Updated: time.Unix(1700000001, 0).UTC(),
			Extra:   map[string]any{"k": "v"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := encodeValue(testKey, tc.content, tc.meta)
			if err != nil {
				t.Fatal(err)
			}
			content, meta, err := decodeValue(testKey, b)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if content != tc.content {
				t.Errorf("content = %.40q, want %.40q", content, tc.content)
			}
			if !sameMeta(meta, tc.meta) {
				t.Errorf("meta = %#v, want %#v", meta, tc.meta)
			}
			created, err := decodeCreated(testKey, b)
			if err != nil || !created.Equal(tc.meta.Created) {
				t.Errorf("decodeCreated = %v, %v; want %v", created, err, tc.meta.Created)
			}
		})
	}
}

// Times keep their instant but come back in UTC.
func TestValueTimeZone(t *testing.T) {
	cst := time.FixedZone("CST", 8*3600)
	in := time.Date(2024, 3, 1, 17, 30, 0, 0, cst)
	b, err := encodeValue(testKey, "x", store.Meta{Created: in})
	if err != nil {
		t.Fatal(err)
	}
	_, m, err := decodeValue(testKey, b)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Created.Equal(in) || m.Created.Location() != time.UTC {
		t.Fatalf("created = %v, want %v in UTC", m.Created, in.UTC())
	}
}

// The record layout is part of the file format: changing it needs a new
// valueVersion (and FormatVersion), not a silent edit.
func TestValueLayoutPinned(t *testing.T) {
	cases := []struct {
		content string
		meta    store.Meta
		hex     string
	}{
		// version 3, len 2, "hi", flags 0
		{"hi", store.Meta{}, "03026869" + "00"},
		// flags created|tags; created = zigzag(1)=2, nanos 5; 1 tag "t"
		{"hi", store.Meta{Created: time.Unix(1, 5), Tags: []string{"t"}}, "03026869" + "05" + "0205" + "010174"},
		// flags updated|extra; updated = zigzag(-1)=1, nanos 0; extra {"a":1}
		{"", store.Meta{Updated: time.Unix(-1, 0), Extra: map[string]any{"a": 1}}, "0300" + "0a" + "0100" + "07" + hex.EncodeToString([]byte(`{"a":1}`))},
		// flags created|date; created = zigzag(1)=2, nanos 0; date = zigzag(2)=4, nanos 7
		{"", store.Meta{Created: time.Unix(1, 0), Date: time.Unix(2, 7)}, "0300" + "11" + "0200" + "0407"},
	}
	for _, tc := range cases {
		b, err := encodeValue(testKey, tc.content, tc.meta)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := hex.DecodeString(tc.hex)
		// The CRC-32C of "c\x00n" followed by the body, little-endian.
		sum := crc32.Update(crc32.Checksum([]byte("c\x00n"), crc32.MakeTable(crc32.Castagnoli)), crc32.MakeTable(crc32.Castagnoli), body)
		want := tc.hex + hex.EncodeToString(binary.LittleEndian.AppendUint32(nil, sum))
		if got := hex.EncodeToString(b); got != want {
			t.Errorf("encodeValue(%q, %+v) = %s, want %s", tc.content, tc.meta, got, want)
		}
	}
}

// The CRC covers the key and every byte: any single flipped bit, in the
// value or in the key, is caught (issue 9: silent corruption).
func TestValueChecksum(t *testing.T) {
	b, err := encodeValue(testKey, "Alice likes the sea.", store.Meta{Created: time.Unix(1700000000, 0), Tags: []string{"t"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range b {
		for bit := range 8 {
			c := bytes.Clone(b)
			c[i] ^= 1 << bit
			if _, _, err := decodeValue(testKey, c); !errors.Is(err, store.ErrCorrupt) {
				t.Fatalf("flip of bit %d of byte %d: err = %v, want ErrCorrupt", bit, i, err)
			}
		}
	}
	for i := range testKey {
		k := bytes.Clone(testKey)
		k[i] ^= 1
		if _, _, err := decodeValue(k, b); !errors.Is(err, store.ErrCorrupt) {
			t.Fatalf("flip in key byte %d: err = %v, want ErrCorrupt", i, err)
		}
	}
}

func TestExtraNumbers(t *testing.T) {
	cases := []struct {
		json string
		want any
	}{
		{`5`, 5},
		{`-0`, 0},
		{`2.0`, 2},
		{`2.5`, 2.5},
		{`9007199254740993`, 9007199254740993}, // beyond float64 precision, kept exactly
		{`1e20`, 1e20},
		{`1e400`, "1e400"}, // beyond float64 range: kept as written
		{`"5"`, "5"},
		{`[1, 1.5]`, []any{1, 1.5}},
	}
	for _, tc := range cases {
		extra, err := decodeExtra([]byte(`{"v":` + tc.json + `}`))
		if err != nil {
			t.Fatalf("%s: %v", tc.json, err)
		}
		if got := extra["v"]; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s decoded as %#v (%T), want %#v (%T)", tc.json, got, got, tc.want, tc.want)
		}
	}
}

func TestDecodeValueCorrupt(t *testing.T) {
	valid, err := encodeValue(testKey, "hello", store.Meta{Created: time.Unix(1, 0), Tags: []string{"a"}, Extra: map[string]any{"k": 1}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"shorter than a CRC", []byte{3, 0, 0}},
		{"bad CRC", append([]byte{3, 0, 0}, 0, 0, 0, 0)},
		{"version 1 record", withCRC([]byte{1, 0, 0})},
		{"version 2 record in a migrated file", withCRC([]byte{2, 0, 0})},
		{"unknown version", withCRC([]byte{4, 0, 0})},
		{"missing flags", withCRC([]byte{3, 0})},
		{"content longer than record", withCRC([]byte{3, 9, 'a', 0})},
		{"varint overflow", withCRC([]byte{3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})},
		{"huge content length", withCRC(binary.AppendUvarint([]byte{3}, 1<<40))},
		{"unknown flag", withCRC([]byte{3, 0, 0x20})},
		{"truncated date", withCRC([]byte{3, 0, flagDate, 2})},
		{"truncated time", withCRC([]byte{3, 0, flagCreated, 2})},
		{"nanoseconds out of range", withCRC(binary.AppendUvarint([]byte{3, 0, flagCreated, 2}, 1e9))},
		{"tag count exceeds record", withCRC([]byte{3, 0, flagTags, 100, 1, 'a'})},
		{"extra not JSON", withCRC([]byte{3, 0, flagExtra, 3, 'a', 'b', 'c'})},
		{"extra not an object", withCRC([]byte{3, 0, flagExtra, 3, '[', '1', ']'})},
		{"trailing bytes", withCRC(append(bytes.Clone(valid[:len(valid)-crcSize]), 0))},
		{"truncated", valid[:len(valid)-1]},
	}
	for _, tc := range cases {
		_, _, err := decodeValue(testKey, tc.b)
		if !errors.Is(err, errCorrupt) {
			t.Errorf("%s: err = %v, want errCorrupt", tc.name, err)
		}
	}
}

func TestEncodeValueRejectsUnrepresentableExtra(t *testing.T) {
	for _, v := range []any{math.NaN(), make(chan int), func() {}} {
		if _, err := encodeValue(testKey, "x", store.Meta{Extra: map[string]any{"k": v}}); err == nil {
			t.Errorf("extra %T encoded without error", v)
		}
	}
}

func TestKey(t *testing.T) {
	cat, name, err := decodeKey(encodeKey("旅行", "三亚 之行"))
	if err != nil || cat != "旅行" || name != "三亚 之行" {
		t.Fatalf("round trip = %q, %q, %v", cat, name, err)
	}
	for _, k := range []string{"", "nonul", "\x00name", "cat\x00", "\x00"} {
		if _, _, err := decodeKey([]byte(k)); !errors.Is(err, errCorrupt) {
			t.Errorf("decodeKey(%q) = %v, want errCorrupt", k, err)
		}
	}
}

// FuzzDecodeValue: arbitrary bytes never panic, and whatever decodes
// re-encodes to a record that decodes to the same thing.
func FuzzDecodeValue(f *testing.F) {
	seeds := []struct {
		content string
		meta    store.Meta
	}{
		{"", store.Meta{}},
		{"hello", store.Meta{Created: time.Unix(1700000000, 5), Updated: time.Unix(-5, 0)}},
		{"x", store.Meta{Tags: []string{"a", "海边"}, Extra: map[string]any{"n": 2.5, "l": []any{1, "x"}, "m": map[string]any{}}}},
	}
	for _, s := range seeds {
		b, err := encodeValue(testKey, s.content, s.meta)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)-crcSize])
	}
	f.Add([]byte{2, 0, flagExtra, 7, '{', '"', 'a', '"', ':', '2', '}'})
	f.Add([]byte{2, 0, flagExtra, 9, '{', '"', 'a', '"', ':', '2', '.', '0', '}'})
	f.Add([]byte{2, 0, flagTags, 0})
	f.Add([]byte{1, 0, flagTags, 0})
	f.Add([]byte{0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		// Raw bytes, as a damaged file holds them: the CRC rejects nearly
		// all; none may panic. The version 1 decoder reads old files.
		if _, _, err := decodeValue(testKey, b); err != nil && !errors.Is(err, errCorrupt) {
			t.Fatalf("error %v does not wrap errCorrupt", err)
		}
		if _, _, err := decodeValueV1(b); err != nil && !errors.Is(err, errCorrupt) {
			t.Fatalf("v1: error %v does not wrap errCorrupt", err)
		}
		// b as a record body under a good CRC reaches the field decoder.
		rec := withCRC(b)
		content, meta, err := decodeValue(testKey, rec)
		created, cerr := decodeCreated(testKey, rec)
		if err != nil {
			if !errors.Is(err, errCorrupt) {
				t.Fatalf("error %v does not wrap errCorrupt", err)
			}
			return
		}
		if cerr != nil || !created.Equal(meta.Created) {
			t.Fatalf("decodeCreated = %v, %v; decodeValue gave %v", created, cerr, meta.Created)
		}
		again, err := encodeValue(testKey, content, meta)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		content2, meta2, err := decodeValue(testKey, again)
		if err != nil {
			t.Fatalf("decode of re-encoded record: %v", err)
		}
		if content2 != content || !sameMeta(meta, meta2) {
			t.Fatalf("round trip changed the record:\n%q %#v\n%q %#v", content, meta, content2, meta2)
		}
	})
}

// FuzzEncodeValue: any entry the store accepts comes back unchanged.
func FuzzEncodeValue(f *testing.F) {
	f.Add("Alice likes the sea.", "travel", int64(1700000000), uint32(5), "mood", "sunny")
	f.Add("", "", int64(-62135596800), uint32(0), "", "")
	f.Add("海边", "海", int64(math.MaxInt64/2), uint32(999999999), "k", "<&>")
	f.Fuzz(func(t *testing.T, content, tag string, sec int64, nsec uint32, key, val string) {
		m := store.Meta{Created: time.Unix(sec, int64(nsec%1e9)).UTC()}
		if m.Created.IsZero() {
			m.Created = time.Time{}
		}
		if tag != "" {
			m.Tags = []string{tag, tag + "2"}
		}
		if key != "" {
			m.Extra = map[string]any{key: val}
		}
		b, err := encodeValue(testKey, content, m)
		if err != nil {
			t.Fatal(err)
		}
		got, gm, err := decodeValue(testKey, b)
		if err != nil {
			t.Fatal(err)
		}
		if got != content || !reflect.DeepEqual(gm.Tags, m.Tags) || !gm.Created.Equal(m.Created) {
			t.Fatalf("round trip: %q %#v, want %q %#v", got, gm, content, m)
		}
		// JSON replaces invalid UTF-8 with U+FFFD; store.Validate does not
		// check Extra, so compare only what JSON can carry.
		if key != "" && validUTF8(key, val) && !reflect.DeepEqual(gm.Extra, m.Extra) {
			t.Fatalf("extra = %#v, want %#v", gm.Extra, m.Extra)
		}
	})
}

func validUTF8(ss ...string) bool {
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}
