package index

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"
	"unsafe"
)

// answers is what s answers to a few queries, lookups and name lookups,
// as text, for comparing two snapshots.
func answers(s *Snapshot) string {
	var b bytes.Buffer
	for _, q := range []string{"fox", "quick brown fox", "the dog", "sun", "数据", "zebra", "alpha beta"} {
		for _, h := range s.Search(s.Terms(q), 0) {
			fmt.Fprintf(&b, "%s|%s|%s|%.12g;", h.Doc.Category, h.Doc.Name, h.Doc.Content, h.Score)
		}
		b.WriteByte('\n')
	}
	var docs []string
	s.Docs(func(d *Doc) bool {
		l := s.Lookup(d.Category, d.Name)
		n, k := s.LookupName(d.Name)
		docs = append(docs, fmt.Sprintf("%s|%s %v %d %d %q %v;", d.Category, d.Name, l == nil, s.DocLen(d), k, s.Extra(d), n == nil))
		return true
	})
	slices.Sort(docs)
	return b.String() + fmt.Sprint(docs)
}

// Every byte of a copy flipped, every truncation: Decode refuses the copy
// or answers exactly as the copy that was encoded. The checksum covers
// the whole payload, padding included, so in practice it refuses.
func TestDecodeEveryByteDamaged(t *testing.T) {
	in := []Input{
		{Category: "a", Name: "one", Content: "the quick brown fox jumps"},
		{Category: "a", Name: "two", Content: "a lazy dog sleeps in the sun, the fox runs", Extra: "x1"},
		{Category: "b/c", Name: "one", Content: "brown dogs and quick foxes 数据"},
		{Category: "b/c", Name: "three", Content: "alpha beta " + string(bytes.Repeat([]byte("fox "), 300))},
	}
	s := Build(3, EnglishStop(), in)
	want := answers(s)
	data := Encode(s, []byte("meta"))
	got, meta, err := Decode(data, EnglishStop(), 3)
	if err != nil || string(meta) != "meta" || answers(got) != want {
		t.Fatalf("undamaged copy: %v, meta %q, answers equal %v", err, meta, err == nil && answers(got) == want)
	}
	refused := 0
	for pos := range data {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			d := slices.Clone(data)
			d[pos] ^= x
			got, _, err := Decode(d, EnglishStop(), 3)
			if err != nil {
				if !errors.Is(err, ErrPersisted) {
					t.Fatalf("byte %d ^ %#x: err %v", pos, x, err)
				}
				refused++
				continue
			}
			if answers(got) != want {
				t.Fatalf("byte %d ^ %#x: accepted, and answers differ", pos, x)
			}
		}
	}
	t.Logf("%d of %d damaged copies refused", refused, 3*len(data))
	for n := range len(data) {
		if _, _, err := Decode(data[:n], EnglishStop(), 3); !errors.Is(err, ErrPersisted) {
			t.Fatalf("truncated to %d of %d bytes: err %v", n, len(data), err)
		}
	}
	if _, _, err := Decode(append(slices.Clone(data), 0), EnglishStop(), 3); !errors.Is(err, ErrPersisted) {
		t.Fatalf("a byte appended: err %v", err)
	}
}

// Open reads the copy in place: the snapshot's arrays and strings are
// the data's own bytes, and a snapshot made from it by writes answers as
// a full build of the same documents.
func TestOpenInPlace(t *testing.T) {
	in := []Input{
		{Category: "a", Name: "one", Content: "the quick brown fox jumps"},
		{Category: "a", Name: "two", Content: "a lazy dog sleeps in the sun"},
		{Category: "b", Name: "one", Content: "brown dogs and quick foxes"},
	}
	data := alignedCopy(Encode(Build(5, EnglishStop(), in), nil))
	s, _, err := Open(data, EnglishStop(), 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	within := func(p *byte) bool {
		lo, hi := &data[0], &data[len(data)-1]
		return uintptrOf(p) >= uintptrOf(lo) && uintptrOf(p) <= uintptrOf(hi)
	}
	d := s.Lookup("a", "two")
	if d == nil || !within(stringData(d.Content)) || !within(&asBytes(s.base.pdocs)[0]) || !within(&asBytes(s.base.terms.slots)[0]) {
		t.Fatal("Open copied what it should point into")
	}
	w := s.With(6, Input{Category: "a", Name: "three", Content: "fox fox"}).Without(7, "a", "one")
	ref := Build(7, EnglishStop(), []Input{in[1], in[2], {Category: "a", Name: "three", Content: "fox fox"}})
	if answers(w) != answers(ref) || answers(w.Compact()) != answers(ref) {
		t.Fatal("a snapshot on an opened copy answers otherwise than a build")
	}
	if _, _, err := Open(data[1:], EnglishStop(), 5, nil); !errors.Is(err, ErrPersisted) {
		t.Fatalf("unaligned data: err %v", err)
	}
}

func uintptrOf(p *byte) uintptr { return uintptr(unsafe.Pointer(p)) }

func stringData(s string) *byte { return unsafe.StringData(s) }

// OpenChecked answers exactly as Open over a copy Open accepts, with the
// same refusals of a copy that is not this one (format, revision,
// analyzer, size, alignment); what it skips is the reading of the rest,
// so a posting damaged after the check is not seen by it (the caller's
// record must rule that out), while Open refuses it.
func TestOpenChecked(t *testing.T) {
	in := []Input{
		{Category: "a", Name: "one", Content: "the quick brown fox jumps"},
		{Category: "a", Name: "two", Content: "a lazy dog sleeps in the sun, the fox runs", Extra: "x1"},
		{Category: "b/c", Name: "one", Content: "brown dogs and quick foxes 数据"},
		{Category: "b/c", Name: "three", Content: "alpha beta " + string(bytes.Repeat([]byte("fox "), 300))},
	}
	src := Build(3, EnglishStop(), in)
	data := alignedCopy(Encode(src, []byte("meta")))
	s, meta, err := OpenChecked(data, EnglishStop(), 3, nil)
	if err != nil || string(meta) != "meta" {
		t.Fatalf("OpenChecked: %v, meta %q", err, meta)
	}
	if answers(s) != answers(src) {
		t.Fatal("OpenChecked answers otherwise than the snapshot encoded")
	}
	for what, open := range map[string]func() error{
		"revision": func() error { _, _, err := OpenChecked(data, EnglishStop(), 4, nil); return err },
		"analyzer": func() error { _, _, err := OpenChecked(data, Spec(), 3, nil); return err },
		"size":     func() error { _, _, err := OpenChecked(data[:len(data)-8], EnglishStop(), 3, nil); return err },
		"aligned":  func() error { _, _, err := OpenChecked(data[1:], EnglishStop(), 3, nil); return err },
		"version": func() error {
			d := alignedCopy(data)
			d[8]++
			_, _, err := OpenChecked(d, EnglishStop(), 3, nil)
			return err
		},
	} {
		if err := open(); !errors.Is(err, ErrPersisted) {
			t.Errorf("%s: err %v, want ErrPersisted", what, err)
		}
	}
	// A tf zeroed: Open refuses it; OpenChecked, trusting, does not read it.
	d := alignedCopy(data)
	o, _, _ := Open(d, EnglishStop(), 3, nil)
	tfs := o.base.ptfs
	tfs[0] = 0
	if _, _, err := Open(d, EnglishStop(), 3, nil); !errors.Is(err, ErrPersisted) {
		t.Fatalf("Open of a zeroed tf: err %v", err)
	}
	if _, _, err := OpenChecked(d, EnglishStop(), 3, nil); err != nil {
		t.Fatalf("OpenChecked read the postings: %v", err)
	}
}
