package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const tinyBEIR = "../../bench/testdata/tiny"

func TestBench(t *testing.T) {
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "bench.json")
	svgPath := filepath.Join(dir, "bench.svg")
	runDir := filepath.Join(dir, "runs")
	c := newCLI(t, nil)
	out := c.ok("bench", "--embedder", "hash", "--mode", "bm25,fusion", "--passes", "1",
		"--tmp", dir, "--json", jsonPath, "--svg", svgPath, "--run-dir", runDir, tinyBEIR)
	for _, want := range []string{"nDCG@10", "tiny", "bm25", "fusion-hash", "the embedding path answered 4 of 4 queries"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	var rep struct {
		Results []struct {
			Dataset, Mode string
			Quality       struct {
				Recall10 float64 `json:"recall_at_10"`
			}
		}
	}
	b, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 2 || rep.Results[0].Mode != "bm25" || rep.Results[0].Quality.Recall10 != 0.75 {
		t.Errorf("JSON report = %+v", rep)
	}
	if b, err := os.ReadFile(svgPath); err != nil || !strings.HasPrefix(string(b), "<svg") {
		t.Errorf("svg: %v, %.40q", err, b)
	}
	for _, f := range []string{"tiny.bm25.run", "tiny.fusion-hash.run"} {
		if _, err := os.Stat(filepath.Join(runDir, f)); err != nil {
			t.Error(err)
		}
	}
	// Only the reports and run files are left: the temporary stores are gone.
	left, _ := filepath.Glob(filepath.Join(dir, "recall-bench-*"))
	if len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

func TestBenchUsage(t *testing.T) {
	c := newCLI(t, nil)
	for _, args := range [][]string{
		{"bench"},
		{"bench", "--backend", "sqlite", tinyBEIR},
		{"bench", "--mode", "fusion", tinyBEIR},
		{"bench", "--mode", "bm26", tinyBEIR},
		{"bench", "--gse-dict", "ja", tinyBEIR},
		{"bench", "--passes", "-2", tinyBEIR},
	} {
		o := c.run(args...)
		if o.code != exitUsage || !strings.HasPrefix(o.stderr, "recall: ") || strings.Count(o.stderr, "\n") != 1 {
			t.Errorf("%q: code %d, stderr %q; want a one-line usage error", args, o.code, o.stderr)
		}
	}
	o := c.run("bench", "--mode", "bm25", filepath.Join(t.TempDir(), "missing"))
	if o.code != exitFailure || !strings.Contains(o.stderr, "missing") {
		t.Errorf("missing dataset: code %d, stderr %q", o.code, o.stderr)
	}
}
