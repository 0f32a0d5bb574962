package index

import (
	"fmt"
	"testing"
	"unsafe"
)

// TestDocSize pins the size of a base document record: the base segment
// holds one per entry, and a field added here costs its size per entry at
// a million entries (docs/performance.md, "Heap").
func TestDocSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) == 8 && unsafe.Sizeof(Doc{}) != 56 {
		t.Fatalf("Doc is %d bytes, want 56", unsafe.Sizeof(Doc{}))
	}
}

// TestDocLenTermFreq: |D| and tf of base documents, overlay documents,
// and documents of another snapshot, against a count of their tokens.
func TestDocLenTermFreq(t *testing.T) {
	s := Build(1, Spec(), []Input{
		{Category: "a", Name: "one", Content: "sea sea salt"},
		{Category: "a", Name: "two", Content: "salt 海水 海水"},
	})
	o := s.With(2, Input{Category: "b", Name: "three", Content: "sea sea sea wind"}).
		With(3, Input{Category: "a", Name: "two", Content: "sea"})
	other := Build(1, Spec(), []Input{{Category: "z", Name: "zed", Content: "sea wind wind"}})
	check := func(s *Snapshot, d *Doc) {
		t.Helper()
		toks := s.tok.Tokens(d.Name + " " + d.Content)
		if got := s.DocLen(d); got != len(toks) {
			t.Errorf("%s/%s: DocLen %d, want %d", d.Category, d.Name, got, len(toks))
		}
		for _, term := range []string{"sea", "salt", "wind", "海水", "absent", d.Name} {
			want := 0
			for _, x := range toks {
				if x == term {
					want++
				}
			}
			if got := s.TermFreq(d, term); got != want {
				t.Errorf("%s/%s: tf(%q) %d, want %d", d.Category, d.Name, term, got, want)
			}
		}
	}
	for _, snap := range []*Snapshot{s, o} {
		snap.Docs(func(d *Doc) bool {
			check(snap, d)
			check(snap, &Doc{Category: d.Category, Name: d.Name, Content: d.Content, ord: d.ord}) // a copy is not the snapshot's
			return true
		})
	}
	check(o, other.Lookup("z", "zed"))
	check(o, s.Lookup("a", "two")) // replaced in o: s's version is not o's
}

// TestNameTable: every name of a large base, held by one, two or three
// documents, is found with its holders after a build, after a load, and
// with some holders deleted; absent names are not found.
func TestNameTable(t *testing.T) {
	var in []Input
	for i := range 6000 {
		// name i/3 for i%3 == 0 only: one holder; i%3 == 1: two; i%3 == 2: three
		for c := 0; c <= i%3; c++ {
			in = append(in, Input{Category: fmt.Sprintf("c%d", c), Name: fmt.Sprintf("n%d", i), Content: "x"})
		}
	}
	built := Build(1, Spec(), in)
	loaded, _, err := Decode(Encode(built, nil), Spec(), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Snapshot{built, loaded} {
		del := s
		for i := range 6000 {
			name := fmt.Sprintf("n%d", i)
			d, n := s.LookupName(name)
			want := min(i%3+1, 2)
			if n != want || (n == 1) != (d != nil) || d != nil && (d.Name != name || d.Category != "c0") {
				t.Fatalf("LookupName(%q) = %v, %d; want %d holders", name, d, n, want)
			}
			if _, n := s.LookupName(name + "x"); n != 0 {
				t.Fatalf("absent %q: %d holders", name+"x", n)
			}
			if i%3 == 1 && i < 600 {
				del = del.Without(uint64(i+2), "c0", name)
			}
		}
		for i := 1; i < 600; i += 3 {
			name := fmt.Sprintf("n%d", i)
			if d, n := del.LookupName(name); n != 1 || d == nil || d.Category != "c1" {
				t.Fatalf("after a delete: LookupName(%q) = %v, %d", name, d, n)
			}
		}
	}
}
