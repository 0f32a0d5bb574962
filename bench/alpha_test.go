package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/recallhq/recall/embed"
	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/embed/openai"
	"github.com/recallhq/recall/retrieve"
)

// TestAlphaSweep measures fusion's nDCG@10 against BM25's at α from 0.3
// to 0.9 and at each embedder's default α, for a real static model served
// over OpenAI's wire format (model2vec_test.go) and for the hash
// embedder. It is the measurement behind the per-embedder defaults
// (retrieve.DefaultAlpha) and runs only when asked:
//
//	RECALL_ALPHA_SWEEP=/work/shared/bench-data go test ./bench -run TestAlphaSweep -v -timeout 60m
//
// $RECALL_ALPHA_SWEEP is a folder of BEIR datasets, $RECALL_ALPHA_SWEEP_ALPHAS
// an optional comma-separated list of α to try instead, $RECALL_M2V_MODEL
// the model folder; the table goes to the test log.
func TestAlphaSweep(t *testing.T) {
	root := os.Getenv("RECALL_ALPHA_SWEEP")
	if root == "" {
		t.Skip("set RECALL_ALPHA_SWEEP to a folder of BEIR datasets to run the α sweep")
	}
	m, err := loadModel2Vec(modelDir(t))
	if err != nil {
		t.Fatal(err)
	}
	srv := m.serveOpenAI(t)
	m2v, err := openai.New(openai.Config{APIKey: "sk-local", BaseURL: srv.URL + "/v1", Model: "m2v-bge-base-vq128"})
	if err != nil {
		t.Fatal(err)
	}
	hashEmb, err := hash.New(hash.Config{})
	if err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "*", "corpus.jsonl"))
	var datasets []*Dataset
	for _, d := range dirs {
		ds, err := Load(filepath.Dir(d))
		if err != nil {
			t.Fatal(err)
		}
		datasets = append(datasets, ds)
	}
	alphas := []float64{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}
	if list := os.Getenv("RECALL_ALPHA_SWEEP_ALPHAS"); list != "" { // e.g. "0.95,1"
		alphas = nil
		for _, f := range strings.Split(list, ",") {
			a, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || a <= 0 || a > 1 {
				t.Fatalf("RECALL_ALPHA_SWEEP_ALPHAS: %q is not in (0, 1]", f)
			}
			alphas = append(alphas, a)
		}
	}
	embedders := []struct {
		name string
		emb  embed.Embedder
	}{{"openai-m2v", m2v}, {"hash", hashEmb}}
	modes, err := RecallModes([]string{ModeBM25}, RecallOptions{Backend: BackendBolt, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range embedders {
		for _, a := range append(alphas, 0) {
			ms, err := RecallModes([]string{ModeFusion}, RecallOptions{Backend: BackendBolt, TempDir: t.TempDir(),
				Retrieve: retrieve.Options{Embedder: e.emb, Alpha: a}})
			if err != nil {
				t.Fatal(err)
			}
			ms[0].Name = fmt.Sprintf("%s@%g", e.name, a)
			if a == 0 {
				ms[0].Name = e.name + "@default"
			}
			modes = append(modes, ms[0])
		}
	}
	rep, err := Run(context.Background(), Config{Modes: modes, Passes: -1, NoAgent: true}, datasets)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nnDCG@10 minus BM25's, per dataset\n%-22s", "mode")
	for _, ds := range rep.Datasets() {
		fmt.Fprintf(&b, " %9s", ds)
	}
	fmt.Fprintf(&b, " %9s\n%-22s", "worst", "bm25 (absolute)")
	for _, ds := range rep.Datasets() {
		fmt.Fprintf(&b, " %9.4f", rep.Find(ds, ModeBM25).Quality.NDCG10)
	}
	b.WriteString("\n")
	for _, md := range modes[1:] {
		fmt.Fprintf(&b, "%-22s", md.Name)
		worst := 1.0
		for _, ds := range rep.Datasets() {
			d := rep.Find(ds, md.Name).Quality.NDCG10 - rep.Find(ds, ModeBM25).Quality.NDCG10
			worst = min(worst, d)
			fmt.Fprintf(&b, " %+9.4f", d)
		}
		fmt.Fprintf(&b, " %+9.4f\n", worst)
	}
	t.Log(b.String())
}
