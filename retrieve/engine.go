package retrieve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/recallhq/recall/embed"
	"github.com/recallhq/recall/fusion"
	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/store"
)

// Defaults of SPEC §7.
const (
	DefaultLimit  = 10
	DefaultBudget = 800
	// Unlimited, as Request.Budget, turns the token budget off.
	Unlimited = -1
)

// Options configure an Engine. The zero value is ready to use: pure BM25.
type Options struct {
	// Analyzer turns the entries and the queries into terms; its name is
	// recorded in every snapshot. nil means index.Default(). CJK
	// segmentation is a Segmenter attached to it (index/gse); without one
	// CJK runs become bigrams and no dictionary is linked or loaded.
	Analyzer *index.Analyzer

	// Embedder embeds queries. With Vectors it turns on fusion (SPEC §6);
	// any failure of it falls back to pure BM25, silently.
	Embedder embed.Embedder
	// Vectors holds the cached document vectors of the same model, usually
	// a *cache.Cache wrapping Embedder. Retrieve never embeds documents.
	Vectors DocVectors
	// Alpha weighs BM25 against cosine: fused = α·mm(bm25) + (1−α)·mm(cos).
	// Zero means the embedder's own recommendation when it has one (a
	// DefaultAlpha() float64 method; the hash embedder's is 0.9), else
	// fusion.DefaultAlpha (0.5). Values are clamped to (0, 1]: BM25 is
	// never off.
	Alpha float64
	// EmbedTimeout bounds the query embedding; zero means
	// DefaultEmbedTimeout.
	EmbedTimeout time.Duration
}

// Engine answers retrieves over a store. It keeps an in-memory BM25
// snapshot that is lazily fresh: each retrieve compares the store's
// revision with the snapshot's and rebuilds when they differ. Writes made
// through the Engine update the snapshot themselves (incrementally), so a
// retrieve after them neither waits nor misses them; writes made to the
// store behind the Engine's back are picked up by a full rebuild on the
// next retrieve, and edits that do not move the revision at all (another
// process editing an fs folder) by Rebuild.
//
// An Engine is safe for concurrent use. Retrieves never take a lock: they
// load the current snapshot with one atomic read.
type Engine struct {
	st   store.Store
	tok  *index.Analyzer
	snap atomic.Pointer[index.Snapshot]

	embedder     embed.Embedder
	vectors      DocVectors
	alpha        float64
	embedTimeout time.Duration
	queries      *lru
	vt           atomic.Pointer[vecTable]
	vtMu         sync.Mutex

	builds singleflight.Group
	// wmu serialises writes through the engine, so that the revision before
	// and after a write identify that write alone.
	wmu sync.Mutex
	// While a background compaction runs (compacting), the writes made
	// meanwhile are logged so they can be replayed on its result. Both are
	// guarded by wmu.
	compacting bool
	compactLog []change
	// tip is the last snapshot the write path published; a compaction
	// result replaces the current snapshot only while that is still it.
	tip *index.Snapshot
}

// New returns an Engine over st. It does not read the store until the
// first retrieve (or Rebuild).
func New(st store.Store, opts Options) *Engine {
	e := &Engine{
		st:           st,
		tok:          opts.Analyzer,
		embedder:     opts.Embedder,
		vectors:      opts.Vectors,
		alpha:        opts.Alpha,
		embedTimeout: opts.EmbedTimeout,
		queries:      newLRU(256),
	}
	if e.tok == nil {
		e.tok = index.Default()
	}
	if e.alpha <= 0 || math.IsNaN(e.alpha) {
		e.alpha = fusion.DefaultAlpha
		if r, ok := opts.Embedder.(interface{ DefaultAlpha() float64 }); ok {
			e.alpha = r.DefaultAlpha()
		}
	}
	e.alpha = min(e.alpha, 1)
	if e.embedTimeout <= 0 {
		e.embedTimeout = DefaultEmbedTimeout
	}
	return e
}

// Store returns the store the engine reads.
func (e *Engine) Store() store.Store { return e.st }

// Snapshot returns the index snapshot a retrieve should use, without
// waiting for a rebuild: the snapshot at the store's current revision when
// there is one; otherwise, when the store has moved on behind the engine's
// back (another process edited a watched folder, a caller wrote to the
// store directly), the current snapshot, while a rebuild runs in the
// background and is swapped in when done. Only the very first call, when
// there is no snapshot at all, builds one and waits for it.
func (e *Engine) Snapshot(ctx context.Context) (*index.Snapshot, error) {
	rev, err := e.st.Revision(ctx)
	if err != nil {
		return nil, fmt.Errorf("read store revision: %w", err)
	}
	s := e.snap.Load()
	switch {
	case s != nil && s.Revision() == rev:
		return s, nil
	case s == nil:
		return e.build(ctx, rev)
	}
	e.buildAsync(ctx, rev)
	return s, nil
}

// Fresh returns a snapshot at the store's current revision, waiting for a
// rebuild when the current snapshot is stale.
func (e *Engine) Fresh(ctx context.Context) (*index.Snapshot, error) {
	rev, err := e.st.Revision(ctx)
	if err != nil {
		return nil, fmt.Errorf("read store revision: %w", err)
	}
	if s := e.snap.Load(); s != nil && s.Revision() == rev {
		return s, nil
	}
	return e.build(ctx, rev)
}

// Rebuild discards the snapshot and builds a new one from the store, for
// edits the revision cannot see (another process writing an fs folder).
func (e *Engine) Rebuild(ctx context.Context) (BuildStats, error) {
	rev, err := e.st.Revision(ctx)
	if err != nil {
		return BuildStats{}, fmt.Errorf("read store revision: %w", err)
	}
	s, stats, err := e.buildAt(ctx, rev)
	if err != nil {
		return stats, err
	}
	// Unconditional: the point is to replace a snapshot of the same revision.
	e.snap.Store(s)
	return stats, nil
}

// BuildStats reports what a full build indexed and skipped.
type BuildStats struct {
	Entries int
	Skipped []error // one per entry the store could not read
}

func buildKey(rev uint64) string { return fmt.Sprint(rev) }

// build makes a snapshot at rev, sharing the work with concurrent callers
// asking for the same revision. The build does not stop when the caller
// that started it gives up: others may be waiting for it.
func (e *Engine) build(ctx context.Context, rev uint64) (*index.Snapshot, error) {
	select {
	case r := <-e.buildAsync(ctx, rev):
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*index.Snapshot), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (e *Engine) buildAsync(ctx context.Context, rev uint64) <-chan singleflight.Result {
	ctx = context.WithoutCancel(ctx)
	return e.builds.DoChan(buildKey(rev), func() (any, error) {
		s, _, err := e.buildAt(ctx, rev)
		if err != nil {
			return nil, err
		}
		e.publish(s)
		return s, nil
	})
}

func (e *Engine) buildAt(ctx context.Context, rev uint64) (*index.Snapshot, BuildStats, error) {
	var (
		docs  []index.Input
		stats BuildStats
	)
	for ent, err := range e.st.All(ctx) {
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, store.ErrClosed) {
				return nil, stats, fmt.Errorf("read store: %w", err)
			}
			// One unreadable entry (a hand-edited file with bad UTF-8, say)
			// must not take retrieve down; it is simply not indexed.
			stats.Skipped = append(stats.Skipped, err)
			continue
		}
		docs = append(docs, index.Input{Category: ent.Category, Name: ent.Name, Content: ent.Content})
	}
	if err := ctx.Err(); err != nil {
		return nil, stats, err
	}
	s := index.Build(rev, e.tok, docs)
	stats.Entries = s.Count()
	return s, stats, nil
}

// publish swaps s in unless a newer snapshot is already there.
func (e *Engine) publish(s *index.Snapshot) {
	for {
		cur := e.snap.Load()
		if cur != nil && cur.Revision() > s.Revision() {
			return
		}
		if e.snap.CompareAndSwap(cur, s) {
			return
		}
	}
}

// Put writes an entry to the store (an upsert) and makes it visible to the
// next retrieve without a rebuild.
func (e *Engine) Put(ctx context.Context, ent store.Entry) error {
	return e.write(ctx, func() error { return e.st.Put(ctx, ent) },
		change{put: true, in: index.Input{Category: ent.Category, Name: ent.Name, Content: ent.Content}})
}

// Delete removes an entry from the store and from the next retrieve.
func (e *Engine) Delete(ctx context.Context, category, name string) error {
	return e.write(ctx, func() error { return e.st.Delete(ctx, category, name) },
		change{in: index.Input{Category: category, Name: name}})
}

// change is one write through the engine, as the index sees it.
type change struct {
	rev uint64
	put bool // else a delete
	in  index.Input
}

func (c change) apply(s *index.Snapshot) *index.Snapshot {
	if c.put {
		return s.With(c.rev, c.in)
	}
	return s.Without(c.rev, c.in.Category, c.in.Name)
}

// compact folds the overlay of snap into a new base on its own goroutine,
// then, under the write lock, replays the writes made meanwhile and swaps
// the result in. If the snapshot's lineage changed in between (a full
// rebuild from the store), the work is dropped: the current snapshot is
// newer and complete.
func (e *Engine) compact(snap *index.Snapshot) {
	c := snap.Compact()
	e.wmu.Lock()
	defer e.wmu.Unlock()
	log := e.compactLog
	e.compacting, e.compactLog = false, nil
	for _, ch := range log {
		c = ch.apply(c)
	}
	if e.snap.Load() != e.tip || e.tip.Revision() != c.Revision() {
		return
	}
	e.snap.Store(c)
	e.tip = c
}

// write runs a store write and brings the snapshot up to date before it
// returns, so the next retrieve sees it: by patching the snapshot when this
// write alone moved the revision, by a rebuild otherwise. The writer pays
// for any staleness it meets; readers never wait for it.
func (e *Engine) write(ctx context.Context, do func() error, ch change) error {
	e.wmu.Lock()
	defer e.wmu.Unlock()
	if e.snap.Load() == nil {
		// No index yet (a one-shot `recall add`): nothing to keep fresh.
		return do()
	}
	cur, err := e.Fresh(ctx)
	if err != nil {
		return err
	}
	if err := do(); err != nil {
		return err
	}
	after, err := e.st.Revision(ctx)
	if err != nil {
		// The write landed; the snapshot is merely stale, and the next
		// retrieve starts a rebuild.
		return nil
	}
	if after == cur.Revision()+1 {
		ch.rev = after
		next := ch.apply(cur)
		e.publish(next)
		e.tip = next
		switch {
		case e.compacting:
			e.compactLog = append(e.compactLog, ch)
		case next.WantsCompaction():
			// Fold the overlay into a new base off the write path: at 100k
			// entries that is seconds of CPU no writer should wait for.
			e.compacting = true
			go e.compact(next)
		}
		return nil
	}
	// Someone else wrote in between: rebuild from the store.
	_, _ = e.build(ctx, after)
	return nil
}
