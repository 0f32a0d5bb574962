package service_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/recallhq/recall/bench"
	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
)

// TestMinScoreQuality measures what min_score costs in nDCG@10 with the
// hash embedder on the shared BEIR sets, and what it buys on a nonsense
// query. It reads ../shared/bench-data (RECALL_BENCH_DATA to override) and
// runs only with RECALL_MINSCORE_EVAL=1:
//
//	RECALL_MINSCORE_EVAL=1 go test -run TestMinScoreQuality -v ./service
func TestMinScoreQuality(t *testing.T) {
	if os.Getenv("RECALL_MINSCORE_EVAL") == "" {
		t.Skip("set RECALL_MINSCORE_EVAL=1 to measure (minutes)")
	}
	root := os.Getenv("RECALL_BENCH_DATA")
	if root == "" {
		root = filepath.Join("..", "..", "shared", "bench-data")
		if _, err := os.Stat(root); err != nil {
			root = "/work/shared/bench-data"
		}
	}
	thresholds := []float64{0, 0.1, 0.2, 0.3, 0.4}
	ctx := context.Background()
	for _, name := range []string{"msmarco", "dbpedia", "cmrc2018", "drcd"} {
		ds, err := bench.Load(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		st, err := boltstore.Open(filepath.Join(t.TempDir(), name+".db"), &boltstore.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, d := range ds.Docs {
			n, err := bench.EntryName(d.ID)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Put(ctx, store.Entry{Category: "d", Name: n, Content: d.Content()}); err != nil {
				t.Fatal(err)
			}
			texts = append(texts, index.EntryText(n, d.Content()))
		}
		emb, err := hash.New(hash.Config{})
		if err != nil {
			t.Fatal(err)
		}
		vec := cache.New(emb, any(st).(cache.Backend), cache.Options{})
		if _, err := vec.Sync(ctx, texts, nil); err != nil {
			t.Fatal(err)
		}
		bm := service.New(st, service.Options{})
		fm := service.New(st, service.Options{Engine: retrieve.Options{Embedder: emb, Vectors: vec}})
		runs := make([]map[string][]bench.Hit, len(thresholds)+1)
		for i := range runs {
			runs[i] = map[string][]bench.Hit{}
		}
		ten, zero, no := 10, 0, false
		for _, q := range ds.Queries {
			for i := range runs {
				p := service.RetrieveParams{Query: q.Text, Limit: &ten, BudgetTokens: &zero, ExpandLinks: &no}
				m := bm
				if i > 0 {
					m, p.MinScore = fm, &thresholds[i-1]
				}
				res, _, err := m.Retrieve(ctx, p)
				if err != nil {
					t.Fatal(err)
				}
				for _, it := range res.Items {
					id, _ := bench.DocID(it.Name)
					runs[i][q.ID] = append(runs[i][q.ID], bench.Hit{ID: id, Score: it.Score})
				}
			}
		}
		line := fmt.Sprintf("%-9s bm25 %.4f", name, bench.Evaluate(ds.Qrels, runs[0]).NDCG10)
		for i, th := range thresholds {
			res, _, _ := fm.Retrieve(ctx, service.RetrieveParams{Query: "qwertyuiop", MinScore: &thresholds[i]})
			line += fmt.Sprintf(" | fused min_score %.1f: %.4f (qwertyuiop: %d items)", th, bench.Evaluate(ds.Qrels, runs[i+1]).NDCG10, len(res.Items))
		}
		t.Log(line)
		st.Close()
	}
}
