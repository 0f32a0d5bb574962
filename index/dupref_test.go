package index

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// detectReference is forward.detect as it was before the prefix filter
// took both sides (kept to test the new pass against): for each
// document, the whole posting lists of its rarest terms, from its own
// ord on.
func (f *forward) detectReference(seg *segment) *dupTable {
	n := len(seg.docs)
	t := &dupTable{hash: f.hash, sig: make([]uint64, n), ctn: make([]uint32, n)}
	bit := make([]uint64, seg.nTerms())
	for id := range bit {
		bit[id] = termSig(string(seg.terms.term(uint32(id))))
	}
	for i := range n {
		t.ctn[i] = f.start[i+1] - f.start[i]
		for _, id := range f.of(uint32(i)) {
			t.sig[i] |= bit[id]
		}
	}
	t.indexHashes()
	var pairs [][2]uint32
	// cnt bounds the pairs of a document (MaxDuplicates): a store of many
	// copies of one note records a bounded number of them, not n².
	cnt := make([]uint16, n)
	full := func(x uint32) bool { return cnt[x] >= MaxDuplicates }
	pair := func(x, y uint32) {
		pairs = append(pairs, [2]uint32{x, y})
		cnt[x]++
		cnt[y]++
	}
	for i, nh := 0, len(t.byHash); i < nh; {
		j := i + 1
		for j < nh && t.hash[t.byHash[j]] == t.hash[t.byHash[i]] {
			j++
		}
		for a := i; a < j && t.hash[t.byHash[i]] != emptyHash; a++ {
			for b := a + 1; b < j && !full(t.byHash[a]); b++ {
				x, y := t.byHash[a], t.byHash[b]
				if !full(y) && dupNormal(seg.docs[x].Content) == dupNormal(seg.docs[y].Content) {
					pair(x, y)
				}
			}
		}
		i = j
	}
	// Term ids by rank, rarest first (df, then id), and each id's rank:
	// choosing a document's rarest terms compares plain numbers.
	byRank := make([]uint64, seg.nTerms())
	for id := range byRank {
		byRank[id] = uint64(seg.listLen(uint32(id)))<<32 | uint64(id)
	}
	slices.Sort(byRank)
	rank := make([]uint32, len(byRank))
	for r, x := range byRank {
		rank[uint32(x)] = uint32(r)
	}
	mark := make([]uint32, seg.nTerms()) // by term id: x+1 when x has it
	seen := make([]uint32, n)            // by doc: x+1 when a candidate of x
	cur := make([]uint32, seg.nTerms())  // by term id: its list's first doc not yet passed
	var pre []uint32
docs:
	for x := range uint32(n) {
		ids := f.of(x)
		nx := len(ids)
		if nx == 0 || full(x) {
			continue
		}
		pre = pre[:0]
		for _, id := range ids {
			pre = append(pre, rank[id])
		}
		p := prefixLen(nx)
		smallest(pre, p)
		pre = pre[:p]
		for k, r := range pre {
			pre[k] = uint32(byRank[r])
		}
		marked := false
		for _, id := range pre {
			// From x on: each term's cursor only moves forward, as x does.
			l := seg.pdocs[seg.starts[id]:seg.starts[id+1]]
			k := cur[id]
			for int(k) < len(l) && l[k] <= x {
				k++
			}
			cur[id] = k
			for _, y := range l[k:] {
				if seen[y] == x+1 || full(y) {
					continue
				}
				seen[y] = x + 1
				if !lenOK(uint32(nx), t.ctn[y]) || !sigOK(t.sig[x], t.sig[y], uint32(nx), t.ctn[y]) {
					continue // too different
				}
				if !marked {
					for _, id := range ids {
						mark[id] = x + 1
					}
					marked = true
				}
				inter := 0
				for _, id := range f.of(y) {
					if mark[id] == x+1 {
						inter++
					}
				}
				if jaccardOK(inter, nx, int(t.ctn[y])) && valueGuard(seg.docs[x].Content, seg.docs[y].Content) {
					pair(x, y)
					if full(x) {
						continue docs
					}
				}
			}
		}
	}
	t.setRel(pairs)
	return t
}

// smallest (the old pass's selection) moves the p smallest values of xs to its front: one pass
// that keeps them sorted in xs[:p], inserting the few that beat the
// largest kept (the common case costs one comparison a value).
func smallest(xs []uint32, p int) {
	if p >= len(xs) {
		return
	}
	slices.Sort(xs[:p])
	for j := p; j < len(xs); j++ {
		v := xs[j]
		if v >= xs[p-1] {
			continue
		}
		xs[j] = xs[p-1]
		k := p - 1
		for k > 0 && xs[k-1] > v {
			xs[k] = xs[k-1]
			k--
		}
		xs[k] = v
	}
}

// forwardOf remakes the forward table a build of seg collected (each
// document's distinct content term ids, and the hash of those without).
func forwardOf(tok *Analyzer, seg *segment) *forward {
	f := newForward(seg.docs)
	for i := range seg.docs {
		normal := normalize(seg.docs[i].Content)
		ts, _ := tok.appendNormal(nil, normal)
		for _, term := range ts {
			id, ok := seg.terms.id(term)
			if !ok {
				panic("a content term without a list: " + term)
			}
			f.term(id)
		}
		f.end(normal)
	}
	return f
}

// nearCorpus draws n contents in clusters of near-identical ones (a
// word more or less, another case or spacing, an exact copy, a number or
// a name changed), none bigger than maxCluster, and a few without
// content terms.
func nearCorpus(r *rand.Rand, n, maxCluster int) []Input {
	letters := func(i int) string { // no digits: a word with one carries a value
		w := []byte{'k'}
		for ; i > 0; i /= 26 {
			w = append(w, byte('a'+i%26))
		}
		return string(w)
	}
	vocab := make([]string, 300)
	for i := range vocab {
		vocab[i] = letters(i)
	}
	word := func() string { // Zipf-like: a few words everywhere
		return vocab[int(float64(len(vocab))*r.Float64()*r.Float64()*r.Float64())]
	}
	var in []Input
	for len(in) < n {
		var ws []string
		for range 2 + r.IntN(40) {
			ws = append(ws, word())
		}
		size := 1 + r.IntN(maxCluster)
		if r.IntN(4) == 0 {
			// Ten distinct terms and the same without its rarest (one
			// of its own): Jaccard 0.9, whose prefixes share only their
			// last term, the tightest case of the filter.
			ws = ws[:0]
			for len(ws) < 9 {
				if w := word(); !slices.Contains(ws, w) {
					ws = append(ws, w)
				}
			}
			ws = append(ws, "z"+letters(len(in)))
			in = append(in, Input{Category: "c", Name: fmt.Sprintf("n%05d", len(in)), Content: strings.Join(ws, " ")},
				Input{Category: "c", Name: fmt.Sprintf("n%05d", len(in)+1), Content: strings.Join(ws[:9], " ")})
			continue
		}
		for k := 0; k < size && len(in) < n; k++ {
			v := slices.Clone(ws)
			switch r.IntN(9) {
			case 0: // a copy
			case 1:
				v = append(v, word())
			case 2:
				if len(v) > 1 {
					k := r.IntN(len(v))
					v = slices.Delete(v, k, k+1)
				}
			case 3:
				v[r.IntN(len(v))] = word()
			case 4:
				v = append(v, fmt.Sprint(r.IntN(3)))
			case 5:
				v = append(v, []string{"Alice", "Carol", "not"}[r.IntN(3)])
			case 6:
				v[0] = strings.ToUpper(v[0])
			case 7: // the rarest word gone: a pair met by the last term of a prefix
				k := 0
				for i := range v {
					if len(v[i]) > len(v[k]) || len(v[i]) == len(v[k]) && v[i] > v[k] {
						k = i
					}
				}
				v = slices.Delete(v, k, k+1)
			}
			content := strings.Join(v, []string{" ", "  ", "\n"}[r.IntN(3)])
			if r.IntN(40) == 0 {
				content = []string{"", "  ", "!!", "— …", "the of"}[r.IntN(5)]
			}
			in = append(in, Input{Category: "c", Name: fmt.Sprintf("n%05d", len(in)), Content: content})
		}
	}
	return in
}

// modelPairs is the duplicate relation of seg's documents by the
// definition, every pair compared.
func modelPairs(tok *Analyzer, seg *segment) map[uint32][]uint32 {
	n := len(seg.docs)
	terms := make([][]string, n)
	normal := make([]string, n)
	for i, d := range seg.docs {
		terms[i], normal[i] = contentTerms(tok, d.Content), dupNormal(d.Content)
	}
	var pairs [][2]uint32
	for i := range n {
		for j := i + 1; j < n; j++ {
			xs, ys := terms[i], terms[j]
			if normal[i] != "" && normal[i] == normal[j] ||
				len(xs) > 0 && len(ys) > 0 && jaccardOK(interSorted(xs, ys), len(xs), len(ys)) && valueGuard(seg.docs[i].Content, seg.docs[j].Content) {
				pairs = append(pairs, [2]uint32{uint32(i), uint32(j)})
			}
		}
	}
	return relOf(pairs)
}

func equalRel(a, b map[uint32][]uint32) bool {
	return maps.EqualFunc(a, b, func(x, y []uint32) bool { return slices.Equal(x, y) })
}

// TestDetectEqualsReference: the build's detection (prefixes on both
// sides, by size) finds exactly the pairs of the old pass (whole lists of
// one side's prefix) and of a brute-force comparison of every pair, on
// randomized corpora of near-identical clusters, with the same tables;
// where clusters pass MaxDuplicates, every pair it records is a true
// one and no document is in more than MaxDuplicates.
func TestDetectEqualsReference(t *testing.T) {
	for seed := range uint64(8) {
		r := rand.New(rand.NewPCG(seed, 99))
		tok := []*Analyzer{Spec(), EnglishStop()}[seed%2]
		seg := buildSegment(tok, nearCorpus(r, 500, 20), true)
		got := seg.dup
		ref := forwardOf(tok, seg).detectReference(seg)
		if !slices.Equal(got.sig, ref.sig) || !slices.Equal(got.ctn, ref.ctn) || !slices.Equal(got.hash, ref.hash) || !slices.Equal(got.byHash, ref.byHash) {
			t.Fatalf("seed %d: tables differ from the reference", seed)
		}
		want := modelPairs(tok, seg)
		if len(want) < 100 {
			t.Fatalf("seed %d: only %d documents with duplicates: the corpus tests little", seed, len(want))
		}
		if !equalRel(ref.rel, want) {
			t.Fatalf("seed %d: the reference differs from the model", seed)
		}
		if !equalRel(got.rel, want) {
			for x, l := range want {
				if !slices.Equal(got.rel[x], l) {
					t.Fatalf("seed %d: duplicates of %d (%q) = %v, want %v", seed, x, seg.docs[x].Content, got.rel[x], l)
				}
			}
			t.Fatalf("seed %d: pairs the model lacks: %v", seed, got.rel)
		}
		if !slices.Equal(got.has, ref.has) {
			t.Fatalf("seed %d: bitsets differ", seed)
		}
	}
	// Clusters past the bound: fewer pairs, all true, none past it.
	for seed := range uint64(2) {
		r := rand.New(rand.NewPCG(seed, 7))
		tok := Spec()
		seg := buildSegment(tok, nearCorpus(r, 600, 300), true)
		want := modelPairs(tok, seg)
		for x, l := range seg.dup.rel {
			if len(l) > MaxDuplicates {
				t.Fatalf("seed %d: %d has %d duplicates", seed, x, len(l))
			}
			for _, y := range l {
				if !slices.Contains(want[x], y) {
					t.Fatalf("seed %d: %d and %d recorded, not duplicates", seed, x, y)
				}
			}
		}
		if len(seg.dup.rel) < len(want)/2 {
			t.Fatalf("seed %d: %d documents with duplicates recorded of %d", seed, len(seg.dup.rel), len(want))
		}
	}
}
