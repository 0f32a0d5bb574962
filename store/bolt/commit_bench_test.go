package bolt

import (
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

// BenchmarkConcurrentPut: 8 goroutines overwrite 1 KB entries of a file of
// 10k entries, fsync on, as a server's PUTs do; one op is one Put. It
// reports the Puts per second, their p50 and p99 latency and how many
// Puts a transaction held on average (the group commit, commit.go; 1
// without it):
//
//	go test -run '^$' -bench ConcurrentPut -benchtime 2000x ./store/bolt/
func BenchmarkConcurrentPut(b *testing.B) { concurrentWrites(b, false) }

// BenchmarkConcurrentUpdate is BenchmarkConcurrentPut with each write an
// Update (a read-modify-write, as an HTTP PUT, append and edit are):
//
//	go test -run '^$' -bench ConcurrentUpdate -benchtime 2000x ./store/bolt/
func BenchmarkConcurrentUpdate(b *testing.B) { concurrentWrites(b, true) }

func concurrentWrites(b *testing.B, update bool) {
	// A history long enough to keep a record of every transaction.
	s, err := Open(filepath.Join(b.TempDir(), "m.db"), &Options{History: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	es := batchEntries(10_000)
	if err := s.PutBatch(ctx, es); err != nil {
		b.Fatal(err)
	}
	before := txCount(b, s)
	const writers = 8
	var (
		next atomic.Int64
		mu   sync.Mutex
		lat  []time.Duration
		wg   sync.WaitGroup
		fail atomic.Pointer[error]
	)
	n := int64(b.N)
	b.ResetTimer()
	start := time.Now()
	for range writers {
		wg.Go(func() {
			var mine []time.Duration
			for i := next.Add(1) - 1; i < n && fail.Load() == nil; i = next.Add(1) - 1 {
				e := es[(i*7919)%int64(len(es))]
				e.Content = fmt.Sprint(e.Content[:900], i)
				e.Meta = store.Meta{}
				t0 := time.Now()
				var err error
				if update {
					err = s.Update(ctx, e.Category, e.Name, func(old store.Entry, found bool) (store.Entry, error) {
						old.Content, old.Meta.Updated = e.Content, time.Time{}
						return old, nil
					})
				} else {
					err = s.Put(ctx, e)
				}
				if err != nil {
					fail.Store(&err)
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	took := time.Since(start)
	b.StopTimer()
	if p := fail.Load(); p != nil {
		b.Fatal(*p)
	}
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(float64(b.N)/took.Seconds(), "puts/s")
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[min(len(lat)-1, len(lat)*99/100)]), "p99-ms")
	b.ReportMetric(float64(b.N)/float64(txCount(b, s)-before), "puts/tx")
}

// txCount is the number of write transactions that recorded a change in
// the file's history: one per group commit.
func txCount(b *testing.B, s *Store) int {
	b.Helper()
	n := 0
	err := s.db.View(func(tx *bbolt.Tx) error {
		n = tx.Bucket(bucketChanges).Stats().KeyN
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}
