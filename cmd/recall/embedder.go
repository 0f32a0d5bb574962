package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/embed"
	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/embed/provider"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
)

// embedderFlags are the embedder selection flags shared by retrieve, embed
// and bench (SPEC §8).
type embedderFlags struct {
	kind    string
	model   string
	url     string
	timeout time.Duration
	alpha   float64

	cmd *cobra.Command // for usage errors
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

// provider returns the chosen provider name, lower-cased.
func (f *embedderFlags) provider(a *app) string {
	k := f.kind
	if k == "" {
		k = a.getenv("RECALL_EMBEDDER")
	}
	return provider.Normalize(k)
}

// build returns the configured embedder, or nil for none.
func (f *embedderFlags) build(a *app) (embed.Embedder, error) {
	p := f.provider(a)
	switch {
	case p == provider.Hash && f.url != "":
		return nil, usagef(f.cmd, "--embed-url makes no sense with --embedder hash")
	case !provider.Known(p):
		return nil, usagef(f.cmd, "unknown embedder %q (want none, hash, openai or ollama)", p)
	}
	return provider.New(provider.Config{Provider: p, Model: f.model, URL: f.url, Getenv: a.getenv})
}

// vectorCache wraps emb with the store's persistent vector cache. A store
// that cannot hold vectors gets a memory-only cache, which a one-shot
// command finds empty: retrieve then answers with BM25 alone.
func vectorCache(st store.Store, emb embed.Embedder, opts cache.Options) *cache.Cache {
	be, _ := st.(cache.Backend)
	return cache.New(emb, be, opts)
}

// validate checks the flags that need no embedder to be checked: --alpha
// outside (0, 1] is a mistake whether or not an embedder is chosen.
func (f *embedderFlags) validate() error {
	if f.cmd == nil || f.cmd.Flags().Lookup("alpha") == nil || !f.cmd.Flags().Changed("alpha") {
		return nil
	}
	if !(f.alpha > 0 && f.alpha <= 1) {
		return usagef(f.cmd, "--alpha %v is outside (0, 1]", f.alpha)
	}
	return nil
}

// engineOptions adds the embedding path to opts when an embedder is chosen.
func (f *embedderFlags) engineOptions(a *app, st store.Store, opts retrieve.Options) (retrieve.Options, error) {
	if err := f.validate(); err != nil {
		return opts, err
	}
	emb, err := f.build(a)
	if err != nil || emb == nil {
		return opts, err
	}
	opts.Embedder = emb
	opts.Vectors = vectorCache(st, emb, cache.Options{})
	opts.Alpha = f.alpha
	opts.EmbedTimeout = f.timeout
	return opts, nil
}
