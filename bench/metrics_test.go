package bench

import (
	"math"
	"testing"
)

// A hand-worked example. Judgements: a=2, b=1, c=0, d=1 (e unjudged).
// Ranking: c, a, e, b.
//
//	DCG@10  = 0 + 2/log2(3) + 0 + 1/log2(5)          = 1.26186 + 0.43068 = 1.69254
//	IDCG@10 = 2/log2(2) + 1/log2(3) + 1/log2(4)      = 2 + 0.63093 + 0.5 = 3.13093
//	nDCG@10 = 1.69254 / 3.13093                      = 0.54059
//	R@10 = R@100 = 2 of the 3 relevant (a, b; not d) = 0.66667
//	MRR@10 = first relevant at rank 2                = 0.5
//
// With the exponential gain 2^g − 1 nDCG would be 0.5625 instead: this
// example tells the two apart.
func TestEvaluateQueryHandWorked(t *testing.T) {
	judged := map[string]int{"a": 2, "b": 1, "c": 0, "d": 1}
	hits := []Hit{{"c", 4}, {"a", 3}, {"e", 2}, {"b", 1}}
	m, ok := EvaluateQuery(judged, hits)
	if !ok {
		t.Fatal("query with relevant documents not scored")
	}
	want := Metrics{NDCG10: 0.54059, Recall10: 2.0 / 3, Recall100: 2.0 / 3, MRR10: 0.5}
	checkMetrics(t, m, want, 5e-6)
}

func TestEvaluateQueryCases(t *testing.T) {
	judged := map[string]int{"r1": 1, "r2": 1}
	ranks := func(n int, rel ...int) []Hit {
		// n hits with strictly falling scores; the given 1-based ranks
		// hold r1, r2.
		hits := make([]Hit, n)
		for i := range hits {
			hits[i] = Hit{ID: "x" + string(rune('A'+i%26)) + string(rune('a'+i/26)), Score: float64(n - i)}
		}
		for j, r := range rel {
			hits[r-1].ID = []string{"r1", "r2"}[j]
		}
		return hits
	}
	cases := []struct {
		name string
		hits []Hit
		want Metrics
	}{
		{"perfect", ranks(2, 1, 2), Metrics{1, 1, 1, 1}},
		{"nothing retrieved", nil, Metrics{}},
		// r1 at rank 3, r2 at rank 11: only r1 is inside the cut at 10.
		{"beyond ten", ranks(20, 3, 11), Metrics{
			NDCG10:    (1 / math.Log2(4)) / (1 + 1/math.Log2(3)),
			Recall10:  0.5,
			Recall100: 1,
			MRR10:     1.0 / 3,
		}},
		// r2 at rank 101 is beyond Recall@100's cut.
		{"beyond a hundred", ranks(120, 100, 101), Metrics{
			Recall100: 0.5,
		}},
		// Equal scores: trec_eval orders ties by document id, descending,
		// so "x" (not relevant) comes before "r1".
		{"ties by id descending", []Hit{{"r1", 1}, {"x", 1}}, Metrics{
			NDCG10:   (1 / math.Log2(3)) / (1 + 1/math.Log2(3)),
			Recall10: 0.5, Recall100: 0.5, MRR10: 0.5,
		}},
		// A document listed twice counts once, at its first position.
		{"duplicates", []Hit{{"r1", 3}, {"r1", 2}, {"r2", 1}}, Metrics{1, 1, 1, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, ok := EvaluateQuery(judged, c.hits)
			if !ok {
				t.Fatal("not scored")
			}
			checkMetrics(t, m, c.want, 1e-12)
		})
	}
}

func TestEvaluateQueryWithoutRelevant(t *testing.T) {
	if _, ok := EvaluateQuery(map[string]int{"a": 0}, []Hit{{"a", 1}}); ok {
		t.Error("a query whose judged documents are all grade 0 was scored")
	}
}

func TestEvaluateMeans(t *testing.T) {
	qrels := Qrels{
		"q1":   {"a": 1},
		"q2":   {"b": 1},
		"none": {"c": 0}, // no relevant document: left out of the mean
	}
	// q1 perfect, q2 missing from the run: it counts 0 (trec_eval -c).
	run := map[string][]Hit{"q1": {{"a", 1}}, "other": {{"b", 1}}}
	checkMetrics(t, Evaluate(qrels, run), Metrics{0.5, 0.5, 0.5, 0.5}, 1e-12)
	if got := Evaluate(Qrels{}, run); got != (Metrics{}) {
		t.Errorf("Evaluate without judgements = %+v, want zero", got)
	}
}

func TestEvaluateDoesNotReorderInput(t *testing.T) {
	hits := []Hit{{"a", 1}, {"b", 2}}
	EvaluateQuery(map[string]int{"a": 1}, hits)
	if hits[0].ID != "a" || hits[1].ID != "b" {
		t.Errorf("input reordered: %v", hits)
	}
}

func checkMetrics(t *testing.T, got, want Metrics, tol float64) {
	t.Helper()
	for _, f := range []struct {
		name      string
		got, want float64
	}{
		{"nDCG@10", got.NDCG10, want.NDCG10},
		{"Recall@10", got.Recall10, want.Recall10},
		{"Recall@100", got.Recall100, want.Recall100},
		{"MRR@10", got.MRR10, want.MRR10},
	} {
		if math.Abs(f.got-f.want) > tol {
			t.Errorf("%s = %.6f, want %.6f", f.name, f.got, f.want)
		}
	}
}
