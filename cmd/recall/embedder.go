package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/setup"
)

// embedderFlags are the embedder selection flags shared by retrieve, embed
// and bench (SPEC §8; setup.Config reads them).
type embedderFlags struct {
	kind    string
	model   string
	url     string
	timeout time.Duration
	alpha   float64

	cmd *cobra.Command // to tell whether --alpha was given
}

func (f *embedderFlags) register(cmd *cobra.Command, withTimeout bool) {
	f.cmd = cmd
	fl := cmd.Flags()
	fl.StringVar(&f.kind, "embedder", "", "embedding `PROVIDER`: none, hash (offline, no model), openai or ollama (default $RECALL_EMBEDDER, else none)")
	fl.StringVar(&f.model, "embed-model", "", "embedding model `NAME` (openai: text-embedding-3-small; ollama: nomic-embed-text)")
	fl.StringVar(&f.url, "embed-url", "", "embedding endpoint `URL` (openai: default $OPENAI_BASE_URL; ollama: default $OLLAMA_HOST)")
	if withTimeout {
		fl.DurationVar(&f.timeout, "embed-timeout", retrieve.DefaultEmbedTimeout, "give up on the query embedding after `DURATION` and answer with BM25 alone")
		fl.Float64Var(&f.alpha, "alpha", 0, "weight of BM25 in the fused score, in (0, 1] (default 0.9 for hash, openai and ollama: lower it for a model you measured)")
	}
}

// config adds the flags to c.
func (f *embedderFlags) config(c setup.Config) setup.Config {
	c.Embedder, c.EmbedModel, c.EmbedURL, c.EmbedTimeout = f.kind, f.model, f.url, f.timeout
	if f.cmd != nil && f.cmd.Flags().Lookup("alpha") != nil && f.cmd.Flags().Changed("alpha") {
		c.Alpha = &f.alpha
	}
	return c
}
