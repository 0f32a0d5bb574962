package bench

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/index/gse"
	"github.com/recallhq/recall/retrieve"
)

func loadTiny(t *testing.T) *Dataset {
	t.Helper()
	ds, err := Load(filepath.Join("testdata", "tiny"))
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestRunRecallTiny runs recall's BM25 on the tiny set on both backends.
// Hand-derived: q1..q3 find their relevant documents first (R@10 = 1,
// MRR@10 = 1) and q4 ("volcano") matches nothing (0), so R@10, R@100 and
// MRR@10 are 3/4 whatever the order of q1's two turtles.
func TestRunRecallTiny(t *testing.T) {
	ds := loadTiny(t)
	for _, b := range []Backend{BackendBolt, BackendFS} {
		t.Run(string(b), func(t *testing.T) {
			dir := t.TempDir()
			runDir := filepath.Join(dir, "runs")
			modes, err := RecallModes([]string{ModeBM25}, RecallOptions{Backend: b, TempDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Run(context.Background(), Config{Modes: modes, Passes: 2, RunDir: runDir}, []*Dataset{ds})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 {
				t.Fatalf("%d results, want 1", len(rep.Results))
			}
			r := rep.Results[0]
			if r.Dataset != "tiny" || r.Mode != ModeBM25 || r.System != SystemRecall || r.Docs != 6 || r.Queries != 4 {
				t.Errorf("result header = %+v", r)
			}
			q := r.Quality
			if q.Recall10 != 0.75 || q.Recall100 != 0.75 || q.MRR10 != 0.75 || q.NDCG10 <= 0.5 || q.NDCG10 > 0.75 {
				t.Errorf("quality = %+v, want R@10 = R@100 = MRR@10 = 0.75 and 0.5 < nDCG@10 <= 0.75", q)
			}
			if r.Latency.Samples != 8 || r.AgentLatency == nil || r.AgentLatency.Samples != 8 || r.RankLatency == nil || r.RankLatency.Samples != 8 {
				t.Errorf("latency samples = %d, agent %+v, rank %+v; want 2 passes × 4 queries each", r.Latency.Samples, r.AgentLatency, r.RankLatency)
			}
			if r.EmbedMs != 0 || r.PrepareMs != 0 {
				t.Errorf("BM25 reports an embed or prepare phase: %+v", r)
			}
			if r.Latency.P50Us <= 0 || r.Latency.P99Us < r.Latency.P50Us || r.Latency.QPS <= 0 {
				t.Errorf("latency = %+v", r.Latency)
			}

			// The run file holds the original ids and gives the same figures.
			f, err := os.Open(filepath.Join(runDir, "tiny.bm25.run"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			run := readRun(t, f)
			if got := Evaluate(ds.Qrels, run); got != r.Quality {
				t.Errorf("run file evaluates to %+v, report says %+v", got, r.Quality)
			}
			var ids []string
			for _, h := range run["q1"] {
				ids = append(ids, h.ID)
			}
			slices.Sort(ids)
			if got := strings.Join(ids, " "); got != "<dbpedia:Green_Sea_Turtle> <dbpedia:Sea_Turtle>" {
				t.Errorf("q1 hits = %s", got)
			}
			if len(run["q2"]) != 2 || len(run["q4"]) != 0 {
				t.Errorf("q2 hits %v, q4 hits %v", run["q2"], run["q4"])
			}
			// The temporary store is gone.
			left, _ := filepath.Glob(filepath.Join(dir, "recall-bench-*"))
			if len(left) > 0 {
				t.Errorf("temporary stores left behind: %v", left)
			}
		})
	}
}

// fakeSubject ranks the judged documents of each query in a fixed order
// and records what the runner asked of it.
type fakeSubject struct {
	calls  *[]string
	failOn string
}

func (f *fakeSubject) Load(context.Context, *Dataset) error {
	*f.calls = append(*f.calls, "load")
	return nil
}
func (f *fakeSubject) Build(context.Context) error { *f.calls = append(*f.calls, "build"); return nil }
func (f *fakeSubject) Close() error                { *f.calls = append(*f.calls, "close"); return nil }
func (f *fakeSubject) Search(_ context.Context, q string, k int) ([]Hit, error) {
	if k != Depth {
		return nil, errors.New("asked for the wrong depth")
	}
	if q == f.failOn {
		return nil, errors.New("boom")
	}
	return []Hit{{"mountains", 2}, {"haibian-1", 1}}, nil
}

func TestRunPhasesAndErrors(t *testing.T) {
	ds := loadTiny(t)
	var calls []string
	var phases []string
	mode := Mode{Name: "fake", System: "peer", New: func() (Subject, error) { return &fakeSubject{calls: &calls}, nil }}
	cfg := Config{Modes: []Mode{mode}, Passes: -1, Progress: func(p Progress) {
		if p.Done == p.Total && (len(phases) == 0 || phases[len(phases)-1] != p.Phase) {
			phases = append(phases, p.Phase)
		}
	}}
	rep, err := Run(context.Background(), cfg, []*Dataset{ds})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(calls, ","); got != "load,build,close" {
		t.Errorf("calls = %s", got)
	}
	if got := strings.Join(phases, ","); got != "load,build,quality" {
		t.Errorf("phases = %s (quality only: no latency phase)", got)
	}
	r := rep.Results[0]
	// q3 finds haibian-1 at rank 2, q4 finds mountains at rank 1.
	if r.Quality.MRR10 != (0.5+1)/4 || r.Latency.Samples != 0 || r.AgentLatency != nil {
		t.Errorf("result = %+v", r)
	}

	calls = nil
	failing := Mode{Name: "fake", New: func() (Subject, error) { return &fakeSubject{calls: &calls, failOn: "想去海边"}, nil }}
	_, err = Run(context.Background(), Config{Modes: []Mode{failing}, Passes: -1}, []*Dataset{ds})
	if err == nil || !strings.Contains(err.Error(), "fake on tiny") || !strings.Contains(err.Error(), `"q3"`) {
		t.Errorf("err = %v, want it to name the mode, the dataset and the query", err)
	}
	if len(calls) == 0 || calls[len(calls)-1] != "close" {
		t.Errorf("a failed subject was not closed: %v", calls)
	}
}

// Each rule of Config.Validate, with the error naming the mode or value
// at fault.
func TestConfigValidate(t *testing.T) {
	mode := func(name string) Mode { return Mode{Name: name, New: func() (Subject, error) { return nil, nil }} }
	tests := []struct {
		name string
		c    Config
		want string // "" means valid
	}{
		{"one mode", Config{Modes: []Mode{mode("a")}}, ""},
		{"two modes and a depth", Config{Modes: []Mode{mode("a"), mode("b")}, Depth: 100}, ""},
		{"no modes", Config{}, "no modes"},
		{"no constructor", Config{Modes: []Mode{mode("a"), {Name: "b"}}}, `mode "b" has no name or constructor`},
		{"no name", Config{Modes: []Mode{mode("")}}, `mode "" has no name or constructor`},
		{"a mode twice", Config{Modes: []Mode{mode("a"), mode("b"), mode("a")}}, `mode "a" given twice`},
		{"negative depth", Config{Modes: []Mode{mode("a")}, Depth: -1}, "negative depth -1"},
	}
	for _, tt := range tests {
		err := tt.c.Validate()
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: Validate = %v, want nil", tt.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Validate = %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
}

// TestRunFusionTiny runs the fusion mode with the offline hash embedder:
// vectors are filled through the cache into the bench's store, and every
// query takes the embedding path.
func TestRunFusionTiny(t *testing.T) {
	ds := loadTiny(t)
	emb, err := hash.New(hash.Config{})
	if err != nil {
		t.Fatal(err)
	}
	modes, err := RecallModes([]string{ModeFusion}, RecallOptions{TempDir: t.TempDir(), Retrieve: retrieve.Options{Embedder: emb}})
	if err != nil {
		t.Fatal(err)
	}
	if modes[0].Name != "fusion-hash" {
		t.Errorf("mode name = %q, want fusion-hash", modes[0].Name)
	}
	rep, err := Run(context.Background(), Config{Modes: modes, Passes: 1}, []*Dataset{ds})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results[0]
	if r.EmbedMs <= 0 {
		t.Errorf("embed phase not timed: %+v", r)
	}
	if want := "the embedding path answered 4 of 4 queries"; len(r.Notes) != 1 || !strings.Contains(r.Notes[0], want) {
		t.Errorf("notes = %q, want one saying %q", r.Notes, want)
	}
	// Cosine similarity reaches documents BM25 cannot: every judged
	// relevant document of q1..q3 is still found.
	if r.Quality.Recall100 < 0.75 || r.Latency.Samples != 4 || r.RankLatency != nil {
		t.Errorf("result = %+v", r)
	}
	if _, err := RecallModes([]string{ModeFusion}, RecallOptions{}); !errors.Is(err, ErrNoEmbedder) {
		t.Errorf("fusion without an embedder: err = %v, want ErrNoEmbedder", err)
	}
	if _, err := RecallModes([]string{"bm26"}, RecallOptions{}); err == nil {
		t.Error("an unknown mode was accepted")
	}
}

// A recall subject's fused retrieves count how often the embedding path
// answered, and each repeat of a query looks new to the query-vector cache.
func TestFreshQueries(t *testing.T) {
	s := &recallSubject{seen: map[string]int{}}
	got := []string{s.fresh("q"), s.fresh("q"), s.fresh("p"), s.fresh("q")}
	want := []string{"q", "q ", "p", "q  "}
	if !slices.Equal(got, want) {
		t.Errorf("fresh = %q, want %q", got, want)
	}
	bm := &recallSubject{}
	if first, second := bm.fresh("q"), bm.fresh("q"); first != "q" || second != "q" {
		t.Error("a BM25 subject altered a repeated query")
	}
}

// The gse dictionary is loaded before the timed phases and reported on its
// own; the Chinese query still finds its document with dictionary words.
// The dictionary is loaded once per process, so the check runs in a fresh
// one (this test binary again), where nothing else loaded it first.
func TestRunGSETiny(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the gse dictionary (seconds, >100 MB): runs in the full pass (without -short)")
	}
	const child = "RECALL_TEST_GSE_CHILD"
	if os.Getenv(child) == "" {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestRunGSETiny$", "-test.count", "1", "-test.v")
		cmd.Env = append(os.Environ(), child+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("--- PASS: TestRunGSETiny")) {
			t.Fatalf("the check in a fresh process: %v\n%s", err, out)
		}
		return
	}
	if gse.Loaded() {
		t.Fatal("the gse dictionary is loaded in a fresh process before anything asked for it")
	}
	ds := loadTiny(t)
	modes, err := RecallModes([]string{ModeBM25GSE}, RecallOptions{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Config{Modes: modes, Passes: -1}, []*Dataset{ds})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results[0]
	if !gse.Loaded() {
		t.Fatal("bm25-gse did not load the gse dictionary")
	}
	if r.PrepareMs <= 0 || r.PrepareHeapBytes < 10<<20 || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "gse dictionary zh_s loaded") {
		t.Errorf("prepare = %v ms, %d bytes, notes %q", r.PrepareMs, r.PrepareHeapBytes, r.Notes)
	}
	if r.Quality.Recall10 != 0.75 {
		t.Errorf("R@10 = %v, want 0.75 as with bigrams", r.Quality.Recall10)
	}
}
