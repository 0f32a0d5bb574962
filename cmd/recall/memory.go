package main

import (
	"context"
	"io"
	"log"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/index/gse"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/setup"
	"github.com/recallhq/recall/store"
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

// config is the flags as the engine's settings (package setup).
func (f *engineFlags) config(a *app) setup.Config {
	return f.embedder.config(f.analysis.config(a))
}

// openMemory opens the store the command line names for a server and a
// Memory over it (setup.Config.OpenMemory); desc names the store for log
// lines, without a password.
func (a *app) openMemory(f *engineFlags, logger *log.Logger, createStore bool) (m *service.Memory, desc string, err error) {
	m, loc, err := f.config(a).OpenMemory(context.Background(), a.storeFlag, a.locationOptions(createStore), logger)
	return m, loc.String(), err
}

// newMemory wraps an open store. No entry is read, and no dictionary or
// model loaded, until the first call or Start.
func (a *app) newMemory(st store.Store, f *engineFlags, logger *log.Logger) (*service.Memory, error) {
	return f.config(a).Memory(st, logger)
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
