package retrieve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

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
	// DefaultAlpha() float64 method; hash, openai and ollama: 0.9), else
	// fusion.DefaultAlpha (0.5). Values are clamped to (0, 1]: BM25 is
	// never off.
	Alpha float64
	// EmbedTimeout bounds the embedding path of one retrieve: the query
	// embedding, and waiting for the vector cache's first load; zero means
	// DefaultEmbedTimeout. A retrieve whose context has a deadline gives
	// that path at most half the time left, and BM25 the rest.
	EmbedTimeout time.Duration

	// OnChange, when not nil, is called after each new snapshot is
	// published, with what it changed: the keys it re-read (an entry
	// written or deleted, through the Engine or behind its back), or Reset
	// after a full build, when any entry may have changed. It is how a
	// service learns which entries need a fresh vector (hand the keys to a
	// bounded queue). It is called in publish order while the Engine holds
	// its publish lock, so it must return promptly and must not call the
	// Engine's methods.
	OnChange func(store.ChangeSet)

	// Persist, when not nil, keeps a copy of the index in the store (a
	// bolt file implements store.IndexCache) so that the next process
	// starts without analysing every entry: the first snapshot, and Load,
	// come from the copy when it is undamaged and was made with the
	// engine's analyzer, at the store's current revision or at an earlier
	// one whose changes since the store's change feed names (bolt: the
	// last bolt.DefaultHistory writes), in which case only the entries
	// written since are read; every full build from the store is saved
	// there afterwards, off the publish path (Close waits for a save
	// under way). Persist must be the cache of the engine's store. See
	// the package doc, "Persisted index".
	Persist store.IndexCache

	// Stamped is Persist for a store whose revision does not outlive the
	// process (a folder implements store.StampedIndexCache): the copy is
	// checked entry by entry, by the stamps the store gives them, so a
	// start reads and analyses only the entries changed since the copy
	// was made; a full build, or a start that read or dropped many
	// entries, saves a new copy, off the publish path. Persist, when set
	// too, wins. See the
	// package doc, "Persisted index".
	Stamped store.StampedIndexCache

	// NoDuplicates turns duplicate detection off (docs/duplicates.md):
	// writes report no duplicates and retrieves collapse none, as before
	// detection existed. A persisted copy made the other way is rebuilt.
	NoDuplicates bool

	// OnRead, when not nil, is called with each entry a full build reads
	// from the store (not those it takes from a persisted copy), on the
	// building goroutine, before it is indexed: how `recall reindex`
	// learns which notes it read with a warning (front matter kept
	// verbatim) without reading the store twice. It must not keep e's
	// Content if it does not need it, nor call the Engine's methods.
	OnRead func(e store.Entry)
}

// Engine answers retrieves over a store. It keeps an in-memory BM25
// snapshot that is fresh as SPEC §4 says: a retrieve that starts after a
// write returned (through the Engine, or directly through the store in
// this process) sees it. When the store has a change feed
// (store.ChangeFeed: fs, bolt, postgres) the Engine follows it: a write,
// a retrieve that finds the store's revision moved, and a background
// follower woken by the feed's subscription each bring the snapshot up to
// date by re-reading only the entries the feed names, and rebuild from
// the whole store only when the feed says it lost track. Without a feed
// the Engine rebuilds whenever the revision moved behind its back, and a
// retrieve waits for that rebuild rather than answer stale. Edits that do
// not move the revision at all (another process editing an fs folder that
// is not watched) need Rebuild.
//
// An Engine is safe for concurrent use. Retrieves on a fresh snapshot
// never take a lock: they load it with one atomic read. Every new
// snapshot is published under one publish lock (see the package doc,
// "Freshness").
type Engine struct {
	unavailable atomic.Pointer[error] // see Unavailable
	st          store.Store
	feed        store.ChangeFeed // nil when the store has none
	// acked is the store's AckRevisioner, when it has a feed and one; then
	// a retrieve waits for the writes acknowledged to self before it (and
	// for owed, see owe) rather than for the store's revision, and the
	// Engine's writes name self (store.CallerPublishes).
	acked store.AckRevisioner
	self  *store.Publisher
	owed  atomic.Uint64

	tok      *index.Analyzer
	snap     atomic.Pointer[index.Snapshot]
	valid    perSnapshot[*Validity] // the Validity of a recent snapshot
	links    perSnapshot[*Links]    // the Links of a recent snapshot
	sections sectionCache           // the split long notes of recent retrieves

	embedder     embed.Embedder
	vectors      DocVectors
	alpha        float64
	embedTimeout time.Duration
	queries      *lru
	vt           atomic.Pointer[vecTable]
	vtMu         sync.Mutex
	onChange     func(store.ChangeSet)
	persist      store.IndexCache
	stamped      store.StampedIndexCache // nil when persist is set
	onRead       func(store.Entry)       // Options.OnRead
	build        index.BuildOptions      // of every full build

	// Goroutines the Engine owns (the change-feed follower, background
	// compactions, index saves, the vector load) are started by spawn
	// only, which counts them in bg; Close refuses new ones, cancels
	// bgCtx and waits for bg to drain.
	bg       sync.WaitGroup
	bgMu     sync.Mutex // guards closed, so that nothing starts after Close waited
	closed   bool
	bgCtx    context.Context
	bgCancel context.CancelFunc

	// vl is the load of Vectors under way or done (nil before the first
	// fused retrieve, or after a load that failed); see vectorsLoaded.
	vlMu sync.Mutex
	vl   *vecLoad
	vlOK atomic.Pointer[vecLoad] // vl once its load succeeded

	// Test hooks: called, when set, as a background compaction starts and
	// as Close starts waiting for the goroutines.
	hookCompact   func()
	hookCloseWait func()

	// pub is the publish lock, a one-slot semaphore so that waiting for it
	// honours a context. Only its holder stores into snap, and the fields
	// below are guarded by it.
	pub chan struct{}
	// lineage counts full builds. A background compaction folds the
	// snapshot of one lineage; it is published only if no full build came
	// in between, after replaying the keys published meanwhile (touched).
	lineage    uint64
	compacting bool
	touched    []store.Key
	bad        unreadableSet
	badCount   atomic.Int64 // len of bad, for Unreadable

	stopFollow func()
	closeOnce  sync.Once
	closeSave  sync.Once // saveBehind, once the goroutines are done
}

// spawn runs f on a goroutine the Engine owns (Close waits for it) and
// reports true, or reports false and does nothing once Close has begun.
// Every goroutine that outlives the call that starts it goes through
// here, as in hashicorp/raft's goFunc.
func (e *Engine) spawn(f func()) bool {
	e.bgMu.Lock()
	defer e.bgMu.Unlock()
	if e.closed {
		return false
	}
	e.bg.Go(f)
	return true
}

// New returns an Engine over st. It does not read the store until the
// first retrieve (or Rebuild). When st has a change feed, New subscribes
// to it and starts the follower goroutine that applies writes made behind
// the Engine's back as they are announced; it stops on Close, or when the
// store is closed.
func New(st store.Store, opts Options) *Engine {
	e := &Engine{
		st:           st,
		tok:          opts.Analyzer,
		embedder:     opts.Embedder,
		vectors:      opts.Vectors,
		alpha:        opts.Alpha,
		embedTimeout: opts.EmbedTimeout,
		queries:      newLRU(256),
		onChange:     opts.OnChange,
		persist:      opts.Persist,
		stamped:      opts.Stamped,
		onRead:       opts.OnRead,
		build:        index.BuildOptions{NoDuplicates: opts.NoDuplicates},
		pub:          make(chan struct{}, 1),
		stopFollow:   func() {},
	}
	e.bgCtx, e.bgCancel = context.WithCancel(context.Background())
	if e.tok == nil {
		e.tok = index.Default()
	}
	if e.persist != nil {
		e.stamped = nil
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
	if f, ok := st.(store.ChangeFeed); ok {
		e.feed = f
		if a, ok := st.(store.AckRevisioner); ok {
			e.acked, e.self = a, new(store.Publisher)
		}
		changed, cancel := f.Subscribe()
		ctx, stop := context.WithCancel(context.Background())
		e.stopFollow = func() { stop(); cancel() }
		e.spawn(func() { e.follow(ctx, changed) })
	}
	return e
}

// Store returns the store the engine reads.
func (e *Engine) Store() store.Store { return e.st }

// Close stops the Engine's goroutines and waits for every one of them:
// the change-feed follower, a background compaction under way, a save of
// the index under way (Options.Persist, Options.Stamped), a load of the
// vector cache under way. Then, the first time, it saves the snapshot as
// the index copy on the caller's goroutine when the copy is far behind
// (saveBehind: 256 or more changed entries, or beyond the store's change
// history), so the next process need not read the whole store. The store
// stays open (it is the caller's); the Engine keeps answering, catching up
// on each retrieve instead of in the background, and starts no goroutine
// any more: builds after Close are not saved, overlays are not compacted,
// and a fused retrieve loads the vector cache itself.
func (e *Engine) Close() error {
	e.closeOnce.Do(func() {
		e.stopFollow()
		e.bgMu.Lock()
		e.closed = true
		e.bgMu.Unlock()
		e.bgCancel()
	})
	if e.hookCloseWait != nil {
		e.hookCloseWait()
	}
	e.bg.Wait()
	e.closeSave.Do(e.saveBehind)
	return nil
}

// follow applies the store's changes in the background as the feed
// announces them, so that writes by other processes and goroutines are in
// the snapshot before anyone asks. It does nothing until the first
// snapshot exists, and ends when ctx is done or the store is closed.
func (e *Engine) follow(ctx context.Context, changed <-chan struct{}) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
		if e.snap.Load() == nil {
			continue
		}
		if _, err := e.Snapshot(ctx); errors.Is(err, store.ErrClosed) || ctx.Err() != nil {
			return
		}
		// Another failure (a network store's hiccup) is retried by the next
		// announcement or retrieve.
	}
}

// Snapshot returns the index snapshot a retrieve should use: the current
// one when it is at the store's revision, or on a store.AckRevisioner at
// the revision acknowledged to this Engine (one atomic load), else one
// brought up to date first, through the change feed (work proportional to
// the entries changed) or, without a feed or when the feed lost track, by
// a full build. Only the very first call, or a rebuild, reads the whole
// store.
//
// A store that is out of reach (its error wraps store.ErrUnavailable: a
// database that does not answer) does not stop retrieves once there is a
// snapshot: they answer from the last one, and Unavailable says so, until
// the store answers again and the snapshot catches up.
func (e *Engine) Snapshot(ctx context.Context) (*index.Snapshot, error) {
	if e.acked != nil {
		need, err := e.acked.AckedRevision(ctx, e.self)
		if err != nil {
			return e.lastResort(fmt.Errorf("read store revision: %w", err))
		}
		if s := e.snap.Load(); s != nil && s.Revision() >= max(need, e.owed.Load()) {
			e.available()
			return s, nil
		}
	} else {
		rev, err := e.st.Revision(ctx)
		if err != nil {
			return e.lastResort(fmt.Errorf("read store revision: %w", err))
		}
		if s := e.snap.Load(); s != nil && s.Revision() == rev {
			e.available()
			return s, nil
		}
	}
	s, err := e.catchUp(ctx)
	if err != nil {
		return e.lastResort(err)
	}
	e.available()
	return s, nil
}

// owe makes retrieves wait for the store's current revision, which an
// own write (store.CallerPublishes) left out of its acknowledged one but
// could not publish: owed only rises, and a snapshot at it or past it
// has paid it.
func (e *Engine) owe() {
	rev, err := e.st.Revision(context.Background())
	if err != nil {
		// bolt, the one store.AckRevisioner, fails it only closed or
		// broken, and then retrieves fail on it anyway. A store whose
		// Revision can fail for a while must not offer AckedRevision.
		return
	}
	for {
		o := e.owed.Load()
		if o >= rev || e.owed.CompareAndSwap(o, rev) {
			return
		}
	}
}

// lastResort answers a failed freshness check: with the current snapshot
// when the store is merely out of reach, else with the error.
func (e *Engine) lastResort(err error) (*index.Snapshot, error) {
	if s := e.snap.Load(); s != nil && errors.Is(err, store.ErrUnavailable) {
		e.unavailable.Store(&err)
		return s, nil
	}
	return nil, err
}

// available clears Unavailable. It only writes when there is something to
// clear: retrieves on a fresh snapshot, the hot path, share no written
// cache line.
func (e *Engine) available() {
	if e.unavailable.Load() != nil {
		e.unavailable.Store(nil)
	}
}

// Unavailable returns the error that made the last retrieve answer from an
// older snapshot because the store was out of reach, or nil when the
// snapshot is current.
func (e *Engine) Unavailable() error {
	if p := e.unavailable.Load(); p != nil {
		return *p
	}
	return nil
}

// Fresh is Snapshot, kept for callers written when Snapshot could answer
// stale: both return a snapshot that holds every write returned before
// the call.
func (e *Engine) Fresh(ctx context.Context) (*index.Snapshot, error) { return e.Snapshot(ctx) }

// Rebuild discards the snapshot and builds a new one from the whole
// store, for edits the revision cannot see (another process writing an fs
// folder that is not watched). It is serialised with writes and other
// publishes.
func (e *Engine) Rebuild(ctx context.Context) (BuildStats, error) {
	if err := e.lock(ctx); err != nil {
		return BuildStats{}, err
	}
	defer e.unlock()
	_, stats, err := e.rebuildLocked(ctx, false)
	return stats, err
}

// Load is Rebuild for a process that starts: with Options.Persist and a
// copy of the index made with the engine's analyzer, valid for the
// store's current revision or brought up to it by re-reading the entries
// the change feed names, it publishes that copy (what the build that made
// it indexed and skipped, as BuildStats); otherwise it builds from the
// whole store, as Rebuild does. A one-shot command calls it to learn which
// entries could not be read.
func (e *Engine) Load(ctx context.Context) (BuildStats, error) {
	if err := e.lock(ctx); err != nil {
		return BuildStats{}, err
	}
	defer e.unlock()
	_, stats, err := e.rebuildLocked(ctx, true)
	return stats, err
}

// BuildStats reports what a full build indexed and skipped.
type BuildStats struct {
	Entries int
	Skipped []error // one per entry the store could not read
}

func (e *Engine) lock(ctx context.Context) error {
	select {
	case e.pub <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (e *Engine) unlock() { <-e.pub }

// catchUp brings the snapshot to the store's current revision, under the
// publish lock.
func (e *Engine) catchUp(ctx context.Context) (*index.Snapshot, error) {
	if err := e.lock(ctx); err != nil {
		return nil, err
	}
	defer e.unlock()
	return e.catchUpLocked(ctx)
}

func (e *Engine) catchUpLocked(ctx context.Context) (*index.Snapshot, error) {
	rev, err := e.st.Revision(ctx)
	if err != nil {
		return nil, fmt.Errorf("read store revision: %w", err)
	}
	s := e.snap.Load()
	switch {
	case s != nil && s.Revision() == rev:
		return s, nil // someone caught up while this caller waited
	case s == nil || e.feed == nil:
		s, _, err := e.rebuildLocked(ctx, s == nil)
		return s, err
	}
	cs, err := e.feed.Changes(ctx, s.Revision())
	if err != nil {
		return nil, fmt.Errorf("read store changes: %w", err)
	}
	if cs.Reset {
		s, _, err := e.rebuildLocked(ctx, false)
		return s, err
	}
	next, err := e.apply(ctx, s, cs)
	if err != nil {
		return nil, err
	}
	e.publish(next, cs)
	return next, nil
}

// bulkApply is a change-set size past which re-reading the changed
// entries is worth saving as a new index copy (catchUpSave) and past which
// a folder's start rebuilds from the copy's documents (stamped.go).
const bulkApply = 256

// apply returns s brought to cs.Rev by re-reading each key of cs: an entry
// that is gone, or that cannot be read (as a full build skips it), leaves
// the index. Only a cancelled context or a closed store stop it.
func (e *Engine) apply(ctx context.Context, s *index.Snapshot, cs store.ChangeSet) (*index.Snapshot, error) {
	next, _, err := e.applyRead(ctx, s, cs)
	return next, err
}

// applyRead is apply that also returns the errors of the entries it could
// not read (not those that are gone), as a full build reports them in
// BuildStats.Skipped. The re-read entries go into the index in one batch
// (index.Snapshot.Apply: one merge for all of them, and one compaction on
// the spot when they outgrow the overlay), so k changes cost O(k) reads
// and analyses plus one merge, never a re-analysis of the whole index.
func (e *Engine) applyRead(ctx context.Context, s *index.Snapshot, cs store.ChangeSet) (*index.Snapshot, []error, error) {
	changes := make([]index.Change, len(cs.Keys))
	var skipped []error
	for i, k := range cs.Keys {
		ent, err := e.st.Get(ctx, k.Category, k.Name)
		switch {
		case err == nil:
			changes[i].In = InputOf(ent)
		case ctx.Err() != nil || errors.Is(err, store.ErrClosed):
			return nil, nil, fmt.Errorf("read changed entry %s: %w", k, err)
		default:
			if !errors.Is(err, store.ErrNotFound) {
				skipped = append(skipped, err)
			}
			changes[i] = index.Change{In: index.Input{Category: k.Category, Name: k.Name}, Delete: true}
		}
		e.noteRead(k, err)
	}
	return s.Apply(cs.Rev, changes), skipped, nil
}

// retag returns s tagged rev: a change set may move the revision without
// naming a key (writes that the feed folded away).
func retag(s *index.Snapshot, rev uint64) *index.Snapshot {
	if s.Revision() == rev {
		return s
	}
	return s.Without(rev, "", "") // no entry has an empty identity: a relabelled clone
}

// rebuildLocked builds a snapshot of the whole store and publishes it as
// the start of a new lineage. With cached, a persisted copy valid at the
// store's revision stands for the build. The caller holds the publish
// lock.
func (e *Engine) rebuildLocked(ctx context.Context, cached bool) (*index.Snapshot, BuildStats, error) {
	rev, err := e.st.Revision(ctx)
	if err != nil {
		return nil, BuildStats{}, fmt.Errorf("read store revision: %w", err)
	}
	var (
		s     *index.Snapshot
		stats BuildStats
	)
	if cached && e.persist != nil {
		s, stats = e.loadPersisted(ctx, rev)
	}
	if s == nil && e.stamped != nil {
		var (
			recs  []stampRec
			dirty bool
		)
		s, stats, recs, dirty, err = e.buildStamped(ctx, rev, cached)
		if err != nil {
			return nil, stats, err
		}
		if dirty {
			e.saveStamped(s, recs)
		}
	}
	if s == nil {
		// Writes that land during the scan may or may not be in it; the
		// snapshot is tagged with the revision before it, so the feed lists
		// them again afterwards.
		s, stats, err = e.buildAt(ctx, rev)
		if err != nil {
			return nil, stats, err
		}
		e.save(s, stats)
	}
	e.resetUnreadable(stats.Skipped)
	var since uint64
	if cur := e.snap.Load(); cur != nil {
		since = cur.Revision()
	}
	e.lineage++
	e.publish(s, store.ChangeSet{Since: since, Rev: s.Revision(), Reset: true})
	return s, stats, nil
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
		if e.onRead != nil {
			e.onRead(ent)
		}
		docs = append(docs, InputOf(ent))
	}
	if err := ctx.Err(); err != nil {
		return nil, stats, err
	}
	s := e.buildOf(rev, docs)
	stats.Entries = s.Count()
	return s, stats, nil
}

// buildOf indexes docs as every full build of the engine does.
func (e *Engine) buildOf(rev uint64, docs []index.Input) *index.Snapshot {
	return index.BuildWith(rev, e.tok, docs, e.build)
}

// decode loads a persisted copy made as the engine builds (its analyzer,
// duplicate detection on or off), or fails.
func (e *Engine) decode(data []byte, rev uint64) (*index.Snapshot, []byte, error) {
	s, meta, err := index.Decode(data, e.tok, rev)
	if err == nil && s.DetectsDuplicates() == e.build.NoDuplicates {
		return nil, nil, fmt.Errorf("%w: duplicate detection differs", index.ErrPersisted)
	}
	return s, meta, err
}

// publish installs s, derived from the installed snapshot by cs (or, with
// cs.Reset, built from the whole store), and starts a background
// compaction when its overlay has grown. The caller holds the publish lock.
func (e *Engine) publish(s *index.Snapshot, cs store.ChangeSet) {
	e.snap.Store(s)
	switch {
	case cs.Reset:
		e.touched = nil // a running compaction is of an older lineage
	case e.compacting:
		e.touched = append(e.touched, cs.Keys...)
	}
	if !e.compacting && s.WantsCompaction() {
		// Fold the overlay into a new base off the write path: at 100k
		// entries about 0.2 s of CPU (index.Snapshot.Compact merges, it
		// does not re-analyse), which no writer should wait for.
		lineage := e.lineage
		if e.spawn(func() { e.compact(s, lineage) }) {
			e.compacting, e.touched = true, nil
		}
	}
	if e.onChange != nil && (cs.Reset || len(cs.Keys) > 0) {
		e.onChange(cs)
	}
}

// compact folds the overlay of snap into a new base on its own goroutine,
// then, under the publish lock, replays on the result the keys published
// meanwhile (taking their documents from the installed snapshot, which is
// at least as new) and installs it. If a full build came in between (a
// new lineage), the work is dropped: the installed snapshot is newer and
// complete.
func (e *Engine) compact(snap *index.Snapshot, lineage uint64) {
	if e.hookCompact != nil {
		e.hookCompact()
	}
	c := snap.Compact()
	_ = e.lock(context.Background())
	defer e.unlock()
	touched := e.touched
	e.compacting, e.touched = false, nil
	if e.lineage != lineage {
		return
	}
	cur := e.snap.Load()
	seen := make(map[store.Key]bool, len(touched))
	changes := make([]index.Change, 0, len(touched))
	for _, k := range touched {
		if seen[k] {
			continue
		}
		seen[k] = true
		if d := cur.Lookup(k.Category, k.Name); d != nil {
			changes = append(changes, index.Change{In: cur.Input(d)})
		} else {
			changes = append(changes, index.Change{In: index.Input{Category: k.Category, Name: k.Name}, Delete: true})
		}
	}
	e.snap.Store(c.Apply(cur.Revision(), changes))
}

// Put writes an entry to the store (an upsert); a retrieve that starts
// after it returns sees it.
func (e *Engine) Put(ctx context.Context, ent store.Entry) error {
	return e.write(ctx, ent.Key(), func(ctx context.Context) (bool, error) { return true, e.st.Put(ctx, ent) })
}

// Delete removes an entry from the store; a retrieve that starts after it
// returns no longer finds it.
func (e *Engine) Delete(ctx context.Context, category, name string) error {
	return e.write(ctx, store.Key{Category: category, Name: name},
		func(ctx context.Context) (bool, error) { return true, e.st.Delete(ctx, category, name) })
}

// Update is the store's atomic read-modify-write of one entry
// (store.Store.Update, same contract); a retrieve that starts after it
// returns sees the result. It is how a caller that keeps part of the old
// entry (its tags, its creation time) writes: the store makes the read
// and the write one step, and the Engine publishes the result as it does
// a Put's.
func (e *Engine) Update(ctx context.Context, category, name string, fn func(old store.Entry, found bool) (store.Entry, error)) error {
	return e.write(ctx, store.Key{Category: category, Name: name}, func(ctx context.Context) (bool, error) {
		var wrote bool
		err := e.st.Update(ctx, category, name, func(old store.Entry, found bool) (store.Entry, error) {
			r, err := fn(old, found)
			wrote = err == nil // the last call's result is the one written
			return r, err
		})
		return wrote && err == nil, err
	})
}

// write runs a store write to key and brings the snapshot up to date
// before it returns, so the next retrieve sees it without waiting. do
// reports whether it surely wrote (a Put, a Delete, an Update whose
// function returned an entry). With a change feed that is an ordinary
// catch-up, which also takes in whatever others wrote meanwhile. Without
// one, the revision is the only signal: the write runs under the publish
// lock, so that a revision that moved by exactly one around a write that
// surely wrote is that write alone and the snapshot is patched; anything
// else rebuilds.
//
// With a store that tells its acknowledged revision (store.AckRevisioner),
// the write is made with a store.CallerPublishes context: retrieves do not
// wait for it, since it returns only once it is published (or owed, when
// its catch-up failed: then every retrieve waits for it).
func (e *Engine) write(ctx context.Context, key store.Key, do func(context.Context) (wrote bool, err error)) error {
	if e.feed != nil {
		wctx := ctx
		if e.acked != nil {
			wctx = store.CallerPublishes(ctx, e.self)
		}
		// Owed unless published: no index yet (a one-shot `recall add`),
		// or a first build under way that may have started before this
		// write; a catch-up that failed or panicked (the write has still
		// landed; the next retrieve catches up); a panic in do after its
		// commit.
		published := false
		defer func() {
			if !published {
				e.owe()
			}
		}()
		if _, err := do(wctx); err != nil {
			published = true // nothing written (or the store's own failure)
			return err
		}
		if e.snap.Load() != nil {
			_, err := e.catchUp(ctx)
			published = err == nil
		}
		return nil
	}
	if err := e.lock(ctx); err != nil {
		return err
	}
	defer e.unlock()
	s := e.snap.Load()
	if s == nil {
		// No index yet (a one-shot `recall add`): nothing to keep fresh.
		_, err := do(ctx)
		return err
	}
	before, err := e.st.Revision(ctx)
	if err != nil {
		return fmt.Errorf("read store revision: %w", err)
	}
	moves, err := do(ctx)
	if err != nil {
		return err
	}
	after, err := e.st.Revision(ctx)
	switch {
	case err != nil:
		// The write landed; the snapshot is merely stale, and the next
		// retrieve catches up.
	case after == before:
		// Nothing written (an Update that changed nothing).
	case moves && s.Revision() == before && after == before+1:
		if next, err := e.apply(ctx, s, store.ChangeSet{Since: before, Rev: after, Keys: []store.Key{key}}); err == nil {
			e.publish(next, store.ChangeSet{Since: before, Rev: after, Keys: []store.Key{key}})
		}
	default:
		_, _, _ = e.rebuildLocked(ctx, false)
	}
	return nil
}

// InputOf is what the index holds of an entry: its identity, its content
// and its effective date (store.EffectiveDate: Meta.Date when present,
// else Meta.Created), a date without a time of day as a calendar day that
// each query reads in its own zone (index.TimeRange), in Extra, its
// validity keys (supersedes, expires) and what its links need (property
// links, aliases) when it carries any, and its aliases (store.Aliases),
// which are indexed as part of its name.
func InputOf(e store.Entry) index.Input {
	in := index.Input{Category: e.Category, Name: e.Name, Content: e.Content, Extra: entryExtra(e.Meta), Aliases: store.Aliases(e.Meta)}
	switch {
	case !e.Meta.Date.IsZero():
		in.Date, in.Day = e.Meta.Date, store.IsDateOnly(e.Meta.Date)
	default:
		in.Date, in.Written = e.Meta.Created, true
	}
	return in
}
