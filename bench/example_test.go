package bench_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/recallhq/recall/bench"
)

// Run recall's BM25 on a tiny BEIR folder, quality figures only.
func Example() {
	ds, err := bench.Load(filepath.Join("testdata", "tiny"))
	if err != nil {
		panic(err)
	}
	tmp, _ := os.MkdirTemp("", "bench-example")
	defer os.RemoveAll(tmp)
	modes, err := bench.RecallModes([]string{bench.ModeBM25}, bench.RecallOptions{TempDir: tmp})
	if err != nil {
		panic(err)
	}
	rep, err := bench.Run(context.Background(), bench.Config{Modes: modes, Passes: -1}, []*bench.Dataset{ds})
	if err != nil {
		panic(err)
	}
	r := rep.Results[0]
	fmt.Printf("%s %s: %d docs, %d queries\n", r.Dataset, r.Mode, r.Docs, r.Queries)
	fmt.Printf("nDCG@10 %.4f  R@10 %.2f  MRR@10 %.2f\n", r.Quality.NDCG10, r.Quality.Recall10, r.Quality.MRR10)
	// Output:
	// tiny bm25: 6 docs, 4 queries
	// nDCG@10 0.7149  R@10 0.75  MRR@10 0.75
}

// Metrics as trec_eval computes them, on one query: grades are gains.
// DCG = 2/log2(3) + 1/log2(4) = 1.7619, IDCG = 2 + 1/log2(3) = 2.6309.
func ExampleEvaluateQuery() {
	judged := map[string]int{"a": 2, "b": 1, "c": 0}
	ranking := []bench.Hit{{ID: "c", Score: 3}, {ID: "a", Score: 2}, {ID: "b", Score: 1}}
	m, _ := bench.EvaluateQuery(judged, ranking)
	fmt.Printf("nDCG@10 %.4f  R@10 %.2f  MRR@10 %.2f\n", m.NDCG10, m.Recall10, m.MRR10)
	// Output:
	// nDCG@10 0.6697  R@10 1.00  MRR@10 0.50
}

// Document ids that are not valid entry names are escaped reversibly.
func ExampleEntryName() {
	name, _ := bench.EntryName("<dbpedia:Foo_Bar>")
	id, _ := bench.DocID(name)
	fmt.Println(name)
	fmt.Println(id)
	// Output:
	// _3Cdbpedia_3AFoo_Bar_3E
	// <dbpedia:Foo_Bar>
}
