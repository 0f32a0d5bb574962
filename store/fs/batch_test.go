package fs

import (
	"bufio"
	"fmt"
	"os"
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
// durably, with PutBatch and with one Put each. The metric is entries/s.
func BenchmarkPutBatch(b *testing.B) {
	body := strings.Repeat("memory notes about the sea, 海边. ", 40)[:1000]
	es := make([]store.Entry, 2000)
	for i := range es {
		es[i] = store.Entry{Category: fmt.Sprintf("c%d", i%8), Name: fmt.Sprintf("note-%06d", i), Content: body}
	}
	for _, batch := range []bool{true, false} {
		name := "PutBatch"
		if !batch {
			name = "Put"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				s, err := Open(b.TempDir(), nil)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if batch {
					err = s.PutBatch(ctx, es)
				} else {
					for _, e := range es {
						if err = s.Put(ctx, e); err != nil {
							break
						}
					}
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(es)*b.N)/b.Elapsed().Seconds(), "entries/s")
		})
	}
}
