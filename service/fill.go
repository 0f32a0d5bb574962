package service

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/recallhq/recall/index"
)

// defaultFillQueue is the default bound of the vector fill's queue.
const defaultFillQueue = 256

// fillBatch is how many queued texts one embedding call takes.
const fillBatch = 32

// filler embeds, on one goroutine per Memory, the entries that need a
// vector: those the Memory wrote (queued, at most a bounded number) and,
// when asked (at start, after outside changes, when the queue overflowed),
// every entry of the index still missing one. Writers never wait for it
// and never start goroutines.
type filler struct {
	m     *Memory
	queue chan string
	all   atomic.Bool   // a full sync is due
	kick  chan struct{} // wakes the worker for all
}

func newFiller(m *Memory, size int) *filler {
	if size <= 0 {
		size = defaultFillQueue
	}
	return &filler{m: m, queue: make(chan string, size), kick: make(chan struct{}, 1)}
}

// add queues one written entry's indexed text; a full queue turns into a
// full sync instead of blocking the writer.
func (f *filler) add(text string) {
	select {
	case f.queue <- text:
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
	batch := make([]string, 0, fillBatch)
	for {
		select {
		case <-ctx.Done():
			return
		case t := <-f.queue:
			batch = append(batch[:0], t)
		drain:
			for len(batch) < fillBatch {
				select {
				case t := <-f.queue:
					batch = append(batch, t)
				default:
					break drain
				}
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
		texts = append(texts, IndexedText(d.Name, d.Content))
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
