package retrieve

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestValidityAfterCompaction: the entries validity hides stay hidden
// after enough writes compact the index (on the writer's goroutine and in
// the background, which renumbers every document), in a ranked retrieve,
// inside a time range, in a timeline, and in a fresh engine loaded from
// the index copy saved after them; the evidence names the same entries.
func TestValidityAfterCompaction(t *testing.T) {
	ctx := context.Background()
	day0 := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	now := day0.AddDate(0, 0, 30)
	dated := func(v vEntry, day int) vEntry { v.content = fmt.Sprintf("day%d", day); return v }
	for name, st := range openStores(t) {
		t.Run(name, func(t *testing.T) {
			eng := New(st, WithIndexCache(Options{}, st))
			defer eng.Close()
			put := func(v vEntry, day int) {
				t.Helper()
				e := v.entry()
				e.Meta.Date = day0.AddDate(0, 0, day)
				if err := eng.Put(ctx, e); err != nil {
					t.Fatal(err)
				}
			}
			// The entries validity decides, first in the index.
			put(dated(vEntry{key: "p:old"}, 3), 3)
			put(dated(vEntry{key: "p:new", supersedes: []string{"[[p:old]]"}}, 4), 4)
			put(dated(vEntry{key: "p:gone", expires: "2025-03-10"}, 5), 5)
			first, err := eng.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			// Then enough writes of other entries (on both sides of p in
			// identity order) to compact the overlay several times over.
			for i := range 700 {
				put(vEntry{key: fmt.Sprintf("%s:n%03d", []string{"a", "m", "z"}[i%3], i), content: fmt.Sprintf("day%d", i%20)}, i%20)
			}
			waitCompaction(t, eng)
			if cur, _ := eng.Snapshot(ctx); cur.SameBase(first) {
				t.Fatal("700 writes never compacted the index")
			}
			want := []string{"p:new<p:old"}
			wantAll := []string{"p:gone!", "p:new<p:old", "p:old>p:new"}
			check := func(t *testing.T, eng *Engine) {
				t.Helper()
				ask := func(req Request) []string {
					t.Helper()
					req.Now, req.Limit, req.Budget, req.NoLinks = now, 1000, Unlimited, true
					res, err := eng.Retrieve(ctx, req)
					if err != nil {
						t.Fatal(err)
					}
					var out []string
					for _, it := range res.Items {
						if it.Category == "p" {
							out = append(out, evidence(it))
						}
					}
					slices.Sort(out)
					return out
				}
				for _, c := range []struct {
					name string
					req  Request
				}{
					{"ranked", Request{KeepDuplicates: true, Query: "flat"}},
					{"ranked in a range", Request{KeepDuplicates: true, Query: "flat", After: day0, Before: day0.AddDate(0, 0, 10)}},
					{"timeline", Request{KeepDuplicates: true, After: day0, Before: day0.AddDate(0, 0, 10)}},
				} {
					if got := ask(c.req); !slices.Equal(got, want) {
						t.Errorf("%s: %q, want %q", c.name, got, want)
					}
					c.req.IncludeSuperseded, c.req.IncludeExpired = true, true
					if got := ask(c.req); !slices.Equal(got, wantAll) {
						t.Errorf("%s, everything: %q, want %q", c.name, got, wantAll)
					}
				}
			}
			check(t, eng)
			eng.Close() // waits for the saves
			eng2 := New(st, WithIndexCache(Options{}, st))
			defer eng2.Close()
			if _, err := eng2.Load(ctx); err != nil {
				t.Fatal(err)
			}
			check(t, eng2)
		})
	}
}

// waitCompaction waits for a background compaction under way to land.
func waitCompaction(t *testing.T, e *Engine) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_ = e.lock(context.Background())
		busy := e.compacting
		e.unlock()
		if !busy {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("compaction never finished")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
