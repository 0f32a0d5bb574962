package retrieve

import (
	"container/list"
	"context"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/recallhq/recall/embed"
	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/index"
)

// DocVectors gives read access to cached document vectors. *cache.Cache
// implements it.
type DocVectors interface {
	// Load makes the persisted vectors available to Get. The Engine calls
	// it once, on a goroutine of its own, when the first fused retrieve
	// comes (and again after a load that failed); retrieves answer with
	// BM25 until it has returned. It must be safe to call concurrently
	// with Get and with other calls of Load.
	Load(ctx context.Context) error
	// Get returns the vector cached for a text key (cache.Key).
	Get(key string) ([]float32, bool)
	// Generation changes whenever the cached set changes.
	Generation() uint64
}

// DefaultEmbedTimeout bounds the query-embedding call (SPEC §5).
const DefaultEmbedTimeout = 2 * time.Second

// vecTable aligns document vectors with the Ords of one base segment.
// Snapshots derived by writes share the base, so the table survives them;
// overlay documents are looked up per query (there are at most a few
// hundred) and memoised by document. A change in the cached set (a sync,
// a background fill) makes a new table.
//
// Base vectors are copied into one contiguous matrix: the scan is bound by
// memory bandwidth, and vectors scattered over the heap (one allocation
// each) read at a fraction of the speed of one sequential block. The copy
// doubles the memory vectors take; docs/performance.md has the figures.
type vecTable struct {
	base    *index.Snapshot // any snapshot with this base
	gen     uint64          // DocVectors generation it was built from
	dim     int             // of the first vector found; others are ignored
	mat     []float32       // base Ord × dim
	has     []bool          // by base Ord
	keys    []string        // cache keys by base Ord ("" for dead docs)
	overlay sync.Map        // *index.Doc → []float32 (nil: none cached)
}

func docKey(d *index.Doc) string { return cache.Key(index.EntryText(d.Name, d.Content)) }

// vecLoad is one load of the vector cache: done is closed when Load has
// returned, with its error in err.
type vecLoad struct {
	done chan struct{}
	err  error
}

// vectorsLoaded returns the load of the vector cache, starting the load on a goroutine of the Engine when none is
// under way or done (or the last one failed). It never blocks on the load.
// After Close, when the Engine starts no goroutine, the caller's goroutine
// loads, bounded by ctx.
func (e *Engine) vectorsLoaded(ctx context.Context) *vecLoad {
	if vl := e.vlOK.Load(); vl != nil {
		return vl // the hot path: one atomic load
	}
	e.vlMu.Lock()
	vl := e.vl
	if vl != nil {
		select {
		case <-vl.done:
			if vl.err != nil {
				vl = nil // failed: try again
			}
		default: // under way
		}
	}
	if vl == nil {
		vl = &vecLoad{done: make(chan struct{})}
		if !e.spawn(func() {
			vl.err = e.vectors.Load(e.bgCtx)
			close(vl.done)
			if vl.err == nil {
				e.vlOK.Store(vl)
			}
		}) {
			vl = nil
		}
		e.vl = vl
	}
	e.vlMu.Unlock()
	if vl == nil { // closed
		vl = &vecLoad{done: make(chan struct{})}
		vl.err = e.vectors.Load(ctx)
		close(vl.done)
	}
	return vl
}

// table returns the vector table for snap's base, building it when the
// base changed. It returns nil when there are no vectors at all. The
// caller has seen the vector cache loaded.
func (e *Engine) table(snap *index.Snapshot) *vecTable {
	if e.vectors == nil {
		return nil
	}
	gen := e.vectors.Generation()
	if t := e.vt.Load(); t != nil && t.base.SameBase(snap) && t.gen == gen {
		return t
	}
	e.vtMu.Lock()
	defer e.vtMu.Unlock()
	old := e.vt.Load()
	if old != nil && old.base.SameBase(snap) && old.gen == gen {
		return old
	}
	if old != nil && old.base.SameBase(snap) && old.dim > 0 {
		t := old.refresh(e, gen)
		e.vt.Store(t)
		return t
	}
	n := snap.BaseLen()
	t := &vecTable{base: snap, gen: gen, has: make([]bool, n), keys: make([]string, n)}
	vecs := make([][]float32, n)
	for ord := range n {
		d := snap.Doc(ord)
		if d == nil {
			continue // dead in this snapshot; dead in every later one too
		}
		t.keys[ord] = docKey(d)
		if v, ok := e.vectors.Get(t.keys[ord]); ok && len(v) > 0 {
			if t.dim == 0 {
				t.dim = len(v)
			}
			if len(v) == t.dim {
				vecs[ord] = v
			}
		}
	}
	if t.dim > 0 {
		t.mat = make([]float32, n*t.dim)
		for ord, v := range vecs {
			if v != nil {
				copy(t.mat[ord*t.dim:], v)
				t.has[ord] = true
			}
		}
	}
	e.vt.Store(t)
	return t
}

// refresh returns a table for the same base that also holds the vectors
// cached since t was built (a background fill, a sync), without hashing
// every document again or copying the matrix: a cached vector never
// changes for its key, so only rows t lacks are filled. Readers of t never
// read those rows (their has is false), so sharing the matrix is safe.
func (t *vecTable) refresh(e *Engine, gen uint64) *vecTable {
	nt := &vecTable{base: t.base, gen: gen, dim: t.dim, mat: t.mat, keys: t.keys, has: slices.Clone(t.has)}
	for ord, k := range t.keys {
		if k == "" || nt.has[ord] {
			continue
		}
		if v, ok := e.vectors.Get(k); ok && len(v) == nt.dim {
			copy(nt.mat[ord*nt.dim:], v)
			nt.has[ord] = true
		}
	}
	return nt
}

func (t *vecTable) vector(e *Engine, snap *index.Snapshot, ord int) []float32 {
	if ord < len(t.has) {
		if !t.has[ord] || snap.Doc(ord) == nil {
			return nil
		}
		return t.mat[ord*t.dim : (ord+1)*t.dim : (ord+1)*t.dim]
	}
	d := snap.Doc(ord)
	if d == nil {
		return nil
	}
	if v, ok := t.overlay.Load(d); ok {
		return v.([]float32)
	}
	v, _ := e.vectors.Get(docKey(d))
	t.overlay.Store(d, v)
	return v
}

// cosines fills cos[ord] and has[ord] for every live document whose cached
// vector has q's dimension, and returns how many it found. Large stores
// are scanned by several goroutines: the scan is memory-bound.
func (e *Engine) cosines(snap *index.Snapshot, t *vecTable, q []float32, cos []float64, has []bool) int {
	n := snap.Len()
	scan := func(lo, hi int) int {
		found := 0
		for ord := lo; ord < hi; ord++ {
			v := t.vector(e, snap, ord)
			if len(v) != len(q) {
				continue
			}
			cos[ord] = float64(embed.Dot(q, v))
			has[ord] = true
			found++
		}
		return found
	}
	workers := min(runtime.GOMAXPROCS(0), 8)
	// Below about a megabyte of vectors a goroutine costs more than it saves.
	if workers < 2 || n*len(q) < 1<<18 {
		return scan(0, n)
	}
	var wg sync.WaitGroup
	counts := make([]int, workers)
	chunk := (n + workers - 1) / workers
	for w := range workers {
		lo, hi := w*chunk, min((w+1)*chunk, n)
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts[w] = scan(lo, hi)
		}()
	}
	wg.Wait()
	total := 0
	for _, c := range counts {
		total += c
	}
	return total
}

// queryVector embeds the query within the timeout, through a small LRU.
// ok is false on any failure: the caller falls back to BM25.
func (e *Engine) queryVector(ctx context.Context, query string) ([]float32, bool) {
	if e.embedder == nil {
		return nil, false
	}
	key := e.embedder.Model() + "\x00" + query
	if v, ok := e.queries.get(key); ok {
		return v, true
	}
	ctx, cancel := context.WithTimeout(ctx, e.embedTimeout)
	defer cancel()
	type answer struct {
		v   [][]float32
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		defer func() {
			// An embedder that panics must not take retrieve down.
			if r := recover(); r != nil {
				ch <- answer{}
			}
		}()
		v, err := e.embedder.Embed(ctx, []string{query})
		ch <- answer{v, err}
	}()
	select {
	case a := <-ch:
		if a.err != nil || len(a.v) != 1 || len(a.v[0]) == 0 {
			return nil, false
		}
		e.queries.put(key, a.v[0])
		return a.v[0], true
	case <-ctx.Done():
		// An embedder that ignores its context is abandoned, not awaited.
		return nil, false
	}
}

// lru is a small least-recently-used map of query vectors.
type lru struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *lruItem, most recent first
	items map[string]*list.Element
}

type lruItem struct {
	key string
	v   []float32
}

func newLRU(max int) *lru {
	return &lru{max: max, order: list.New(), items: map[string]*list.Element{}}
}

func (c *lru) get(key string) ([]float32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*lruItem).v, true
}

func (c *lru) put(key string, v []float32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		el.Value.(*lruItem).v = v
		c.order.MoveToFront(el)
		return
	}
	c.items[key] = c.order.PushFront(&lruItem{key, v})
	if c.order.Len() > c.max {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.items, old.Value.(*lruItem).key)
	}
}
