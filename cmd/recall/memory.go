package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/index/gse"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/location"
)

// The long-running servers (mcp, serve) and the one-shot commands all go
// through a service.Memory; this file builds one from the command line.

// engineFlags are the flags that shape a Memory's engine.
type engineFlags struct {
	analysis analyzerFlags
	embedder embedderFlags
}

func (f *engineFlags) register(cmd *cobra.Command) {
	f.analysis.register(cmd,
		"CJK segmentation `MODE`: auto, on or off (off keeps results identical to `recall retrieve`'s default; the gse dictionary is loaded lazily, on the first Chinese text)")
	f.embedder.register(cmd, true)
}

func (f *engineFlags) validate(cmd *cobra.Command, a *app) error {
	if err := f.analysis.validate(cmd, a); err != nil {
		return err
	}
	return f.embedder.validate()
}

// engineOptions turns the flags into the engine's options over st.
func (a *app) engineOptions(st store.Store, an *analyzerFlags, emb *embedderFlags) (retrieve.Options, error) {
	analyzer, err := an.build(a)
	if err != nil {
		return retrieve.Options{}, err
	}
	// The store's copy of the index, so that the next command loads it
	// instead of analysing every entry (issue 12).
	opts := retrieve.WithIndexCache(retrieve.Options{Analyzer: analyzer}, st)
	return emb.engineOptions(a, st, opts)
}

// openMemory opens the store the command line names for a server and a
// Memory over it. A missing store is an error wrapping
// location.ErrNotExist, as for read commands (a typo must not start a
// server over a new, empty store), unless createStore is set (--create):
// then it is created as add creates it. desc names the store for log
// lines, without a password.
func (a *app) openMemory(f *engineFlags, logger *log.Logger, createStore bool) (m *service.Memory, desc string, err error) {
	mode := mustExist
	if createStore {
		mode = create
	}
	st, loc, err := a.openStore(context.Background(), mode)
	if errors.Is(err, location.ErrNotExist) {
		return nil, "", fmt.Errorf("%w; to serve a new, empty store there, pass --create", err)
	}
	if err != nil {
		return nil, "", err
	}
	m, err = a.newMemory(st, f, logger)
	if err != nil {
		st.Close()
		return nil, "", err
	}
	return m, loc.String(), nil
}

// newMemory wraps an open store. No entry is read, and no dictionary or
// model loaded, until the first call or Start.
func (a *app) newMemory(st store.Store, f *engineFlags, logger *log.Logger) (*service.Memory, error) {
	opts, err := a.engineOptions(st, &f.analysis, &f.embedder)
	if err != nil {
		return nil, err
	}
	return service.New(st, service.Options{Engine: opts, Log: logger, RefillHint: refillHint(f)}), nil
}

// refillHint is the command that embeds again what a one-shot command
// found missing from a damaged vector cache.
func refillHint(f *engineFlags) string {
	cmd := "recall embed"
	if f.embedder.kind != "" {
		cmd += " --embedder " + f.embedder.kind
	}
	if f.embedder.model != "" {
		cmd += " --embed-model " + f.embedder.model
	}
	return "run `" + cmd + "` to embed them again"
}

// withMemory runs fn over a one-shot Memory (no background work) on the
// store, closing the store afterwards.
func (a *app) withMemory(ctx context.Context, mode openMode, f *engineFlags, fn func(*service.Memory) error) error {
	if f == nil {
		f = &engineFlags{analysis: analyzerFlags{segmenter: gse.ModeOff.String()}}
	}
	return a.withStore(ctx, mode, func(st store.Store) error {
		// Damage met on the way (a cut vector cache) is said on stderr.
		var w io.Writer = io.Discard
		if a.stderr != nil {
			w = a.stderr
		}
		m, err := a.newMemory(st, f, log.New(w, "recall: ", 0))
		if err != nil {
			return err
		}
		return fn(m)
	})
}
