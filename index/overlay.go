package index

import "math/bits"

// The overlay holds documents written since the base segment was built,
// and the base documents they replaced or deleted. A query visits every
// one of them per query term, so each carries a term signature (a small
// Bloom filter) that answers "certainly not here" for most terms without
// a map lookup.

// sig is a 512-bit Bloom filter over a document's distinct terms, two
// bits per term.
type sig [8]uint64

func (g *sig) add(h uint64) {
	a, b := h&511, (h>>9)&511
	g[a/64] |= 1 << (a % 64)
	g[b/64] |= 1 << (b % 64)
}

// has reports whether a term with hash h may be in the set.
func (g *sig) has(h uint64) bool {
	a, b := h&511, (h>>9)&511
	return g[a/64]&(1<<(a%64)) != 0 && g[b/64]&(1<<(b%64)) != 0
}

// termHash is FNV-1a over the term's bytes.
func termHash(t string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(t); i++ {
		h ^= uint64(t[i])
		h *= 1099511628211
	}
	return h
}

// docTerms are the terms of an overlay document.
type docTerms struct {
	tf  map[string]uint32
	sig sig
}

// deadDoc is a base document that is deleted or replaced in a snapshot.
type deadDoc struct {
	ord uint32
	sig sig
}

// signature returns the term signature of tokens.
func signature(toks []string) sig {
	var g sig
	for _, t := range toks {
		g.add(termHash(t))
	}
	return g
}

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }
