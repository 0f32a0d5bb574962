package service

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
)

// Options configure a Memory. The zero value is ready to use: pure BM25,
// no log.
type Options struct {
	// Engine configures the retrieve engine (segmentation, embedder,
	// vectors). When Engine.Vectors is an *embed/cache.Cache, the Memory
	// fills it in the background once started.
	Engine retrieve.Options
	// Log receives diagnostics (index builds, unreadable entries, embedding
	// failures); nil discards them.
	Log *log.Logger
	// FillQueue bounds the background vector fill's queue of written
	// entries waiting for a vector; 0 means 256. When it overflows, the
	// fill falls back to one sync of the whole index.
	FillQueue int
	// RefillHint ends the line a Memory that was never started (a
	// one-shot command) logs when it finds its vector cache damaged: it
	// runs no fill, so it says how the user gets the lost vectors back
	// (the CLI: "run `recall embed`"). Empty, the line says only that
	// nothing was re-embedded. A started Memory re-embeds them itself, in
	// the background, and says so.
	RefillHint string
}

// Memory is one store served to agents: the operations the CLI, the HTTP
// API and the MCP tools share, over one retrieve engine. All methods are
// safe for concurrent use.
type Memory struct {
	st  store.Store
	eng *retrieve.Engine
	log *log.Logger

	vectors *cache.Cache // nil without an embedder
	fill    *filler      // nil without an embedder

	// indexed is set once a build finished (List may then page the index
	// instead of reading the store). The count of unreadable entries is
	// the engine's (retrieve.Engine.Unreadable).
	indexed atomic.Bool

	refillHint string
	running    atomic.Bool // set by Start: the fill runs

	mu      sync.Mutex
	started bool
	stop    context.CancelFunc
	wg      sync.WaitGroup
}

// New returns a Memory over st. It reads nothing until the first call;
// Start begins the background work (index warm-up, change following,
// vector fill). The caller keeps ownership of st and closes it after
// Close.
func New(st store.Store, opts Options) *Memory {
	m := &Memory{st: st, log: opts.Log, refillHint: opts.RefillHint}
	if m.log == nil {
		m.log = log.New(io.Discard, "", 0)
	}
	eo := opts.Engine
	if c, ok := eo.Vectors.(*cache.Cache); ok && eo.Embedder != nil {
		m.vectors = c
		m.fill = newFiller(m, opts.FillQueue)
		// Every snapshot the engine publishes names what it changed —
		// writes through the Memory, through the store, by other processes
		// (the store's change feed) — and those entries are what may need
		// a vector: the fill follows the index, and never rereads the store.
		user := eo.OnChange
		eo.OnChange = func(cs store.ChangeSet) {
			m.fill.changed(cs)
			if user != nil {
				user(cs)
			}
		}
		c.OnDropped(m.vectorsDropped)
	}
	m.eng = retrieve.New(st, eo)
	return m
}

// Store returns the store the Memory serves.
func (m *Memory) Store() store.Store { return m.st }

// Engine returns the retrieve engine. Writes must go through the Memory
// (or the engine), not the store, to keep the index patched rather than
// rebuilt.
func (m *Memory) Engine() *retrieve.Engine { return m.eng }

// EmbeddingModel is the identity of the model whose vectors the Memory
// fuses with BM25, as its vector cache stores them (without the dimension
// when the provider learns it from its first answer, see embed/cache), or
// "" without an embedder.
func (m *Memory) EmbeddingModel() string {
	if m.vectors == nil {
		return ""
	}
	return m.vectors.Model()
}

func (m *Memory) logf(format string, args ...any) { m.log.Printf(format, args...) }

// vectorsDropped runs when loading the vector cache found damaged records
// and dropped them: it says so, and asks the fill for a pass over the
// whole index, which embeds every entry missing a vector again (once the
// Memory is started: Start's first pass does it anyway). Until then
// retrieve fuses over the vectors left, as SPEC §6 allows: an entry
// without one adds nothing on the cosine side. A Memory that is not
// running says that nothing is re-embedded, and Options.RefillHint.
func (m *Memory) vectorsDropped(model string, n int) {
	m.fill.syncAll()
	if m.running.Load() {
		m.logf("vector cache for %s was damaged: dropped %s; re-embedding the entries that lost their vector in the background",
			model, plural(n, "record", "records"))
		return
	}
	hint := ""
	if m.refillHint != "" {
		hint = "; " + m.refillHint
	}
	m.logf("vector cache for %s was damaged: dropped %s; the entries that lost their vector are ranked without it, and not re-embedded now%s",
		model, plural(n, "record", "records"), hint)
}

// watcher is a store that notices edits made behind its back and raises
// its revision for them (store/fs).
type watcher interface {
	Watch(ctx context.Context, onChange func()) error
}

// Start begins the background work of a long-running server, for as long
// as ctx lives or until Close: it builds the index, fills missing vectors,
// and follows changes made outside the Memory — through the store's
// store.ChangeFeed when it has one, and a folder store's watch. Start
// returns at once: the watch is set up, and then the index built, on a
// goroutine of the Memory's (Close waits for it); a watch that cannot be
// set up is logged, not returned. A second call does nothing.
func (m *Memory) Start(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.started {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	m.started, m.stop = true, cancel
	if m.fill != nil {
		m.running.Store(true)
		m.wg.Go(func() { m.fill.run(ctx) })
	}
	m.wg.Go(func() {
		// The watch is set up before the first build reads the store, on
		// this goroutine, so that Start (and an MCP handshake after it)
		// does not wait for it: setting up a watch walks every folder
		// (0.25 s quiet, seconds under load). Nothing edited meanwhile is
		// lost: an edit before the watch is in place is read by the build
		// that follows (Load re-reads or re-stats every entry, replacing
		// any snapshot a retrieve built earlier), one after it is seen by
		// the watch.
		if w, ok := m.st.(watcher); ok {
			if err := w.Watch(ctx, func() { m.changed(ctx) }); err != nil && ctx.Err() == nil && !errors.Is(err, store.ErrClosed) {
				m.logf("watch the store: %v; edits made outside the server are seen only after a restart", err)
			}
		}
		m.warm(ctx)
	})
	return nil
}

// Close stops the background work (the engine's change-feed follower
// included) and waits for it. It does not close the store.
func (m *Memory) Close() error {
	m.mu.Lock()
	stop := m.stop
	m.mu.Unlock()
	if stop != nil {
		stop()
	}
	m.wg.Wait()
	return m.eng.Close() // its change-feed follower
}

// changed runs when the store moved behind the Memory's back: the index
// catches up in the background, and so do vectors.
func (m *Memory) changed(ctx context.Context) {
	if ctx.Err() != nil {
		return
	}
	// The index catches up now rather than on the next retrieve; the keys
	// it re-reads reach the vector fill through the engine's OnChange.
	m.logf("store changed outside the server; catching up")
	if _, err := m.eng.Snapshot(ctx); err != nil && ctx.Err() == nil {
		m.logf("index: %v", err)
	}
}

// warm builds the index ahead of the first retrieve (or loads the
// store's persisted copy of it, when current: retrieve.Engine.Load) and
// records what it could not read, then asks the fill for the vectors
// still missing.
func (m *Memory) warm(ctx context.Context) {
	start := time.Now()
	stats, err := m.eng.Load(ctx)
	if err != nil {
		if ctx.Err() == nil && !errors.Is(err, store.ErrClosed) {
			m.logf("index: %v", err)
		}
		return
	}
	m.indexed.Store(true)
	for _, e := range stats.Skipped {
		m.logf("index: skipped %s", OneLine(e.Error()))
	}
	m.logf("indexed %s in %v", plural(stats.Entries, "entry", "entries"), time.Since(start).Round(10*time.Microsecond))
	if m.fill != nil {
		m.fill.syncAll()
	}
}

// Health is what a server reports about its store.
type Health struct {
	// Revision is the store's current revision.
	Revision uint64 `json:"revision"`
	// Indexed tells whether the first index build has finished.
	Indexed bool `json:"indexed"`
	// Unreadable counts the entries the index lacks because the store
	// could not read them (hand-edited files with broken front matter,
	// PostgreSQL rows over the bounds): those of the last full build, kept
	// current by the change feed for stores whose errors name the entry
	// (retrieve.Engine.Unreadable).
	Unreadable int `json:"unreadable"`
}

// Health reads the store's revision, which fails when the store is
// unavailable (closed, its folder gone), and reports the unreadable
// entries the last full index build met.
func (m *Memory) Health(ctx context.Context) (Health, error) {
	rev, err := m.st.Revision(ctx)
	if err != nil {
		if m.indexed.Load() && m.available() == nil {
			// A database out of reach: retrieves go on from the last
			// index (retrieve.Engine.Snapshot); writes fail.
			return Health{}, fmt.Errorf("%w: %w; retrieve answers from the last index until the store is back, writes fail", ErrUnavailable, err)
		}
		return Health{}, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	if err := m.available(); err != nil {
		return Health{}, err
	}
	return Health{Revision: rev, Indexed: m.indexed.Load(), Unreadable: m.eng.Unreadable()}, nil
}

// folder is a store kept in a folder (store/fs): Path names an entry's
// file without touching the disk.
type folder interface {
	Path(category, name string) (string, error)
}

// available reports ErrUnavailable when a folder store's root is gone
// (unmounted, deleted): its revision still reads, but every answer would
// be empty. A stat is all it costs.
func (m *Memory) available() error {
	f, ok := m.st.(folder)
	if !ok {
		return nil
	}
	p, err := f.Path("c", "n")
	if err != nil {
		return nil
	}
	root := filepath.Dir(filepath.Dir(p))
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		if err == nil {
			err = errors.New("not a folder")
		}
		return fmt.Errorf("%w: store folder %s: %w", ErrUnavailable, root, err)
	}
	return nil
}

// unreadable reports whether err is about one entry the store cannot
// read (a hand-edited file with broken front matter, a bolt record that
// fails its checksum) rather than about the store as a whole: an error
// wrapping store.ErrUnreadable, which every backend uses for this.
func unreadable(err error) bool { return errors.Is(err, store.ErrUnreadable) }

// Unreadable reports whether err concerns one entry the store cannot read
// (see store.ErrUnreadable), as opposed to the store as a whole.
func Unreadable(err error) bool { return unreadable(err) }
