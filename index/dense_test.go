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
