package backup

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
)

// BenchmarkExportJSONL exports stores of several sizes to io.Discard and
// reports, besides time, the peak of live heap during the export above
// the heap before it (peak-heap-B), sampled every millisecond: the
// streaming claim is that it stays flat as the store grows (bolt and a
// folder store, both store.Sorters). fs-listed is a folder store with
// only Keys showing, exported the way a store that is no Sorter is (and a
// folder store was before it had AllSorted): identities listed, sorted,
// then read one by one, so its heap grows by the identities.
//
//	go test ./backup -run '^$' -bench ExportJSONL -benchtime 3x
func BenchmarkExportJSONL(b *testing.B) {
	for _, bc := range []struct {
		backend string
		n       int
	}{{"bolt", 10_000}, {"bolt", 100_000}, {"bolt", 1_000_000}, {"fs", 10_000}, {"fs", 100_000}, {"fs-listed", 10_000}, {"fs-listed", 100_000}} {
		b.Run(fmt.Sprintf("%s/%d", bc.backend, bc.n), func(b *testing.B) {
			var st store.Store = benchStore(b, strings.TrimSuffix(bc.backend, "-listed"), bc.n)
			if strings.HasSuffix(bc.backend, "-listed") {
				// The export of a store without an ordered walk (a folder
				// store before it had AllSorted): identities listed,
				// sorted, then each entry read.
				st = listed{st, st.(store.KeyLister)}
			}
			var peak int64
			b.ResetTimer()
			for range b.N {
				p := measurePeak(func() {
					rep, err := WriteJSONL(ctx, st, io.Discard, Options{})
					if err != nil || rep.Entries != bc.n {
						b.Fatal(err, rep.Entries)
					}
				})
				peak = max(peak, p)
			}
			b.ReportMetric(float64(peak), "peak-heap-B")
			b.ReportMetric(float64(peak)/float64(bc.n), "peak-heap-B/entry")
		})
	}
}

// listed hides every capability of a store but Keys.
type listed struct {
	store.Store
	store.KeyLister
}

// benchStore fills a store with n entries of about 300 bytes with tags
// and times, once per benchmark.
func benchStore(b *testing.B, backend string, n int) store.Store {
	b.Helper()
	dir := b.TempDir()
	var st interface {
		store.Store
		store.Batcher
	}
	var err error
	if backend == "bolt" {
		st, err = boltstore.Open(filepath.Join(dir, "m.db"), nil)
	} else {
		st, err = fsstore.Open(dir, nil)
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	content := strings.Repeat("a memory worth keeping ", 13)
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	batch := make([]store.Entry, 0, 5000)
	for i := range n {
		batch = append(batch, store.Entry{Category: fmt.Sprintf("c%03d", i%300), Name: fmt.Sprintf("entry %07d", i), Content: content,
			Meta: store.Meta{Tags: []string{"t"}, Created: at, Updated: at}})
		if len(batch) == cap(batch) || i == n-1 {
			if err := st.PutBatch(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	return st
}

// measurePeak runs fn and returns the peak live heap above the heap
// before it, sampled every millisecond (a lower bound of the true peak).
func measurePeak(fn func()) int64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() int64 {
		metrics.Read(sample)
		return int64(sample[0].Value.Uint64())
	}
	base := read()
	var peak atomic.Int64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if v := read() - base; v > peak.Load() {
					peak.Store(v)
				}
			}
		}
	}()
	fn()
	close(done)
	<-stopped
	return peak.Load()
}
