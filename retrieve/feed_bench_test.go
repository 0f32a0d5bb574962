//go:build unix

package retrieve_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/cputime"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store/fs"
)

// BenchmarkOutsideEdit measures what an edit made by another process to a
// watched folder costs the process serving it, as `recall serve` runs:
// the delay until a retrieve finds it (visible-ms, median and max) and the
// CPU time the serving process spent meanwhile (cpu-ms per edit: the
// watch, the index update, and the polling retrieves themselves, which
// cost the same before and after). Each iteration saves one file the way
// an editor does (write aside, rename) and polls every 5 ms. Run:
//
//	go test -run XXX -bench OutsideEdit -benchtime 20x ./retrieve/
func BenchmarkOutsideEdit(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			for _, e := range corpus(n) {
				p := filepath.Join(dir, e.Category, e.Name+".md")
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(e.Content), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			st, err := fs.Open(dir, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			if err := st.Watch(ctx, nil); err != nil {
				b.Fatal(err)
			}
			eng := retrieve.New(st, retrieve.Options{})
			if _, err := eng.Retrieve(ctx, retrieve.Request{Query: "warm"}); err != nil {
				b.Fatal(err)
			}
			var (
				delays []time.Duration
				cpu    time.Duration
			)
			i := 0
			for b.Loop() {
				term := fmt.Sprintf("outsideedit%dmarker", i)
				name := fmt.Sprintf("edited-%d", i)
				i++
				c0 := cputime.Process()
				t0 := time.Now()
				writeEntryFile(b, dir, "edits", name, term+" saved by an editor in another process")
				for {
					res, err := eng.Retrieve(ctx, retrieve.Request{Query: term, NoLinks: true})
					if err != nil {
						b.Fatal(err)
					}
					if len(res.Items) > 0 {
						break
					}
					if time.Since(t0) > time.Minute {
						b.Fatal("edit not visible after a minute")
					}
					time.Sleep(5 * time.Millisecond)
				}
				delays = append(delays, time.Since(t0))
				cpu += cputime.Process() - c0
			}
			slices.Sort(delays)
			b.ReportMetric(float64(delays[len(delays)/2].Microseconds())/1e3, "visible-ms")
			b.ReportMetric(float64(delays[len(delays)-1].Microseconds())/1e3, "max-visible-ms")
			b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(len(delays)), "cpu-ms/edit")
		})
	}
}
