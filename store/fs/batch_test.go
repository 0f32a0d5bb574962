package fs

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/storetest"
)

func TestBatcher(t *testing.T) {
	storetest.RunBatcher(t, func(t *testing.T) store.Store { return openTemp(t) })
}

// TestCrashKillBatch is TestCrashKill with a writer that writes every
// entry in each PutBatch: after each kill, every entry is a complete
// version, never older than one the child reported written.
func TestCrashKillBatch(t *testing.T) { crashKill(t, "TestKillBatchChild") }

// TestKillBatchChild is the writer half of TestCrashKillBatch; it runs only
// in the child process.
func TestKillBatchChild(t *testing.T) {
	root := os.Getenv(crashRootEnv)
	if root == "" {
		t.Skip("runs only as the child process of TestCrashKillBatch")
	}
	start, err := strconv.ParseUint(os.Getenv(crashStartEnv), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	ppid := os.Getppid()
	created := time.Now().UTC()
	deadline := time.Now().Add(30 * time.Second)
	out := bufio.NewWriter(os.Stdout)
	for v := start; os.Getppid() == ppid && time.Now().Before(deadline); v += crashEntries {
		var es []store.Entry
		for w := v; w < v+crashEntries; w++ {
			i := int(w % crashEntries)
			k := crashKey(i)
			es = append(es, store.Entry{Category: k.Category, Name: k.Name, Content: crashContent(i, w), Meta: store.Meta{Created: created}})
		}
		if err := s.PutBatch(ctx, es); err != nil {
			t.Fatal(err)
		}
		// Reported only once PutBatch has returned: the batch is durable.
		for w := v; w < v+crashEntries; w++ {
			fmt.Fprintf(out, "ok %d %d\n", int(w%crashEntries), w)
		}
		out.Flush()
	}
}

// BenchmarkPutBatch writes 2,000 entries of 1 KB into a fresh folder,
// durably, three ways in turn (the order rotates each round, every folder
// stays until the end, so that no way pays for the inodes another freed):
// PutBatch as Open sets it up (one syncfs per chunk where canSyncFS allows
// it), PutBatch fsyncing each file, and one Put each (500 entries). The
// metrics are the median entries/s of each way.
func BenchmarkPutBatch(b *testing.B) {
	body := strings.Repeat("memory notes about the sea, 海边. ", 40)[:1000]
	es := make([]store.Entry, 2000)
	for i := range es {
		es[i] = store.Entry{Category: fmt.Sprintf("c%d", i%8), Name: fmt.Sprintf("note-%06d", i), Content: body}
	}
	modes := []string{"batch", "batch-fsync-each", "put"}
	rates := map[string][]float64{}
	parent := b.TempDir()
	round := 0
	for b.Loop() {
		for j := range modes {
			mode := modes[(round+j)%len(modes)]
			b.StopTimer()
			s, err := Open(filepath.Join(parent, fmt.Sprintf("%s-%d", mode, round)), nil)
			if err != nil {
				b.Fatal(err)
			}
			if mode == "batch-fsync-each" {
				s.syncFS = false
			}
			b.StartTimer()
			start := time.Now()
			n := len(es)
			if mode == "put" {
				n = 500
				for _, e := range es[:n] {
					if err = s.Put(ctx, e); err != nil {
						break
					}
				}
			} else {
				err = s.PutBatch(ctx, es)
			}
			if err != nil {
				b.Fatal(err)
			}
			rates[mode] = append(rates[mode], float64(n)/time.Since(start).Seconds())
		}
		round++
	}
	for _, mode := range modes {
		b.ReportMetric(median(rates[mode]), "entries/s-"+mode)
	}
}

func median(xs []float64) float64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}
