package bench

import (
	"context"
	"fmt"
	"slices"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/index/gse"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/setup"
)

// Settings are a bench run as a person gives it, `recall bench`'s flags:
// names and comma-separated lists, checked and turned into a Config by
// Config.
type Settings struct {
	// Backend is the store kind the datasets are loaded into: "bolt" or
	// "fs" (ParseBackend).
	Backend string
	// Modes is a comma-separated list of mode names, run in this order;
	// none means DefaultModes.
	Modes string
	// Analyzers is a comma-separated list of analyzer names: every mode
	// runs once with each (RecallModesEach); none means index.Default().
	Analyzers string
	// GSEDict is the gse dictionary of ModeBM25GSE: gse.DictSimplified
	// (zh_s) or zh.
	GSEDict string
	// Passes, NoAgent and RunDir are Config's.
	Passes  int
	NoAgent bool
	RunDir  string
	// TempDir holds the temporary stores ("" the system's).
	TempDir string
	// Retrieve carries the embedder of ModeFusion, its weight and its
	// query timeout.
	Retrieve retrieve.Options
}

// Config checks s and returns the run it describes. A setting at fault
// is a *setup.Error naming the flag ("--mode", "--passes", ...).
func (s Settings) Config() (Config, error) {
	backend, err := ParseBackend(s.Backend)
	if err != nil {
		return Config{}, &setup.Error{Setting: "--backend", Msg: fmt.Sprintf("--backend: %v", err)}
	}
	if s.GSEDict != gse.DictSimplified && s.GSEDict != "zh" {
		return Config{}, &setup.Error{Setting: "--gse-dict", Msg: fmt.Sprintf("--gse-dict %q: want zh_s or zh", s.GSEDict)}
	}
	if s.Passes < -1 {
		return Config{}, &setup.Error{Setting: "--passes", Msg: "--passes must be -1 or more"}
	}
	names := SplitList(s.Modes)
	if len(names) == 0 {
		names = DefaultModes(s.Retrieve.Embedder != nil)
	}
	if slices.Contains(names, ModeFusion) && s.Retrieve.Embedder == nil {
		return Config{}, &setup.Error{Setting: "--mode", Msg: "--mode fusion needs --embedder (hash works offline)"}
	}
	var analyzers []*index.Analyzer
	for _, n := range SplitList(s.Analyzers) {
		an, err := index.ParseAnalyzer(n)
		if err != nil {
			return Config{}, &setup.Error{Setting: "--analyzer", Msg: fmt.Sprintf("--analyzer: %v", err)}
		}
		analyzers = append(analyzers, an)
	}
	modes, err := RecallModesEach(names, analyzers, RecallOptions{Backend: backend, TempDir: s.TempDir, GSEDict: s.GSEDict, Retrieve: s.Retrieve})
	if err != nil {
		return Config{}, &setup.Error{Setting: "--mode", Msg: fmt.Sprintf("--mode: %v", err)}
	}
	return Config{Modes: modes, Passes: s.Passes, NoAgent: s.NoAgent, RunDir: s.RunDir}, nil
}

// RunDirs loads the BEIR folders dirs (Load) and runs cfg over them.
func RunDirs(ctx context.Context, cfg Config, dirs []string) (*Report, error) {
	datasets := make([]*Dataset, 0, len(dirs))
	for _, dir := range dirs {
		ds, err := Load(dir)
		if err != nil {
			return nil, err
		}
		datasets = append(datasets, ds)
	}
	return Run(ctx, cfg, datasets)
}

// Save writes the report as JSON to jsonPath and as a chart to svgPath,
// each when not "" (WriteFile).
func (r *Report) Save(jsonPath, svgPath string) error {
	if jsonPath != "" {
		if err := WriteFile(jsonPath, r.WriteJSON); err != nil {
			return err
		}
	}
	if svgPath != "" {
		return WriteFile(svgPath, r.WriteSVG)
	}
	return nil
}
