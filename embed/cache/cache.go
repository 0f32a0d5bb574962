package cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/recallhq/recall/embed"
	"github.com/recallhq/recall/store"
)

// Backend is where a Cache persists its vectors: store.VectorCache, which
// store/fs, store/bolt and store/postgres implement; a store.Store that
// does is found by type assertion.
type Backend = store.VectorCache

// DamageReporter is a Backend that can tell how many damaged records a
// load dropped. store/fs, store/bolt and store/postgres implement it; the
// Cache uses it when its backend does, and reports the count through the
// function given to OnDropped.
type DamageReporter interface {
	// LoadVectorsReport is LoadVectors, and also returns how many stored
	// records it dropped as damaged (the backend's doc says how it counts
	// damage whose extent it cannot know).
	LoadVectorsReport(ctx context.Context, model string, fn func(key string, vec []float32) error) (dropped int, err error)
}

// Key is the cache key of a text: the hex SHA-256 of its bytes. An entry's
// indexed text (index.EntryText) changes exactly when it must be
// re-embedded.
func Key(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// Options tune a Cache. The zero value is ready to use.
type Options struct {
	// BatchSize is the number of texts per embedder call (default 64).
	BatchSize int
	// Concurrency bounds the embedder calls in flight (default 2).
	Concurrency int
}

// Cache is an embed.Embedder that remembers document vectors: in memory,
// and in a Backend when one is given. Vectors are grouped under the
// wrapped embedder's Model() as it reads when the Cache is made, so a
// different model never sees another's vectors. Identical misses asked for
// concurrently are embedded once.
//
// A Cache is safe for concurrent use. Returned vectors are shared: callers
// must not modify them.
type Cache struct {
	emb   embed.Embedder
	be    Backend
	model string
	opts  Options

	loadMu    sync.Mutex
	loaded    bool
	onDropped func(model string, dropped int)

	mu      sync.RWMutex
	vecs    map[string][]float32
	pending map[string]*call
	gen     atomic.Uint64 // bumped whenever vecs changes
}

type call struct {
	done chan struct{}
	vec  []float32
	err  error
}

// New wraps emb. be may be nil (memory only).
func New(emb embed.Embedder, be Backend, opts Options) *Cache {
	if opts.BatchSize <= 0 {
		opts.BatchSize = 64
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 2
	}
	return &Cache{
		emb:     emb,
		be:      be,
		model:   emb.Model(),
		opts:    opts,
		vecs:    map[string][]float32{},
		pending: map[string]*call{},
	}
}

// Model is the identity vectors are stored under: the wrapped embedder's
// Model when the Cache was made, which lacks the dimension when the
// provider had not learnt it yet (see the package doc).
func (c *Cache) Model() string { return c.model }

// OnDropped sets fn to be called, from Load, when the backend dropped
// damaged records while loading (only backends that implement
// DamageReporter can tell). The vectors of those records are missing from
// the cache; a Sync (or Embed of their texts) computes them again. fn
// replaces any earlier one; nil removes it.
func (c *Cache) OnDropped(fn func(model string, dropped int)) {
	c.loadMu.Lock()
	c.onDropped = fn
	c.loadMu.Unlock()
}

// Load reads the backend's vectors for the model into memory, once. Later
// calls return at once; a failed load is retried by the next call.
func (c *Cache) Load(ctx context.Context) error {
	c.loadMu.Lock()
	defer c.loadMu.Unlock()
	if c.loaded || c.be == nil {
		c.loaded = true
		return nil
	}
	got := map[string][]float32{}
	put := func(key string, vec []float32) error {
		got[key] = vec
		return nil
	}
	var (
		dropped int
		err     error
	)
	if r, ok := c.be.(DamageReporter); ok {
		dropped, err = r.LoadVectorsReport(ctx, c.model, put)
	} else {
		err = c.be.LoadVectors(ctx, c.model, put)
	}
	if err != nil {
		return fmt.Errorf("load cached vectors for %s: %w", c.model, err)
	}
	if dropped > 0 && c.onDropped != nil {
		c.onDropped(c.model, dropped)
	}
	c.mu.Lock()
	for k, v := range got {
		if _, ok := c.vecs[k]; !ok {
			c.vecs[k] = v
		}
	}
	c.gen.Add(1)
	c.mu.Unlock()
	c.loaded = true
	return nil
}

// Get returns the cached vector for key, without embedding anything.
// Call Load first to see the backend's vectors.
func (c *Cache) Get(key string) ([]float32, bool) {
	c.mu.RLock()
	v, ok := c.vecs[key]
	c.mu.RUnlock()
	return v, ok
}

// Generation changes whenever the set of vectors in memory changes, so
// readers that index vectors by document can tell when to look again.
func (c *Cache) Generation() uint64 { return c.gen.Load() }

// Len is the number of vectors in memory.
func (c *Cache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.vecs)
}

// Embed returns a vector per text, embedding (and storing) only the texts
// not cached yet.
func (c *Cache) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	if err := c.Load(ctx); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	keys := make([]string, len(texts))
	var (
		mine    []int             // first index of each key this call embeds
		waits   = map[int]*call{} // index → a call in flight elsewhere
		firstOf = map[string]int{}
		dups    []int
	)
	c.mu.Lock()
	for i, t := range texts {
		k := Key(t)
		keys[i] = k
		if v, ok := c.vecs[k]; ok {
			out[i] = v
			continue
		}
		if _, ok := firstOf[k]; ok {
			dups = append(dups, i)
			continue
		}
		firstOf[k] = i
		if p, ok := c.pending[k]; ok {
			waits[i] = p
			continue
		}
		c.pending[k] = &call{done: make(chan struct{})}
		mine = append(mine, i)
	}
	c.mu.Unlock()

	if err := c.embedMine(ctx, texts, keys, mine); err != nil {
		return nil, err
	}
	c.mu.RLock()
	for _, i := range mine {
		out[i] = c.vecs[keys[i]]
	}
	c.mu.RUnlock()
	for i, p := range waits {
		select {
		case <-p.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if p.err != nil {
			return nil, p.err
		}
		out[i] = p.vec
	}
	for _, i := range dups {
		out[i] = out[firstOf[keys[i]]]
	}
	return out, nil
}

// embedMine embeds the texts at idx in batches, persists each batch as it
// completes (so an interrupted sync keeps its progress) and resolves the
// pending calls.
func (c *Cache) embedMine(ctx context.Context, texts, keys []string, idx []int) error {
	if len(idx) == 0 {
		return nil
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(c.opts.Concurrency)
	for start := 0; start < len(idx); start += c.opts.BatchSize {
		batch := idx[start:min(start+c.opts.BatchSize, len(idx))]
		g.Go(func() error {
			err := c.embedBatch(gctx, texts, keys, batch)
			if err != nil {
				c.resolve(keys, batch, nil, err)
			}
			return err
		})
	}
	err := g.Wait()
	if err != nil {
		// Batches never started (the group stopped early) must not leave
		// waiters hanging.
		c.mu.Lock()
		for _, i := range idx {
			if p, ok := c.pending[keys[i]]; ok {
				delete(c.pending, keys[i])
				p.err = err
				close(p.done)
			}
		}
		c.mu.Unlock()
	}
	return err
}

func (c *Cache) embedBatch(ctx context.Context, texts, keys []string, batch []int) error {
	in := make([]string, len(batch))
	bk := make([]string, len(batch))
	for j, i := range batch {
		in[j], bk[j] = texts[i], keys[i]
	}
	vs, err := c.emb.Embed(ctx, in)
	if err != nil {
		return err
	}
	if len(vs) != len(in) {
		return fmt.Errorf("%w: %d vectors for %d texts", embed.ErrBadResponse, len(vs), len(in))
	}
	if c.be != nil {
		if err := c.be.PutVectors(ctx, c.model, bk, vs); err != nil {
			return fmt.Errorf("store vectors: %w", err)
		}
	}
	c.resolve(keys, batch, vs, nil)
	return nil
}

func (c *Cache) resolve(keys []string, batch []int, vs [][]float32, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for j, i := range batch {
		k := keys[i]
		p, ok := c.pending[k]
		if !ok {
			continue
		}
		delete(c.pending, k)
		if err == nil {
			c.vecs[k] = vs[j]
			p.vec = vs[j]
			c.gen.Add(1)
		}
		p.err = err
		close(p.done)
	}
}

// SyncStats reports what a Sync did.
type SyncStats struct {
	Texts    int // distinct texts asked for
	Cached   int // already had a vector
	Embedded int // embedded by this sync
	Pruned   int // vectors dropped because no text has them any more
}

// Sync makes the cache hold a vector for every text and nothing else:
// missing vectors are embedded in batches (progress is called after each
// step with the number of texts done so far and the total), and vectors
// whose text is not among texts are deleted. When ctx is cancelled, the
// batches already embedded stay stored and a later Sync continues; nothing
// is pruned.
//
// Only vectors the cache already held when Sync started can be pruned:
// texts is what the caller read before, and a vector embedded meanwhile
// (a background fill for an entry written during the Sync) belongs to
// text the caller did not see, not to text that is gone.
func (c *Cache) Sync(ctx context.Context, texts []string, progress func(done, total int)) (SyncStats, error) {
	var st SyncStats
	if err := c.Load(ctx); err != nil {
		return st, err
	}
	c.mu.RLock()
	held := make([]string, 0, len(c.vecs))
	for k := range c.vecs {
		held = append(held, k)
	}
	c.mu.RUnlock()
	want := make(map[string]bool, len(texts))
	var missing []string
	for _, t := range texts {
		k := Key(t)
		if want[k] {
			continue
		}
		want[k] = true
		if _, ok := c.Get(k); ok {
			st.Cached++
		} else {
			missing = append(missing, t)
		}
	}
	st.Texts = len(want)
	if progress != nil {
		progress(st.Cached, st.Texts)
	}
	step := c.opts.BatchSize * c.opts.Concurrency
	for start := 0; start < len(missing); start += step {
		chunk := missing[start:min(start+step, len(missing))]
		if _, err := c.Embed(ctx, chunk); err != nil {
			return st, err
		}
		st.Embedded += len(chunk)
		if progress != nil {
			progress(st.Cached+st.Embedded, st.Texts)
		}
	}
	var stale []string
	for _, k := range held {
		if !want[k] {
			stale = append(stale, k)
		}
	}
	if len(stale) > 0 {
		if c.be != nil {
			if err := c.be.DeleteVectors(ctx, c.model, stale); err != nil {
				return st, fmt.Errorf("prune vectors: %w", err)
			}
		}
		c.mu.Lock()
		for _, k := range stale {
			delete(c.vecs, k)
		}
		c.gen.Add(1)
		c.mu.Unlock()
		st.Pruned = len(stale)
	}
	return st, nil
}
