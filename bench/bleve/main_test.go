package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/bench"
	"github.com/recallhq/recall/index"
)

const tiny = "../testdata/tiny"

// Bleve answers the tiny set as recall does: q1..q3 find their documents,
// "volcano" nothing, so R@10 = MRR@10 = 3/4 under either scoring.
func TestBleveModesTiny(t *testing.T) {
	ds, err := bench.Load(tiny)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := bench.Run(context.Background(), bench.Config{Modes: bleveModes(index.DefaultAnalyzer), Passes: 1}, []*bench.Dataset{ds})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.System != "bleve" || r.Quality.Recall10 != 0.75 || r.Quality.MRR10 != 0.75 || r.Latency.Samples != 4 {
			t.Errorf("%s: %+v", r.Mode, r)
		}
	}
	// BM25 and TF-IDF rank q1's two turtles differently or not, but both
	// are real scorings: their figures come from Bleve, not from a default.
	if rep.Results[0].Mode != "bleve-bm25" || rep.Results[1].Mode != "bleve-tfidf" {
		t.Errorf("modes = %s, %s", rep.Results[0].Mode, rep.Results[1].Mode)
	}
}

func TestBleveScoringModelIsUsed(t *testing.T) {
	ds, err := bench.Load(tiny)
	if err != nil {
		t.Fatal(err)
	}
	scores := map[string]float64{}
	for _, m := range bleveModes(index.DefaultAnalyzer) {
		s, err := m.New()
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		if err := s.Load(ctx, ds); err != nil {
			t.Fatal(err)
		}
		if err := s.Build(ctx); err != nil {
			t.Fatal(err)
		}
		hits, err := s.Search(ctx, "sea turtle", 10)
		if err != nil || len(hits) != 2 {
			t.Fatalf("%s: hits %v, err %v", m.Name, hits, err)
		}
		scores[m.Name] = hits[0].Score
		s.Close()
	}
	// The legacy in-memory index ignores the scoring model; scorch does not.
	if scores["bleve-bm25"] == scores["bleve-tfidf"] {
		t.Errorf("BM25 and TF-IDF give the same top score %v: the scoring model is ignored", scores["bleve-bm25"])
	}
}

func TestRunCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errb strings.Builder
	err := run(context.Background(), []string{"-mode", "bm25,bleve-bm25", "-passes", "1", "-tmp", dir,
		"-json", filepath.Join(dir, "r.json"), "-svg", filepath.Join(dir, "r.svg"), tiny}, &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	for _, want := range []string{"recall bm25 against peers", "bleve-bm25", "faster"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	for _, f := range []string{"r.json", "r.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if err := run(context.Background(), []string{"-mode", "bm26", tiny}, &out, &errb); err == nil {
		t.Error("an unknown mode was accepted")
	}
	if err := run(context.Background(), nil, &out, &errb); err == nil {
		t.Error("no dataset was accepted")
	}
}
