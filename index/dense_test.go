package index

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDenseSetFind: the bitmap finds exactly the list's documents, at
// their positions, across rank stretches, at the ends and past them; rank
// counts the documents below any document of its stretches.
func TestDenseSetFind(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 63, 64, 65, 511, 512, 513, 5000} {
		var docs []uint32
		for d := range n {
			if r.IntN(3) == 0 || d == n-1 {
				docs = append(docs, uint32(d))
			}
		}
		ds := newDenseSet(docs, n)
		for d := range uint32(n + 70) {
			i, ok := ds.find(d)
			wi, wok := slices.BinarySearch(docs, d)
			if ok != wok || (ok && i != wi) {
				t.Fatalf("n %d doc %d: find %d %v, list %d %v", n, d, i, ok, wi, wok)
			}
			if int(d) < 64*len(ds.bits) {
				r, in := ds.rank(d)
				if int(r) != wi || (in == 1) != wok || in > 1 {
					t.Fatalf("n %d doc %d: rank %d %d, list %d %v", n, d, r, in, wi, wok)
				}
			}
		}
	}
}

// TestBuildIdentityOrder: whatever order Build is given, the base
// documents come out in the result order of equal scores (category, then
// name, bytewise), with names that differ only late, are short, hold a NUL
// or are not ASCII, in one category or several; each ord is the
// document's position, every identity is found again, and of a duplicate
// the later content wins.
func TestBuildIdentityOrder(t *testing.T) {
	names := []string{"b", "a", "ab", "ab\x00", "a\x00b", "longname-0002", "longname-0001",
		"longname-00010", "zz", "é", "longnam", "longname"}
	for _, cats := range [][]string{{"c"}, {"c", "b", "a", "a/b", ""}} {
		var in []Input
		for i, n := range names {
			in = append(in, Input{Category: cats[i%len(cats)], Name: n, Content: "first " + n})
		}
		slices.Reverse(in)
		in = append(in, Input{Category: cats[0], Name: "b", Content: "second"})
		s := Build(1, nil, in)
		if len(s.base.docs) != len(names) {
			t.Fatalf("%d documents, want %d", len(s.base.docs), len(names))
		}
		for i := range s.base.docs {
			d := &s.base.docs[i]
			if d.Ord() != i {
				t.Fatalf("document %d has ord %d", i, d.Ord())
			}
			if got := s.Lookup(d.Category, d.Name); got != d {
				t.Fatalf("Lookup(%q, %q) = %v", d.Category, d.Name, got)
			}
			if i == 0 {
				continue
			}
			a := &s.base.docs[i-1]
			if a.Category > d.Category || a.Category == d.Category && a.Name >= d.Name {
				t.Fatalf("categories %v: %q/%q before %q/%q", cats, a.Category, a.Name, d.Category, d.Name)
			}
		}
		if d := s.Lookup(cats[0], "b"); d == nil || d.Content != "second" {
			t.Fatalf("duplicate: %+v, want the later content", d)
		}
	}
}
