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
// revision) instead of reading and analysing every entry. A copy made
// before the store's revision is brought up to date through the store's
// change feed, by re-reading only the entries written since (catchUpCopy).
// Anything wrong with the copy, or a feed that cannot name every change
// since it, means an ordinary build.

// errStaleCopy is what a mapped copy's check returns for a copy that
// cannot be used at the store's revision.
var errStaleCopy = errors.New("index copy of another revision")

// catchUpSave is how many changed entries a copy brought up to date must
// have re-read for the result to be saved as the new copy: below it the
// next process re-reads the same few entries again, which costs less than
// encoding and writing the whole index now (a one-shot command's Close
// waits for the save).
const catchUpSave = bulkApply

// worthSaving reports whether a copy that cs separates from the snapshot
// should be replaced by it: cs names catchUpSave entries or more, or the
// feed can no longer name what changed (the next start would rebuild).
func worthSaving(cs store.ChangeSet) bool { return cs.Reset || len(cs.Keys) >= catchUpSave }

// catchUpMax is how many changed entries a copy of n entries may be behind
// and still be brought up to date rather than rebuilt. The changed entries
// go in as one batch (index.Snapshot.Apply): k reads and analyses, one
// merge, and past the overlay's bound one compaction by merge, where a
// build reads and analyses all n; so the catch-up costs less than a build
// until k nears n/2 (each replaced entry is analysed twice, once to take
// its old terms out). A quarter of the store keeps it well below
// (BenchmarkBoltColdStart, docs/performance.md "Writes that group"); in a
// small store a build is cheap anyway. The store's change history bounds
// k too (bolt: bolt.DefaultHistory revisions).
func catchUpMax(n int) int { return max(2*bulkApply, n/4) }

// loadPersisted returns the persisted snapshot, brought up to the store's
// revision rev or a later one, and the stats of the build it stands for,
// or nil.
func (e *Engine) loadPersisted(ctx context.Context, rev uint64) (*index.Snapshot, BuildStats) {
	var (
		s    *index.Snapshot
		meta []byte
	)
	decode := func(data []byte, crev uint64) {
		if crev == rev || (crev < rev && e.feed != nil) {
			s, meta, _ = e.decode(data, crev) // keeps nothing of data
		}
	}
	// A store that maps its copy lends it for good: the snapshot points
	// into it (index.Open), nothing is decoded or copied, and the heap
	// holds only one record per document. One that lends it in place for
	// a call spares a copy of it (bolt: 107 MB at 100k entries).
	// One whose record says the copy was checked whole before, its file
	// unchanged since, lends it to index.OpenChecked, which reads only
	// the document records.
	mapped := false
	if m, ok := e.persist.(store.IndexMapper); ok {
		open := func(data []byte, crev uint64, checked bool, release func([]byte)) error {
			if crev != rev && (crev > rev || e.feed == nil) {
				return errStaleCopy
			}
			var err error
			if checked {
				s, meta, err = index.OpenChecked(data, e.tok, crev, release)
			} else {
				s, meta, err = index.Open(data, e.tok, crev, release)
			}
			return err
		}
		var err error
		if c, ok := m.(store.CheckedIndexMapper); ok {
			err = c.MapCheckedIndex(ctx, open)
		} else {
			err = m.MapIndex(ctx, func(data []byte, crev uint64, release func([]byte)) error {
				return open(data, crev, false, release)
			})
		}
		mapped = err == nil || !errors.Is(err, store.ErrNotMapped)
		if err != nil && !errors.Is(err, errStaleCopy) && !errors.Is(err, index.ErrPersisted) && !errors.Is(err, store.ErrNotMapped) {
			return nil, BuildStats{}
		}
	}
	if mapped {
		// Mapped, refused or absent: nothing more to read.
	} else if v, ok := e.persist.(store.IndexViewer); ok {
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
	if s.Revision() == rev {
		return s, stats
	}
	if len(skipped) > 0 {
		// The messages do not say reliably which entries they are about, so
		// the stats could not follow one of them that was fixed since: a
		// file with unreadable entries is rebuilt, as before.
		return nil, BuildStats{}
	}
	return e.catchUpCopy(ctx, s)
}

// catchUpCopy brings s, a copy behind the store, up to date through the
// change feed: only the entries written since s are read. It returns nil
// when the feed cannot name them all (its history does not reach back to
// s), when they are more than catchUpMax, or when a read fails for the
// store's sake; an entry that cannot be read leaves the index and is
// reported in the stats, as a full build would.
func (e *Engine) catchUpCopy(ctx context.Context, s *index.Snapshot) (*index.Snapshot, BuildStats) {
	cs, err := e.feed.Changes(ctx, s.Revision())
	if err != nil || cs.Reset || cs.Rev < s.Revision() || len(cs.Keys) > catchUpMax(s.Count()) {
		return nil, BuildStats{}
	}
	next, skipped, err := e.applyRead(ctx, s, cs)
	if err != nil {
		return nil, BuildStats{}
	}
	stats := BuildStats{Entries: next.Count(), Skipped: skipped}
	if worthSaving(cs) {
		e.save(next, stats)
	}
	return next, stats
}

// save persists s, a full build from the store, on its own goroutine:
// encoding and writing take longer than a retrieve should wait. The store
// keeps it only if its revision has not moved since. Close waits for it.
func (e *Engine) save(s *index.Snapshot, stats BuildStats) {
	if !e.canSave() {
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

// saveBehind saves the current snapshot as the index copy, on the
// caller's goroutine, when the copy in the store is catchUpSave or more
// changed entries behind it, or so far behind that the change feed no
// longer names what changed since (the next start would read the whole
// store). Close runs it once the Engine's goroutines are done: a server
// saves its copy after a full build or a large catch-up at its start, not
// while it takes writes (the save's write transaction would hold every
// writer off: at 100k entries some 0.5 s), so without it a server that
// took more writes than the store's change history keeps (bolt: the keys
// of its last bolt.DefaultHistory revisions) left its successor a full
// build. It saves nothing when the snapshot is behind the store or the
// Engine knows of unreadable entries (their messages belong in the copy,
// and only a full build has them), and needs a store.IndexViewer to read
// the copy's revision without decoding it.
func (e *Engine) saveBehind() {
	v, ok := e.persist.(store.IndexViewer)
	s := e.snap.Load()
	if !ok || !e.canSave() || e.feed == nil || s == nil || e.Unreadable() > 0 {
		return
	}
	ctx := context.Background()
	if rev, err := e.st.Revision(ctx); err != nil || rev != s.Revision() {
		return // the store would keep nothing (or is closed)
	}
	var (
		crev uint64
		have bool
	)
	if v.ViewIndex(ctx, func(_ []byte, rev uint64) { crev, have = rev, true }) != nil {
		return
	}
	if have {
		if crev == s.Revision() {
			return
		}
		cs, err := e.feed.Changes(ctx, crev)
		if err != nil || !worthSaving(cs) {
			return
		}
	}
	// Best effort, as every save: a copy not kept costs the next start a
	// catch-up or a build.
	_ = e.persist.SaveIndex(ctx, s.Revision(), index.Encode(s, nil))
}

// canSave reports whether the Engine has a store.IndexCache that can keep
// a copy: not one that says it is read-only (bolt.Store.ReadOnly), where
// every save would encode the whole index for nothing.
func (e *Engine) canSave() bool {
	if e.persist == nil {
		return false
	}
	r, ok := e.persist.(interface{ ReadOnly() bool })
	return !ok || !r.ReadOnly()
}

// goSave runs a save on its own goroutine, unless the engine is closed;
// Close waits for it.
func (e *Engine) goSave(save func()) { e.spawn(save) }
