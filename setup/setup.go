// Package setup builds recall's engine from the settings a person gives
// by name, as recall's command line takes them: the index analyzer
// (--analyzer, else $RECALL_ANALYZER, else index.DefaultAnalyzer), CJK
// segmentation (--segmenter: off, auto or on), and the embedder
// (--embedder, else $RECALL_EMBEDDER, else none; with its model, URL,
// query timeout and fusion weight). A Go program that wants the engine the
// recall commands use, over a store it opened, takes a Config:
//
//	c := setup.Config{Analyzer: "english", Embedder: "hash"}
//	if err := c.Check(); err != nil { ... }
//	m, err := c.Memory(st, logger) // a service.Memory
//
// The engine keeps its index copy in the store (retrieve.WithIndexCache)
// and its vectors in the store's vector cache when the store has one
// (embed/cache), so that the next process starts from both.
//
// Importing setup links the gse segmenter (index/gse); its dictionary is
// only loaded when segmentation is on and the analyzer meets CJK text.
package setup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/recallhq/recall/embed"
	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/embed/provider"
	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/index/gse"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/location"
)

// Config is the engine's settings. Its zero value is recall's default
// engine: the analyzer of $RECALL_ANALYZER (else index.DefaultAnalyzer),
// no segmentation, the embedder of $RECALL_EMBEDDER (else none).
type Config struct {
	// Analyzer names the index analyzer (index.Analyzers); "" means
	// $RECALL_ANALYZER, else index.DefaultAnalyzer.
	Analyzer string
	// Segmenter is the gse mode: "off" (or ""), "auto" or "on".
	Segmenter string
	// Embedder names the provider (provider.Normalize reads it); "" means
	// $RECALL_EMBEDDER, else none.
	Embedder string
	// EmbedModel and EmbedURL configure the provider ("" its defaults).
	EmbedModel, EmbedURL string
	// EmbedTimeout bounds a retrieve's query embedding (0: the engine's
	// default, retrieve.DefaultEmbedTimeout).
	EmbedTimeout time.Duration
	// Alpha is the weight of BM25 in the fused score, in (0, 1]; nil is
	// the engine's default.
	Alpha *float64
	// Getenv looks up the environment; nil means os.Getenv.
	Getenv func(string) string
}

// Error is a setting that cannot be used, named as the command line
// spells it ("--analyzer", "$RECALL_ANALYZER"); its message is what recall
// prints.
type Error struct {
	Setting string // "--analyzer", "$RECALL_ANALYZER", "--segmenter", "--alpha", "--embedder", "--embed-url"
	Msg     string
}

func (e *Error) Error() string { return e.Msg }

func (c Config) getenv(k string) string {
	if c.Getenv == nil {
		return os.Getenv(k)
	}
	return c.Getenv(k)
}

// analyzerName is the chosen analyzer name and the setting it came from.
func (c Config) analyzerName() (name, from string) {
	if c.Analyzer != "" {
		return c.Analyzer, "--analyzer"
	}
	return c.getenv("RECALL_ANALYZER"), "$RECALL_ANALYZER"
}

// ProviderName is the chosen embedding provider, normalized ("none" for
// none).
func (c Config) ProviderName() string {
	k := c.Embedder
	if k == "" {
		k = c.getenv("RECALL_EMBEDDER")
	}
	return provider.Normalize(k)
}

// Check reports the first setting that cannot be used, as an *Error,
// without building anything (no dictionary, no model, no network).
func (c Config) Check() error {
	if err := c.checkAnalysis(); err != nil {
		return err
	}
	return c.checkEmbedder()
}

// checkEmbedder checks the embedder's settings.
func (c Config) checkEmbedder() error {
	if c.Alpha != nil && !(*c.Alpha > 0 && *c.Alpha <= 1) {
		return &Error{"--alpha", fmt.Sprintf("--alpha %v is outside (0, 1]", *c.Alpha)}
	}
	switch p := c.ProviderName(); {
	case p == provider.Hash && c.EmbedURL != "":
		return &Error{"--embed-url", "--embed-url makes no sense with --embedder hash"}
	case !provider.Known(p):
		return &Error{"--embedder", fmt.Sprintf("unknown embedder %q (want none, hash, openai or ollama)", p)}
	}
	return nil
}

// checkAnalysis checks the analyzer and the segmenter.
func (c Config) checkAnalysis() error {
	name, from := c.analyzerName()
	if _, err := index.ParseAnalyzer(name); err != nil {
		return &Error{from, fmt.Sprintf("%s: %v", from, err)}
	}
	if _, err := gse.ParseMode(c.Segmenter); err != nil {
		return &Error{"--segmenter", fmt.Sprintf("--segmenter: %v", err)}
	}
	return nil
}

// CheckAnalysis is Check for a command without an embedder (reindex).
func (c Config) CheckAnalysis() error { return c.checkAnalysis() }

// NewAnalyzer returns the analyzer the settings name, with gse attached
// when the segmenter is auto or on (its dictionary loads only on CJK
// text).
func (c Config) NewAnalyzer() (*index.Analyzer, error) {
	if err := c.checkAnalysis(); err != nil {
		return nil, err
	}
	name, _ := c.analyzerName()
	an, _ := index.ParseAnalyzer(name)
	m, _ := gse.ParseMode(c.Segmenter)
	return gse.Apply(an, m, ""), nil
}

// NewEmbedder returns the embedder the settings choose, or nil for none.
func (c Config) NewEmbedder() (embed.Embedder, error) {
	if err := c.checkEmbedder(); err != nil {
		return nil, err
	}
	return provider.New(provider.Config{Provider: c.ProviderName(), Model: c.EmbedModel, URL: c.EmbedURL, Getenv: c.Getenv})
}

// Options returns the engine's options over st: the analyzer, the store's
// index copy and, with an embedder, the store's vector cache (a store
// that cannot hold vectors gets a memory-only cache, which a one-shot
// command finds empty: retrieve then answers with BM25 alone).
func (c Config) Options(st store.Store) (retrieve.Options, error) {
	an, err := c.NewAnalyzer()
	if err != nil {
		return retrieve.Options{}, err
	}
	opts := retrieve.WithIndexCache(retrieve.Options{Analyzer: an}, st)
	emb, err := c.NewEmbedder()
	if err != nil || emb == nil {
		return opts, err
	}
	be, _ := st.(cache.Backend)
	opts.Embedder = emb
	opts.Vectors = cache.New(emb, be, cache.Options{})
	if c.Alpha != nil {
		opts.Alpha = *c.Alpha
	}
	opts.EmbedTimeout = c.EmbedTimeout
	return opts, nil
}

// RefillHint is the command that embeds again what a one-shot command
// found missing from a damaged vector cache (service.Options.RefillHint).
func (c Config) RefillHint() string {
	cmd := "recall embed"
	if c.Embedder != "" {
		cmd += " --embedder " + c.Embedder
	}
	if c.EmbedModel != "" {
		cmd += " --embed-model " + c.EmbedModel
	}
	return "run `" + cmd + "` to embed them again"
}

// Memory returns a service.Memory over st with the engine the settings
// describe. No entry is read, and no dictionary or model loaded, until the
// first call or Start. The caller keeps ownership of st.
func (c Config) Memory(st store.Store, logger *log.Logger) (*service.Memory, error) {
	opts, err := c.Options(st)
	if err != nil {
		return nil, err
	}
	return service.New(st, service.Options{Engine: opts, Log: logger, RefillHint: c.RefillHint()}), nil
}

// OpenMemory opens the store a server's command line names
// (location.OpenChosen, with flag as --store) and a Memory over it. A
// missing store is an error wrapping location.ErrNotExist, as for read
// commands (a typo must not start a server over a new, empty store),
// unless opts.Create is set (--create): then it is created as `recall add`
// creates it. The caller closes the Memory, then m.Store().
func (c Config) OpenMemory(ctx context.Context, flag string, opts location.Options, logger *log.Logger) (*service.Memory, location.Location, error) {
	m, loc, err := c.openMemory(ctx, flag, opts, logger)
	if errors.Is(err, location.ErrNotExist) {
		err = fmt.Errorf("%w; to serve a new, empty store there, pass --create", err)
	}
	return m, loc, err
}

// Opener returns what a one-shot host hook opens its memory with
// (hostctx.Run): the store flag names, which must exist, and a Memory over
// it that logs nothing, with the function that closes both.
func (c Config) Opener(flag string, opts location.Options) func(context.Context) (*service.Memory, func(), error) {
	return func(ctx context.Context) (*service.Memory, func(), error) {
		opts.Create = false
		m, _, err := c.openMemory(ctx, flag, opts, log.New(io.Discard, "", 0))
		if err != nil {
			return nil, nil, err
		}
		return m, func() { m.Close(); m.Store().Close() }, nil
	}
}

func (c Config) openMemory(ctx context.Context, flag string, opts location.Options, logger *log.Logger) (*service.Memory, location.Location, error) {
	st, loc, err := location.OpenChosen(ctx, flag, opts, c.getenv)
	if err != nil {
		return nil, loc, err
	}
	m, err := c.Memory(st, logger)
	if err != nil {
		st.Close()
		return nil, loc, err
	}
	return m, loc, nil
}
