package bench

import (
	"cmp"
	"math"
	"slices"

	"github.com/recallhq/recall/index"
)

// ModeBM25PRF is BM25 followed by RM3 pseudo-relevance feedback: the query
// is expanded with the terms that weigh most in its top hits and scored
// again. An experiment, not a library feature: docs/benchmarks.md has its
// figures and why it stayed here.
const ModeBM25PRF = "bm25-prf"

// PRF configures RM3 as Anserini's defaults do.
type PRF struct {
	Docs   int     // feedback documents (10)
	Terms  int     // expansion terms (10)
	Weight float64 // weight of the original query, λ (0.5)
	// MaxDF drops candidate terms that occur in more than this share of
	// the documents (0.1): they carry no information about the topic, and
	// the SPEC analyzer keeps stop words.
	MaxDF float64
}

// DefaultPRF is the RM3 set-up the bench measures.
var DefaultPRF = PRF{Docs: 10, Terms: 10, Weight: 0.5, MaxDF: 0.1}

// rm3 ranks the top k documents for query with RM3: a first BM25 pass;
// P(t|R) = Σ_D P(t|D)·P(D|Q) over the top Docs hits, with P(t|D) =
// tf/|D| and P(D|Q) the hit's share of their summed scores; the Terms
// heaviest terms (df ≤ MaxDF·N); then BM25 again, each term weighted by
// λ·P(t|Q) + (1−λ)·P(t|R), where P(t|Q) = 1/|Q| for the query's terms.
func rm3(snap *index.Snapshot, query string, k int, p PRF) []index.Scored {
	terms := snap.Terms(query)
	first := snap.Search(terms, p.Docs)
	if len(first) == 0 {
		return nil
	}
	var total float64
	for _, h := range first {
		total += h.Score
	}
	an := snap.Analyzer()
	rel := map[string]float64{}
	var toks []string
	for _, h := range first {
		toks = an.AppendTokens(toks[:0], h.Doc.Name)
		toks = an.AppendTokens(toks, h.Doc.Content)
		if len(toks) == 0 {
			continue
		}
		w := h.Score / total / float64(len(toks))
		for _, t := range toks {
			rel[t] += w
		}
	}
	type cand struct {
		t string
		w float64
	}
	var cands []cand
	for t, w := range rel {
		cands = append(cands, cand{t, w})
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if c := cmp.Compare(b.w, a.w); c != 0 {
			return c
		}
		return cmp.Compare(a.t, b.t)
	})
	maxDF := int(math.Ceil(p.MaxDF * float64(snap.Count())))
	weights := map[string]float64{}
	var sum float64
	for _, c := range cands {
		if len(weights) == p.Terms {
			break
		}
		df := 0
		snap.Score([]string{c.t}, func(*index.Doc, float64) { df++ })
		if df > maxDF {
			continue
		}
		weights[c.t] = c.w
		sum += c.w
	}
	for t, w := range weights {
		weights[t] = (1 - p.Weight) * w / sum
	}
	for _, t := range terms {
		weights[t] += p.Weight / float64(len(terms))
	}
	scores := map[*index.Doc]float64{}
	for t, w := range weights {
		snap.Score([]string{t}, func(d *index.Doc, s float64) { scores[d] += w * s })
	}
	var top index.TopK
	top.Reset(k)
	for d, s := range scores {
		top.Push(d, s)
	}
	return top.Sorted()
}
