package bolt

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/storetest"
)

func TestBatcher(t *testing.T) {
	storetest.RunBatcher(t, func(t *testing.T) store.Store {
		s, err := Open(tempPath(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// churnBatch is churn through PutBatch: batches of 3×crashEntries
// versions, so each batch overwrites every entry up to three times. It
// prints "batch" after each commit.
func churnBatch(s *Store) error {
	r, err := s.Revision(ctx)
	if err != nil {
		return err
	}
	const n = 3 * crashEntries
	for v := r + 1; ; v += n {
		es := make([]store.Entry, 0, n)
		for w := v; w < v+n; w++ {
			es = append(es, store.Entry{Category: "crash", Name: fmt.Sprintf("e%02d", w%crashEntries), Content: crashContent(w)})
		}
		if err := s.PutBatch(ctx, es); err != nil {
			return err
		}
		fmt.Println("batch")
	}
}

// TestCrashBatch is TestCrash with a writer that uses PutBatch: after each
// SIGKILL the file is consistent, every entry is a complete version, and
// the revision equals the newest version (a batch commits with all its
// revision bumps or not at all).
func TestCrashBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("kills helper processes; skipped with -short")
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("needs Unix signals")
	}
	path := tempPath(t)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	budget := time.Now().Add(15 * time.Second)
	var prev uint64
	for round := range 25 {
		if time.Now().After(budget) {
			t.Logf("time budget spent after %d rounds", round)
			break
		}
		c := startChild(t, "churnbatch", path)
		c.waitReady(t)
		// Kill only after a first batch committed, so every round
		// tests something even on a slow machine (-race, load).
		select {
		case line := <-c.lines:
			if line != "batch" {
				t.Fatalf("round %d: helper said %q", round, line)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("round %d: no batch committed in 30 s", round)
		}
		time.Sleep(time.Duration(rng.IntN(200)) * time.Millisecond)
		c.kill()
		r := verifyCrashFile(t, path)
		if r < prev {
			t.Fatalf("round %d: revision went down from %d to %d", round, prev, r)
		}
		prev = r
	}
	t.Logf("%d writes survived the kills", prev)
	if prev == 0 {
		t.Fatal("the helper never completed a batch, so nothing was tested")
	}
}

func batchEntries(n int) []store.Entry {
	es := make([]store.Entry, n)
	body := strings.Repeat("memory notes about the sea, 海边. ", 40)[:1000]
	for i := range es {
		es[i] = store.Entry{Category: fmt.Sprintf("c%d", i%8), Name: fmt.Sprintf("note-%06d", i), Content: body}
	}
	return es
}

// BenchmarkPutBatch writes 10k entries of 1 KB, durably (fsync on), with
// PutBatch, with one Put each (a tenth of them, for time), and, as the
// reference, with bare bbolt in one transaction. The metric is entries/s.
func BenchmarkPutBatch(b *testing.B) {
	es := batchEntries(10_000)
	b.Run("PutBatch", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			s, err := Open(filepath.Join(b.TempDir(), "recall.db"), nil)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if err := s.PutBatch(ctx, es); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			s.Close()
			b.StartTimer()
		}
		b.ReportMetric(float64(len(es)*b.N)/b.Elapsed().Seconds(), "entries/s")
	})
	b.Run("Put", func(b *testing.B) {
		few := es[:1000]
		for b.Loop() {
			b.StopTimer()
			s, err := Open(filepath.Join(b.TempDir(), "recall.db"), nil)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			for _, e := range few {
				if err := s.Put(ctx, e); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			s.Close()
			b.StartTimer()
		}
		b.ReportMetric(float64(len(few)*b.N)/b.Elapsed().Seconds(), "entries/s")
	})
	b.Run("bare-bbolt", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			db, err := bbolt.Open(filepath.Join(b.TempDir(), "recall.db"), 0o600, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			err = db.Update(func(tx *bbolt.Tx) error {
				bk, err := tx.CreateBucketIfNotExists([]byte("e"))
				if err != nil {
					return err
				}
				for _, e := range es {
					if err := bk.Put([]byte(e.Category+"\x00"+e.Name), []byte(e.Content)); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			db.Close()
			b.StartTimer()
		}
		b.ReportMetric(float64(len(es)*b.N)/b.Elapsed().Seconds(), "entries/s")
	})
}

func TestKeyLister(t *testing.T) {
	storetest.RunKeyLister(t, func(t *testing.T) store.Store {
		s, err := Open(tempPath(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
