package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/index/gse"
)

// analyzerFlags are --analyzer and --segmenter, which shape the index of
// retrieve, reindex, serve and mcp alike. The analyzer defaults to
// $RECALL_ANALYZER, else index.DefaultAnalyzer.
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

// name returns the chosen analyzer name. a may be nil: then the
// environment is not consulted.
func (f *analyzerFlags) name(a *app) string {
	if f.analyzer != "" || a == nil {
		return f.analyzer
	}
	return a.getenv("RECALL_ANALYZER")
}

// validate checks the flags, and $RECALL_ANALYZER when a is not nil.
func (f *analyzerFlags) validate(cmd *cobra.Command, a *app) error {
	if _, err := index.ParseAnalyzer(f.name(a)); err != nil {
		if f.analyzer == "" {
			return usagef(cmd, "$RECALL_ANALYZER: %v", err)
		}
		return usagef(cmd, "--analyzer: %v", err)
	}
	if _, err := gse.ParseMode(f.segmenter); err != nil {
		return usagef(cmd, "--segmenter: %v", err)
	}
	return nil
}

// build returns the analyzer the flags name, with gse attached when the
// segmenter is auto or on (its dictionary loads only on CJK text).
func (f *analyzerFlags) build(a *app) (*index.Analyzer, error) {
	an, err := index.ParseAnalyzer(f.name(a))
	if err != nil {
		if f.analyzer == "" {
			return nil, fmt.Errorf("$RECALL_ANALYZER: %w", err)
		}
		return nil, err
	}
	m, err := gse.ParseMode(f.segmenter)
	if err != nil {
		return nil, err
	}
	return gse.Apply(an, m, ""), nil
}
