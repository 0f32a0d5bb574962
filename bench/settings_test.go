package bench

import (
	"errors"
	"slices"
	"testing"

	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/setup"
)

// Settings.Config names the flag at fault, and otherwise builds the modes
// in the order asked, once per analyzer, gse last.
func TestSettingsConfig(t *testing.T) {
	emb, _ := hash.New(hash.Config{})
	ok := Settings{Backend: "bolt", GSEDict: "zh_s"}
	for _, tt := range []struct {
		name    string
		s       Settings
		setting string
		modes   []string
	}{
		{"defaults", ok, "", []string{"bm25", "bm25-gse"}},
		{"defaults with an embedder", func() Settings { s := ok; s.Retrieve = retrieve.Options{Embedder: emb}; return s }(), "", []string{"bm25", "fusion-hash", "bm25-gse"}},
		{"two analyzers, gse last", func() Settings { s := ok; s.Modes = "bm25-gse, bm25"; s.Analyzers = "english-stop,spec"; return s }(), "", []string{"bm25", "bm25-spec", "bm25-gse", "bm25-gse-spec"}},
		{"backend", func() Settings { s := ok; s.Backend = "sqlite"; return s }(), "--backend", nil},
		{"gse dictionary", func() Settings { s := ok; s.GSEDict = "ja"; return s }(), "--gse-dict", nil},
		{"passes", func() Settings { s := ok; s.Passes = -2; return s }(), "--passes", nil},
		{"fusion without an embedder", func() Settings { s := ok; s.Modes = "fusion"; return s }(), "--mode", nil},
		{"unknown mode", func() Settings { s := ok; s.Modes = "bm26"; return s }(), "--mode", nil},
		{"unknown analyzer", func() Settings { s := ok; s.Analyzers = "klingon"; return s }(), "--analyzer", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := tt.s.Config()
			if tt.setting != "" {
				var se *setup.Error
				if !errors.As(err, &se) || se.Setting != tt.setting {
					t.Fatalf("err = %v, want a setup.Error for %s", err, tt.setting)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, m := range cfg.Modes {
				names = append(names, m.Name)
			}
			if !slices.Equal(names, tt.modes) {
				t.Errorf("modes %v, want %v", names, tt.modes)
			}
		})
	}
}
