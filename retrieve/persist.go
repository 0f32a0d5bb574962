package retrieve

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/store"
)

// The persisted index (Options.Persist): a full build from the store is
// encoded (index.Encode) with the messages of the entries it skipped, and
// handed to the store's IndexCache; a process that starts loads it back
// (index.Decode checks length, CRC-32C, format version, analyzer and
// revision) instead of reading and analysing every entry. Anything wrong
// with the copy means an ordinary build.

// loadPersisted returns the persisted snapshot at revision rev and the
// stats of the build that made it, or nil.
func (e *Engine) loadPersisted(ctx context.Context, rev uint64) (*index.Snapshot, BuildStats) {
	var (
		s    *index.Snapshot
		meta []byte
	)
	decode := func(data []byte, crev uint64) {
		if crev == rev {
			s, meta, _ = index.Decode(data, e.tok, rev) // keeps nothing of data
		}
	}
	// A store that lends its copy in place spares a copy of it (bolt: 107
	// MB at 100k entries).
	if v, ok := e.persist.(store.IndexViewer); ok {
		if v.ViewIndex(ctx, decode) != nil {
			return nil, BuildStats{}
		}
	} else if data, crev, err := e.persist.LoadIndex(ctx); err == nil && data != nil {
		decode(data, crev)
	}
	if s == nil {
		return nil, BuildStats{}
	}
	var skipped []string
	if len(meta) > 0 && json.Unmarshal(meta, &skipped) != nil {
		return nil, BuildStats{}
	}
	stats := BuildStats{Entries: s.Count()}
	for _, m := range skipped {
		stats.Skipped = append(stats.Skipped, errors.New(m))
	}
	return s, stats
}

// save persists s, a full build from the store, on its own goroutine:
// encoding and writing take longer than a retrieve should wait. The store
// keeps it only if its revision has not moved since. Close waits for it.
func (e *Engine) save(s *index.Snapshot, stats BuildStats) {
	if e.persist == nil {
		return
	}
	var meta []byte
	if len(stats.Skipped) > 0 {
		msgs := make([]string, len(stats.Skipped))
		for i, err := range stats.Skipped {
			msgs[i] = err.Error()
		}
		meta, _ = json.Marshal(msgs)
	}
	e.goSave(func() {
		// Best effort: a copy that is not saved costs the next process a
		// build, nothing else.
		_ = e.persist.SaveIndex(context.Background(), s.Revision(), index.Encode(s, meta))
	})
}

// goSave runs a save on its own goroutine, unless the engine is closed;
// Close waits for it.
func (e *Engine) goSave(save func()) { e.spawn(save) }
