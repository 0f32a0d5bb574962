package service

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/store"
)

// defaultFillQueue is the default bound of the vector fill's queue.
const defaultFillQueue = 256

// fillBatch is how many queued texts one embedding call takes.
const fillBatch = 32

// filler embeds, on one goroutine per Memory, the entries that need a
// vector: those the engine's snapshots re-read (queued by its change
// hook, at most a bounded number; writes through the Memory, the store or
// another process alike) and, when asked (at start, after a full build,
// when the queue overflowed), every entry of the index still missing one.
// Writers never wait for it and never start goroutines.
type filler struct {
	m     *Memory
	queue chan store.Key
	all   atomic.Bool   // a full sync is due
	kick  chan struct{} // wakes the worker for all
}

func newFiller(m *Memory, size int) *filler {
	if size <= 0 {
		size = defaultFillQueue
	}
	return &filler{m: m, queue: make(chan store.Key, size), kick: make(chan struct{}, 1)}
}

// changed is the engine's OnChange hook: the keys a new snapshot re-read
// are queued (the worker reads their text from the index, not the store);
// a full rebuild asks for a full sync. It never blocks.
func (f *filler) changed(cs store.ChangeSet) {
	if cs.Reset {
		f.syncAll()
		return
	}
	for _, k := range cs.Keys {
		f.put(k)
	}
}

// put queues one key; a full queue turns into a full sync instead of
// blocking the publisher.
func (f *filler) put(k store.Key) {
	select {
	case f.queue <- k:
	default:
		f.syncAll()
	}
}

// syncAll asks for a pass over the whole index.
func (f *filler) syncAll() {
	f.all.Store(true)
	select {
	case f.kick <- struct{}{}:
	default:
	}
}

// run is the worker; it returns when ctx ends.
func (f *filler) run(ctx context.Context) {
	items := make([]store.Key, 0, fillBatch)
	for {
		select {
		case <-ctx.Done():
			return
		case it := <-f.queue:
			items = append(items[:0], it)
		drain:
			for len(items) < fillBatch {
				select {
				case it := <-f.queue:
					items = append(items, it)
				default:
					break drain
				}
			}
			batch := f.texts(ctx, items)
			if len(batch) == 0 {
				break
			}
			if _, err := f.m.vectors.Embed(ctx, batch); err != nil && ctx.Err() == nil {
				f.m.logf("embed (%s): %v", f.m.vectors.Model(), err)
			}
		case <-f.kick:
		}
		if f.all.Swap(false) {
			f.sync(ctx)
		}
	}
}

// texts returns the indexed texts of the entries of keys, read from the
// index; a key no longer in it (deleted) needs no vector.
func (f *filler) texts(ctx context.Context, keys []store.Key) []string {
	snap, err := f.m.eng.Snapshot(ctx)
	if err != nil {
		return nil
	}
	texts := make([]string, 0, len(keys))
	for _, k := range keys {
		if d := snap.Lookup(k.Category, k.Name); d != nil {
			texts = append(texts, index.EntryText(d.Name, d.Content))
		}
	}
	return texts
}

// sync embeds every indexed entry that has no vector and drops the
// vectors of texts no entry has any more.
func (f *filler) sync(ctx context.Context) {
	m := f.m
	snap, err := m.eng.Snapshot(ctx)
	if err != nil {
		if ctx.Err() == nil {
			m.logf("embed: %v", err)
		}
		return
	}
	var texts []string
	snap.Docs(func(d *index.Doc) bool {
		texts = append(texts, index.EntryText(d.Name, d.Content))
		return true
	})
	start := time.Now()
	st, err := m.vectors.Sync(ctx, texts, nil)
	if err != nil {
		if ctx.Err() == nil {
			m.logf("embed (%s): %v; retrieve answers with BM25 for entries without a vector", m.vectors.Model(), err)
		}
		return
	}
	if st.Embedded > 0 || st.Pruned > 0 {
		m.logf("embedded %s with %s in %v (%d already cached, %d stale dropped)",
			plural(st.Embedded, "entry", "entries"), m.vectors.Model(), time.Since(start).Round(time.Millisecond), st.Cached, st.Pruned)
	}
}
