package index

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDenseSetFind: the bitmap finds exactly the list's documents, at
// their positions, across rank stretches, at the ends and past them.
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
		}
	}
}

// TestSortTies: a tie run comes out in the result order of equal scores
// (category, then name) whether its names differ in their first 8 bytes
// or only later, are shorter than 8 bytes or hold a NUL, and whether the
// run has one category or several.
func TestSortTies(t *testing.T) {
	names := []string{"b", "a", "ab", "ab\x00", "a\x00b", "longname-0002", "longname-0001",
		"longname-00010", "zz", "é", "longnam", "longname"}
	for _, cats := range [][]string{{"c"}, {"c", "b", "a"}} {
		var in []Input
		for i, n := range names {
			in = append(in, Input{Category: cats[i%len(cats)], Name: n, Content: "x"})
		}
		s := Build(1, nil, in)
		if len(s.base.docs) != len(names) {
			t.Fatalf("%d documents, want %d", len(s.base.docs), len(names))
		}
		docs := make([]uint32, len(s.base.docs))
		for i := range docs {
			docs[i] = uint32(i)
		}
		slices.Reverse(docs)
		s.base.sortTies(docs, nil)
		for i := 1; i < len(docs); i++ {
			a, b := &s.base.docs[docs[i-1]], &s.base.docs[docs[i]]
			if a.Category > b.Category || a.Category == b.Category && a.Name >= b.Name {
				t.Fatalf("categories %v: %q/%q before %q/%q", cats, a.Category, a.Name, b.Category, b.Name)
			}
		}
	}
}
