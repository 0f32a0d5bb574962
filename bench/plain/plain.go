// Package plain is a hand-written exhaustive BM25 index, the baseline that
// recall's ranking is measured against (bench/bleve's BenchmarkRanking):
// a map from term to its postings, (document, tf) arrays, one dense
// accumulator of float64 scores, a list of the documents touched, and a
// plain binary min-heap for the top k. Nothing is pruned, cached or
// specialised.
//
// It is fed the same analyzer's tokens as recall's index (the entry's
// name, then its content), sums a document's weights in query-term order
// with recall's formula and parameters (index.K1, index.B), and breaks
// ties by identity (category, then name), so its answers are recall's to
// the bit: TestPlainEqualsRecall (bench/bleve) checks it.
package plain

import (
	"cmp"
	"math"
	"slices"

	"github.com/recallhq/recall/index"
)

// Doc is one document to index.
type Doc struct {
	Category, Name, Content string
}

// Hit is one ranked document.
type Hit struct {
	Category, Name string
	Score          float64
}

// Index is the inverted index and the room of one query at a time (not
// safe for concurrent Top calls).
type Index struct {
	an       *index.Analyzer
	docs     []Doc // in identity order: ties go to the lower index
	lens     []uint32
	totalLen uint64
	terms    map[string]int32
	postings [][]uint32 // by term: documents, ascending
	tfs      [][]uint32 // by term: the tf of each posting

	scores  []float64
	touched []uint32
	heap    []entry
}

type entry struct {
	score float64
	doc   uint32
}

// Build indexes docs with an (the last of equal identities wins).
func Build(an *index.Analyzer, docs []Doc) *Index {
	byID := map[[2]string]int{}
	var ds []Doc
	for _, d := range docs {
		k := [2]string{d.Category, d.Name}
		if i, ok := byID[k]; ok {
			ds[i] = d
			continue
		}
		byID[k] = len(ds)
		ds = append(ds, d)
	}
	slices.SortFunc(ds, func(a, b Doc) int {
		return cmp.Or(cmp.Compare(a.Category, b.Category), cmp.Compare(a.Name, b.Name))
	})
	x := &Index{an: an, docs: ds, lens: make([]uint32, len(ds)), terms: map[string]int32{},
		scores: make([]float64, len(ds))}
	var toks []string
	for i, d := range ds {
		toks = an.AppendTokens(toks[:0], d.Name)
		toks = an.AppendTokens(toks, d.Content)
		x.lens[i] = uint32(len(toks))
		x.totalLen += uint64(len(toks))
		for _, t := range toks {
			id, ok := x.terms[t]
			if !ok {
				id = int32(len(x.postings))
				x.terms[t] = id
				x.postings = append(x.postings, nil)
				x.tfs = append(x.tfs, nil)
			}
			p := x.postings[id]
			if n := len(p); n > 0 && p[n-1] == uint32(i) {
				x.tfs[id][n-1]++
				continue
			}
			x.postings[id] = append(p, uint32(i))
			x.tfs[id] = append(x.tfs[id], 1)
		}
	}
	return x
}

// Len is the number of documents.
func (x *Index) Len() int { return len(x.docs) }

// Terms are the distinct terms of query, in query order, as recall's
// Snapshot.Terms gives them.
func (x *Index) Terms(query string) []string {
	return x.an.Query(query).Terms
}

// Top appends the k best documents for the distinct terms to dst, best
// first, ties by identity.
func (x *Index) Top(dst []Hit, terms []string, k int) []Hit {
	n := float64(len(x.docs))
	if n == 0 || x.totalLen == 0 || k <= 0 {
		return dst
	}
	avgdl := float64(x.totalLen) / n
	c0, c1 := index.K1*(1-index.B), index.K1*index.B/avgdl
	for _, t := range terms {
		id, ok := x.terms[t]
		if !ok {
			continue
		}
		docs, tfs := x.postings[id], x.tfs[id]
		df := float64(len(docs))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for i, d := range docs {
			tf := float64(tfs[i])
			v := idf * tf * (index.K1 + 1) / (tf + c0 + c1*float64(x.lens[d]))
			if x.scores[d] == 0 {
				x.touched = append(x.touched, d)
			}
			x.scores[d] += v
		}
	}
	// The top k in a min-heap: the root is the worst kept.
	h := x.heap[:0]
	for _, d := range x.touched {
		e := entry{x.scores[d], d}
		x.scores[d] = 0
		switch {
		case len(h) < k:
			h = append(h, e)
			up(h, len(h)-1)
		case better(e, h[0]):
			h[0] = e
			down(h, 0)
		}
	}
	x.touched = x.touched[:0]
	slices.SortFunc(h, func(a, b entry) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	for _, e := range h {
		d := &x.docs[e.doc]
		dst = append(dst, Hit{Category: d.Category, Name: d.Name, Score: e.score})
	}
	x.heap = h[:0]
	return dst
}

// better: a higher score, or the same score and an earlier identity.
func better(a, b entry) bool {
	return a.score > b.score || a.score == b.score && a.doc < b.doc
}

func up(h []entry, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !better(h[p], h[i]) {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func down(h []entry, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && better(h[c], h[c+1]) {
			c++
		}
		if !better(h[i], h[c]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
