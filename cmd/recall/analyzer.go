package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/index/gse"
	"github.com/recallhq/recall/setup"
)

// analyzerFlags are --analyzer and --segmenter, which shape the index of
// retrieve, reindex, serve and mcp alike (setup.Config reads them).
type analyzerFlags struct {
	analyzer  string
	segmenter string
}

// register adds both flags; segHelp is --segmenter's usage text.
func (f *analyzerFlags) register(cmd *cobra.Command, segHelp string) {
	fl := cmd.Flags()
	fl.StringVar(&f.analyzer, "analyzer", "", "text `ANALYZER`: "+strings.Join(index.Analyzers(), ", ")+
		" (default $RECALL_ANALYZER, else "+index.DefaultAnalyzer+"; spec is SPEC §3's tokenizer, english adds stemming, english-stop also drops stop words)")
	fl.StringVar(&f.segmenter, "segmenter", gse.ModeOff.String(), segHelp)
}

// config is the flags as the engine's settings, over a's environment.
func (f *analyzerFlags) config(a *app) setup.Config {
	return setup.Config{Analyzer: f.analyzer, Segmenter: f.segmenter, Getenv: a.getenv}
}
