package tenants_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/tenants"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/location"
)

// What one more memory costs in the server's heap and in open time
// (docs/performance.md, "Many memories, one server"):
//
//	go test -run '^$' -bench BenchmarkMemoryCost -benchtime 1x ./service/tenants
//
// 50 memories of 1,000 synthetic entries each (internal/synth, seed 1),
// bolt files or folders, opened one after another by a first retrieve,
// with the index copy kept in the store as `recall serve` does
// (retrieve.WithIndexCache): "cold" stores hold none yet (the first open
// builds the index and saves it), "restart" the same stores again. It
// reports the live heap each open memory adds (heap-KB/memory, after a
// GC) and the first retrieve's time (open + index + retrieve: first-p50-ms);
// "idle-closed" is the heap once --idle-close (here 100 ms) has closed
// them all. bolt-1entry is the cost of a memory itself, without content.
func BenchmarkMemoryCost(b *testing.B) {
	const n = 50
	for _, sub := range []string{"bolt", "folder", "bolt-1entry"} {
		b.Run(sub, func(b *testing.B) {
			backend, entries := sub, 1000
			if sub == "bolt-1entry" {
				backend, entries = "bolt", 1
			}
			tmpl := filepath.Join(b.TempDir(), "template")
			if backend == "bolt" {
				tmpl += ".db"
			}
			st, _, err := location.Open(context.Background(), tmpl, &location.Options{Create: true})
			if err != nil {
				b.Fatal(err)
			}
			for _, e := range synth.New(1, 20000).Entries(entries, 80) {
				if err := st.Put(context.Background(), e); err != nil {
					b.Fatal(err)
				}
			}
			st.Close()
			for range b.N {
				dir := b.TempDir()
				var mems []tenants.Memory
				for i := range n {
					name := fmt.Sprintf("m%03d", i)
					loc := filepath.Join(dir, name)
					if backend == "bolt" {
						loc += ".db"
					}
					if err := os.CopyFS(loc, os.DirFS(tmpl)); backend == "folder" && err != nil {
						b.Fatal(err)
					}
					if backend == "bolt" {
						data, _ := os.ReadFile(tmpl)
						os.WriteFile(loc, data, 0o600)
					}
					mems = append(mems, tenants.Memory{Name: name, Store: loc, Tokens: []string{"tok-" + name}})
				}
				for _, phase := range []string{"cold", "restart", "idle-closed"} {
					heap, first := memoryCost(b, mems, phase == "idle-closed")
					b.ReportMetric(heap/1024, phase+"-heap-KB/memory")
					if phase != "idle-closed" {
						b.ReportMetric(first, phase+"-first-p50-ms")
					}
				}
			}
		})
	}
}

func memoryCost(b *testing.B, mems []tenants.Memory, idleClose bool) (heapPerMemory, firstP50 float64) {
	var idle time.Duration
	if idleClose {
		idle = 100 * time.Millisecond
	}
	s, err := tenants.New(tenants.Options{Memories: mems, IdleClose: idle, Open: func(_ string, st store.Store) (*service.Memory, error) {
		return service.New(st, service.Options{Engine: retrieve.WithIndexCache(retrieve.Options{}, st)}), nil
	}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	var first []float64
	for _, m := range mems {
		t0 := time.Now()
		if rec := do(s, "POST", "/v1/m/"+m.Name+"/retrieve", `{"query":"kalo mi 的"}`, m.Tokens[0]); rec.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", m.Name, rec.Code, rec.Body)
		}
		first = append(first, float64(time.Since(t0).Microseconds())/1000)
	}
	// Let the background warm-ups (index copy saves) finish before the
	// heap is read.
	time.Sleep(time.Second)
	runtime.GC()
	runtime.ReadMemStats(&ms)
	slices.Sort(first)
	return float64(int64(ms.HeapAlloc)-int64(before)) / float64(len(mems)), first[len(first)/2]
}

// A token that does not grant a memory and a memory that does not exist
// take the same path; this times both, alternating, to show the
// difference is noise:
//
//	go test -run '^$' -bench BenchmarkNotGranted -benchtime 20000x ./service/tenants
func BenchmarkNotGranted(b *testing.B) {
	dir := b.TempDir()
	var mems []tenants.Memory
	for _, name := range []string{"alice", "bob"} {
		st, _, err := location.Open(context.Background(), filepath.Join(dir, name+".db"), &location.Options{Create: true})
		if err != nil {
			b.Fatal(err)
		}
		st.Close()
		mems = append(mems, tenants.Memory{Name: name, Store: filepath.Join(dir, name+".db"), Tokens: []string{"tok-" + name}})
	}
	s, err := tenants.New(tenants.Options{Memories: mems})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	do(s, "GET", "/v1/m/bob/categories", "", "tok-bob") // bob is open
	var forbidden, unknown []float64
	for i := range b.N {
		paths := []string{"/v1/m/bob/categories", "/v1/m/carol/categories"}
		if i%2 == 1 {
			paths[0], paths[1] = paths[1], paths[0]
		}
		for _, p := range paths {
			t0 := time.Now()
			rec := do(s, "GET", p, "", "tok-alice")
			d := float64(time.Since(t0).Nanoseconds())
			if rec.Code != http.StatusNotFound {
				b.Fatal(rec.Code)
			}
			if p == "/v1/m/bob/categories" {
				forbidden = append(forbidden, d)
			} else {
				unknown = append(unknown, d)
			}
		}
	}
	slices.Sort(forbidden)
	slices.Sort(unknown)
	b.ReportMetric(forbidden[len(forbidden)/2], "forbidden-p50-ns")
	b.ReportMetric(unknown[len(unknown)/2], "unknown-p50-ns")
	b.ReportMetric(unknown[len(unknown)/2]/forbidden[len(forbidden)/2], "unknown/forbidden")
}
