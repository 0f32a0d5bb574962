package bench

import (
	"slices"
	"testing"

	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/index"
)

func TestDefaultModes(t *testing.T) {
	if got := DefaultModes(false); !slices.Equal(got, []string{ModeBM25, ModeBM25GSE}) {
		t.Errorf("without embedder: %v", got)
	}
	if got := DefaultModes(true); !slices.Equal(got, []string{ModeBM25, ModeFusion, ModeBM25GSE}) {
		t.Errorf("with embedder: %v", got)
	}
}

// Every analyzer runs every mode; the gse modes of all analyzers come
// last.
func TestRecallModesEach(t *testing.T) {
	emb, err := hash.New(hash.Config{})
	if err != nil {
		t.Fatal(err)
	}
	english, err := index.ParseAnalyzer("english")
	if err != nil {
		t.Fatal(err)
	}
	var opts RecallOptions
	opts.Retrieve.Embedder = emb
	ms, err := RecallModesEach([]string{ModeBM25, ModeBM25GSE, ModeFusion}, []*index.Analyzer{index.Default(), english}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range ms {
		names = append(names, m.Name)
	}
	want := []string{"bm25", "fusion-hash", "bm25-english", "fusion-hash-english", "bm25-gse", "bm25-gse-english"}
	if !slices.Equal(names, want) {
		t.Errorf("modes %v, want %v", names, want)
	}
	if ms, err := RecallModesEach([]string{ModeBM25}, nil, RecallOptions{}); err != nil || len(ms) != 1 || ms[0].Name != "bm25" {
		t.Errorf("no analyzers: %v, %v; want bm25 with the default analyzer", ms, err)
	}
	if _, err := RecallModesEach([]string{"nope"}, nil, RecallOptions{}); err == nil {
		t.Error("an unknown mode gave no error")
	}
}
