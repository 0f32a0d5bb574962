package bench

import (
	"cmp"
	"math"
	"slices"
)

// Hit is one ranked document in a system's answer.
type Hit struct {
	ID    string
	Score float64
}

// Metrics are the retrieval quality figures, each a mean over the scored
// queries.
type Metrics struct {
	NDCG10    float64 `json:"ndcg_at_10"`
	Recall10  float64 `json:"recall_at_10"`
	Recall100 float64 `json:"recall_at_100"`
	MRR10     float64 `json:"mrr_at_10"`
}

// Evaluate scores a run against the judgements the way trec_eval does
// (ndcg_cut.10, recall.10, recall.100, and recip_rank cut at 10):
//
//   - a run is reordered by score, descending, ties by document id,
//     descending, as trec_eval sorts a run file, so that evaluating the run
//     files WriteRun writes gives the same figures;
//   - nDCG@10 uses the grade itself as the gain (trec_eval's default, not
//     2^grade − 1) and a log2(rank + 1) discount; the ideal ranking is
//     built from every judged document of the query, best grade first;
//   - documents with grade ≤ 0, or not judged, are not relevant; Recall@k
//     and MRR@10 count grade ≥ 1;
//   - the mean is taken over every query in qrels that has at least one
//     relevant document, a query missing from the run counting 0
//     (trec_eval -c).
//
// run maps query ids to ranked hits and is not modified.
func Evaluate(qrels Qrels, run map[string][]Hit) Metrics {
	var sum Metrics
	n := 0
	for qid, judged := range qrels {
		m, ok := EvaluateQuery(judged, run[qid])
		if !ok {
			continue
		}
		sum.NDCG10 += m.NDCG10
		sum.Recall10 += m.Recall10
		sum.Recall100 += m.Recall100
		sum.MRR10 += m.MRR10
		n++
	}
	if n == 0 {
		return Metrics{}
	}
	return Metrics{
		NDCG10:    sum.NDCG10 / float64(n),
		Recall10:  sum.Recall10 / float64(n),
		Recall100: sum.Recall100 / float64(n),
		MRR10:     sum.MRR10 / float64(n),
	}
}

// EvaluateQuery scores one query's hits against its judgements. ok is false
// when no judged document is relevant (the query has no ideal ranking and
// trec_eval leaves it out).
func EvaluateQuery(judged map[string]int, hits []Hit) (m Metrics, ok bool) {
	var grades []int
	for _, g := range judged {
		if g > 0 {
			grades = append(grades, g)
		}
	}
	if len(grades) == 0 {
		return Metrics{}, false
	}
	slices.SortFunc(grades, func(a, b int) int { return b - a })
	var ideal float64
	for i, g := range grades[:min(10, len(grades))] {
		ideal += float64(g) / math.Log2(float64(i+2))
	}

	ranked := trecOrder(hits)
	var dcg float64
	var rel10, rel100 int
	for i, h := range ranked {
		if i == 100 {
			break
		}
		g := judged[h.ID]
		if g <= 0 {
			continue
		}
		if i < 10 {
			dcg += float64(g) / math.Log2(float64(i+2))
			rel10++
			if m.MRR10 == 0 {
				m.MRR10 = 1 / float64(i+1)
			}
		}
		rel100++
	}
	m.NDCG10 = dcg / ideal
	m.Recall10 = float64(rel10) / float64(len(grades))
	m.Recall100 = float64(rel100) / float64(len(grades))
	return m, true
}

// trecOrder returns hits sorted as trec_eval sorts a run: score
// descending, then document id descending. A document listed twice counts
// once, at its first position.
func trecOrder(hits []Hit) []Hit {
	out := make([]Hit, 0, len(hits))
	seen := make(map[string]bool, len(hits))
	for _, h := range hits {
		if !seen[h.ID] {
			seen[h.ID] = true
			out = append(out, h)
		}
	}
	slices.SortStableFunc(out, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
	return out
}
