package retrieve_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
)

// BenchmarkRetrieveSections: a bolt store of notes of eight sections of 80
// terms each (about 700 tokens a note, every one split), queried with and
// without WholeEntries in alternation, query by query, so that the shared
// machine's load hits both: whole-p50-ns against sections-p50-ns. Run:
//
//	go test -run XXX -bench RetrieveSections -benchtime 4000x ./retrieve/
func BenchmarkRetrieveSections(b *testing.B) {
	ctx := context.Background()
	qs := queries()
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			parts := synth.New(42, 20_000).Entries(n*8, 80)
			es := make([]store.Entry, n)
			for i := range es {
				var c strings.Builder
				for j, p := range parts[i*8 : i*8+8] {
					fmt.Fprintf(&c, "## Part %d\n\n%s\n\n", j+1, p.Content)
				}
				es[i] = store.Entry{Category: parts[i*8].Category, Name: parts[i*8].Name, Content: c.String()}
			}
			st := openBenchEntries(b, es)
			defer st.Close()
			eng := retrieve.New(st, retrieve.Options{})
			if _, err := eng.Retrieve(ctx, retrieve.Request{Query: "warm"}); err != nil {
				b.Fatal(err)
			}
			var whole, secs []time.Duration
			i := 0
			for b.Loop() {
				q := qs[i%len(qs)]
				for _, w := range []bool{i%2 == 0, i%2 != 0} { // alternate which goes first
					t0 := time.Now()
					if _, err := eng.Retrieve(ctx, retrieve.Request{Query: q, WholeEntries: w}); err != nil {
						b.Fatal(err)
					}
					if d := time.Since(t0); w {
						whole = append(whole, d)
					} else {
						secs = append(secs, d)
					}
				}
				i++
			}
			p50 := func(ds []time.Duration) float64 {
				slices.Sort(ds)
				return float64(ds[len(ds)/2].Nanoseconds())
			}
			w, s := p50(whole), p50(secs)
			b.ReportMetric(w, "whole-p50-ns")
			b.ReportMetric(s, "sections-p50-ns")
			b.ReportMetric(s/w, "sections/whole")
		})
	}
}

// openBenchEntries is a bolt store (no fsync) holding es.
func openBenchEntries(b *testing.B, es []store.Entry) store.Store {
	b.Helper()
	st, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), &bolt.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range es {
		if err := st.Put(context.Background(), e); err != nil {
			b.Fatal(err)
		}
	}
	return st
}
