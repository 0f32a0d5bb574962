package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"strings"
	"testing"

	"github.com/recallhq/recall/internal/synth"
)

func persistCorpus(t *testing.T) (*Snapshot, *synth.Generator) {
	t.Helper()
	g := synth.New(11, 5_000)
	var in []Input
	for _, e := range g.Entries(2_000, 60) {
		in = append(in, Input{Category: e.Category, Name: e.Name, Content: e.Content})
	}
	in = append(in, Input{Category: "a", Name: "same", Content: "shared name one"},
		Input{Category: "b", Name: "same", Content: "shared name two"})
	return Build(42, EnglishStop(), in), g
}

// sameAnswers compares full results of many queries, every document and
// the name map of two snapshots.
func sameAnswers(t *testing.T, want, got *Snapshot, g *synth.Generator) {
	t.Helper()
	if want.Count() != got.Count() || want.Len() != got.Len() || want.Revision() != got.Revision() {
		t.Fatalf("count/len/rev %d/%d/%d, want %d/%d/%d", got.Count(), got.Len(), got.Revision(), want.Count(), want.Len(), want.Revision())
	}
	queries := []string{"shared name", "same"}
	nq := 200
	if testing.Short() {
		nq = 40 // one goroutine: the full set runs without -race
	}
	for i := 0; i < nq; i++ {
		queries = append(queries, g.Query(1+i%5))
	}
	for i := 1; i <= 6; i++ {
		queries = append(queries, joinWords(g.Common(i)))
	}
	for _, q := range queries {
		terms := want.Terms(q)
		for _, k := range []int{1, 10, 100, 0} {
			a, b := want.Search(terms, k), got.Search(terms, k)
			if len(a) != len(b) {
				t.Fatalf("%q k=%d: %d results, want %d", q, k, len(b), len(a))
			}
			for i := range a {
				if a[i].Doc.Category != b[i].Doc.Category || a[i].Doc.Name != b[i].Doc.Name ||
					a[i].Score != b[i].Score || a[i].Matched != b[i].Matched || a[i].Doc.Ord() != b[i].Doc.Ord() {
					t.Fatalf("%q k=%d #%d: got %s/%s %v, want %s/%s %v", q, k, i,
						b[i].Doc.Category, b[i].Doc.Name, b[i].Score, a[i].Doc.Category, a[i].Doc.Name, a[i].Score)
				}
			}
		}
	}
	want.Docs(func(d *Doc) bool {
		e := got.Lookup(d.Category, d.Name)
		if e == nil || e.Content != d.Content || got.DocLen(e) != want.DocLen(d) || e.TokensEst() != d.TokensEst() || e.Ord() != d.Ord() {
			t.Fatalf("doc %s/%s differs", d.Category, d.Name)
		}
		_, n1 := want.LookupName(d.Name)
		_, n2 := got.LookupName(d.Name)
		if n1 != n2 {
			t.Fatalf("LookupName(%q): %d, want %d", d.Name, n2, n1)
		}
		return true
	})
}

func joinWords(w []string) string {
	var b bytes.Buffer
	for i, x := range w {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x)
	}
	return b.String()
}

func TestPersistRoundTrip(t *testing.T) {
	s, g := persistCorpus(t)
	data := Encode(s, []byte("meta"))
	got, meta, err := Decode(data, EnglishStop(), 42)
	if err != nil {
		t.Fatal(err)
	}
	if string(meta) != "meta" {
		t.Fatalf("meta %q", meta)
	}
	sameAnswers(t, s, got, g)

	// A snapshot with an overlay is saved folded: it answers as its
	// compaction does.
	ov := s.With(43, Input{Category: "c", Name: "new", Content: "fresh words here"}).Without(43, "a", "same")
	got, _, err = Decode(Encode(ov, nil), EnglishStop(), 43)
	if err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, ov.Compact(), got, g)

	// The loaded snapshot takes writes like a built one.
	w1 := got.With(44, Input{Category: "c", Name: "newer", Content: "shared name three"})
	w2 := ov.Compact().With(44, Input{Category: "c", Name: "newer", Content: "shared name three"})
	sameAnswers(t, w2, w1, g)
}

func TestPersistRejects(t *testing.T) {
	s, _ := persistCorpus(t)
	data := Encode(s, nil)
	check := func(name string, data []byte, tok *Analyzer, rev uint64) {
		t.Helper()
		if _, _, err := Decode(data, tok, rev); !errors.Is(err, ErrPersisted) {
			t.Errorf("%s: err %v, want ErrPersisted", name, err)
		}
	}
	for _, i := range []int{0, 9, 13, 17, persistHeader, persistHeader + 1, len(data) / 2, len(data) - 1} {
		d := bytes.Clone(data)
		d[i] ^= 0x40
		check("byte flipped", d, EnglishStop(), 42)
	}
	for _, n := range []int{0, 10, persistHeader, len(data) / 3, len(data) - 1} {
		check("truncated", data[:n], EnglishStop(), 42)
	}
	check("other analyzer", data, Spec(), 42)
	check("other revision", data, EnglishStop(), 43)
	d := bytes.Clone(data)
	binary.LittleEndian.PutUint32(d[8:], PersistVersion+1)
	check("other version", d, EnglishStop(), 42)
	check("appended", append(bytes.Clone(data), 0), EnglishStop(), 42)
	if _, _, err := Decode(data, EnglishStop(), 42); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkPersist times a build and a load of the same base segment
// (Entries(n, 120), EnglishStop), at 10k and 100k entries.
func BenchmarkPersist(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		g := synth.New(11, 20_000)
		var in []Input
		for _, e := range g.Entries(n, 120) {
			in = append(in, Input{Category: e.Category, Name: e.Name, Content: e.Content})
		}
		s := Build(1, EnglishStop(), in)
		data := Encode(s, nil)
		b.Run(fmt.Sprintf("entries=%d/build", n), func(b *testing.B) {
			for range b.N {
				Build(1, EnglishStop(), in)
			}
		})
		b.Run(fmt.Sprintf("entries=%d/decode", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for range b.N {
				if _, _, err := Decode(data, EnglishStop(), 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzDecode: a copy whose checksum is right but whose payload is not one
// Encode wrote (a bug, another build's layout) is refused or answers
// without panicking, also when searched and written to.
func FuzzDecode(f *testing.F) {
	small := Build(0, EnglishStop(), []Input{
		{Category: "a", Name: "one", Content: "the quick brown fox jumps"},
		{Category: "a", Name: "two", Content: "a lazy dog sleeps in the sun, the fox runs"},
		{Category: "b/c", Name: "one", Content: "brown dogs and quick foxes"},
	})
	f.Add(Encode(small, nil)[persistHeader:])
	f.Add(Encode(small, []byte("meta"))[persistHeader:])
	f.Add(Encode(small.Without(0, "a", "one"), nil)[persistHeader:])
	f.Add(Encode(Build(0, EnglishStop(), nil), nil)[persistHeader:])
	f.Fuzz(func(t *testing.T, payload []byte) {
		data := make([]byte, persistHeader, persistHeader+len(payload))
		copy(data, persistMagic)
		binary.LittleEndian.PutUint32(data[8:], PersistVersion)
		data = append(data, payload...)
		binary.LittleEndian.PutUint32(data[12:], crc32.Checksum(payload, castagnoli))
		binary.LittleEndian.PutUint64(data[16:], uint64(len(payload)))
		s, _, err := Decode(data, EnglishStop(), 0)
		if err != nil {
			if !errors.Is(err, ErrPersisted) {
				t.Fatalf("err %v, want ErrPersisted", err)
			}
			return
		}
		for _, q := range []string{"fox", "quick brown fox", "the", "dog sun", "zebra"} {
			for _, k := range []int{1, 2, 0} {
				s.Search(s.Terms(q), k)
			}
		}
		s.Docs(func(d *Doc) bool {
			s.Lookup(d.Category, d.Name)
			s.LookupName(d.Name)
			return true
		})
		w := s.With(1, Input{Category: "a", Name: "one", Content: "a fox again"}).Without(1, "a", "two")
		w.Search(w.Terms("fox"), 0)
		w.Compact().Search(w.Terms("quick fox"), 2)
		Encode(w, nil)
	})
}

// TestDecodeRejectsWrappedPostings: a posting list whose doc gaps wrap
// around 64 bits (so it goes back to an earlier document) is refused, like
// any other out-of-order list, even under a right checksum.
func TestDecodeRejectsWrappedPostings(t *testing.T) {
	tok := EnglishStop()
	encode := func(gaps ...uint64) []byte {
		b := binary.AppendUvarint(nil, 0) // revision
		b = appendBytes(b, tok.Name())
		b = appendBytes(b, "")
		b = binary.AppendUvarint(b, 2)                             // documents
		b = binary.AppendUvarint(b, uint64(len("aonefoxatwofox"))) // their text
		b = append(b, "aonefoxatwofox"...)
		for range 2 { // category, name, content lengths; |D|; tokens; no date
			for _, v := range []uint64{1, 3, 3, 1, 1, 0} {
				b = binary.AppendUvarint(b, v)
			}
		}
		b = binary.AppendUvarint(b, 0) // no extras
		b = binary.AppendUvarint(b, 1) // terms
		b = binary.AppendUvarint(b, uint64(len(gaps)))
		b = binary.AppendUvarint(b, 3) // the terms' text
		b = append(b, "fox"...)
		b = binary.AppendUvarint(b, 3) // the term's length
		b = binary.AppendUvarint(b, uint64(len(gaps)))
		for _, g := range gaps {
			b = binary.AppendUvarint(b, g)
			b = binary.AppendUvarint(b, 1) // tf
		}
		b = append(b, 0) // no duplicate table (version 6)
		data := make([]byte, persistHeader, persistHeader+len(b))
		copy(data, persistMagic)
		binary.LittleEndian.PutUint32(data[8:], PersistVersion)
		binary.LittleEndian.PutUint32(data[12:], crc32.Checksum(b, castagnoli))
		binary.LittleEndian.PutUint64(data[16:], uint64(len(b)))
		return append(data, b...)
	}
	if _, _, err := Decode(encode(0, 1), tok, 0); err != nil {
		t.Fatalf("docs 0 and 1: %v", err)
	}
	if _, _, err := Decode(encode(1, math.MaxUint64), tok, 0); !errors.Is(err, ErrPersisted) {
		t.Fatalf("doc 1, then 1 + (2^64 - 1) = 0: err %v, want ErrPersisted", err)
	}
}

// TestDecodeRejectsUnorderedDocs: a copy whose documents are not in
// identity order (as an earlier build, which kept the order it was given,
// wrote them from a folder) is refused under a right checksum, so that it
// is rebuilt: ties between base documents are decided by their order.
func TestDecodeRejectsUnorderedDocs(t *testing.T) {
	s := Build(1, EnglishStop(), []Input{
		{Category: "a", Name: "one", Content: "the quick brown fox"},
		{Category: "a", Name: "two", Content: "a lazy fox"},
		{Category: "b", Name: "one", Content: "brown dogs"},
	})
	if _, _, err := Decode(Encode(s, nil), EnglishStop(), 1); err != nil {
		t.Fatal(err)
	}
	docs := s.base.docs
	docs[0], docs[1] = docs[1], docs[0]
	_, _, err := Decode(Encode(s, nil), EnglishStop(), 1)
	if !errors.Is(err, ErrPersisted) || !strings.Contains(err.Error(), "identity order") {
		t.Fatalf("err %v, want ErrPersisted for the order", err)
	}
}
