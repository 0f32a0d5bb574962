package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/bench"
	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/index/gse"
	"github.com/recallhq/recall/progress"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/setup"
)

// benchOptions are the flags of `recall bench`.
type benchOptions struct {
	app *app

	s        bench.Settings
	embedder embedderFlags
	jsonPath string
	svgPath  string
}

func newBenchCmd(a *app) *cobra.Command {
	o := &benchOptions{app: a}
	cmd := documented(&cobra.Command{
		Use: "bench DATASET...",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef(cmd, "bench takes at least one DATASET folder")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd, args) },
	})
	f := cmd.Flags()
	f.StringVar(&o.s.Backend, "backend", string(bench.BackendBolt), "store `KIND` to load into: bolt (one file, written without fsync) or fs (a markdown file per entry, fsync'd)")
	f.StringVar(&o.s.Modes, "mode", "", "comma-separated `MODES`, run in this order: bm25, bm25-gse, fusion, bm25-prf (default bm25,bm25-gse; bm25,fusion,bm25-gse with --embedder)")
	o.embedder.register(cmd, true)
	f.StringVar(&o.jsonPath, "json", "", "write every figure as JSON to `FILE`")
	f.StringVar(&o.svgPath, "svg", "", "write a chart (self-contained SVG) to `FILE`")
	f.StringVar(&o.s.RunDir, "run-dir", "", "write TREC run files (DATASET.MODE.run) into `DIR`")
	f.IntVar(&o.s.Passes, "passes", 0, "timed passes `N` over the queries after the warm-up (0: enough for 1000 timed queries; -1: quality only)")
	f.StringVar(&o.s.Analyzers, "analyzer", index.DefaultAnalyzer, "comma-separated `ANALYZERS` ("+strings.Join(index.Analyzers(), ", ")+"): every mode runs with each; modes with another than "+index.DefaultAnalyzer+" are named after it (bm25-english)")
	f.StringVar(&o.s.GSEDict, "gse-dict", gse.DictSimplified, "gse `DICT` for bm25-gse: zh_s (simplified) or zh (simplified and traditional)")
	f.BoolVar(&o.s.NoAgent, "no-agent", false, "do not time the default agent retrieve")
	f.StringVar(&o.s.TempDir, "tmp", "", "`DIR` for the temporary stores (default the system's)")
	return cmd
}

func (o *benchOptions) run(cmd *cobra.Command, dirs []string) error {
	emb, err := o.embedder.config(setup.Config{Getenv: o.app.getenv}).NewEmbedder()
	if err != nil {
		return err
	}
	o.s.Retrieve = retrieve.Options{Embedder: emb, Alpha: o.embedder.alpha, EmbedTimeout: o.embedder.timeout}
	cfg, err := o.s.Config()
	if err != nil {
		return err
	}
	// One bar per phase (loading msmarco in bm25, timing its queries,
	// ...), on a terminal only.
	bars := &progress.Phases{W: o.app.stderr}
	cfg.Progress = func(p bench.Progress) {
		bars.Update(fmt.Sprintf("%s %s %s", p.Dataset, p.Mode, p.Phase), p.Done, p.Total)
	}
	rep, err := bench.RunDirs(cmd.Context(), cfg, dirs)
	bars.Finish()
	if err != nil {
		return err
	}
	if err := rep.Save(o.jsonPath, o.svgPath); err != nil {
		return err
	}
	return rep.WriteTable(o.app.stdout)
}
