package retrieve

import (
	"context"
	"slices"
	"testing"

	"github.com/recallhq/recall/store"
)

// titledDups: a note titled as the query, and a copy of it that the
// ranking puts above it (the query's words, said twice more).
func titledDups() []store.Entry {
	const rent = "rent of the flat in paris is nine hundred euros, third floor, lift broken"
	return []store.Entry{
		{Category: "places", Name: "Paris flat", Content: rent},
		{Category: "notes", Name: "turn-7", Content: rent + "; paris flat, the paris flat"},
		{Category: "notes", Name: "turn-8", Content: "the flat in lyon has a garden"},
	}
}

// checkTitledCollapse: the titled note is first and the copy is folded
// into it; no identity is both an item and collapsed into one.
func checkTitledCollapse(t *testing.T, res *Result) {
	t.Helper()
	got := refs(res.Items)
	if len(res.Items) == 0 || res.Items[0].Name != "Paris flat" || !slices.Equal(res.Items[0].Collapsed, []string{"notes:turn-7"}) {
		t.Fatalf("items %v, want places:Paris flat[notes:turn-7] first", got)
	}
	seen := map[string]bool{}
	for _, it := range res.Items {
		seen[it.Category+":"+it.Name] = true
	}
	for _, it := range res.Items {
		for _, c := range it.Collapsed {
			if seen[c] {
				t.Fatalf("%s is an item and collapsed into %s:%s: %v", c, it.Category, it.Name, got)
			}
		}
	}
}

// TestCollapseTitled: with collapse on, the title rule orders the ranking
// collapse walks, so a copy ranked above a note titled as the query is
// folded into that note (which the rule puts first), on every backend and
// on the fused path; with keep_duplicates the answer is the title rule's
// over every hit, as before.
func TestCollapseTitled(t *testing.T) {
	ctx := context.Background()
	for name, st := range openStores(t) {
		t.Run(name, func(t *testing.T) {
			eng := New(st, Options{})
			defer eng.Close()
			putEntries(t, eng, titledDups())
			// The ranking alone puts the copy first: what the rule overrides.
			keep, err := eng.Retrieve(ctx, Request{Query: "paris flat", Budget: Unlimited, KeepDuplicates: true, NoLinks: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := refs(keep.Items); !slices.Equal(got, []string{"places:Paris flat", "notes:turn-7", "notes:turn-8"}) {
				t.Fatalf("keep_duplicates: %v", got)
			}
			if keep.Items[1].Score <= keep.Items[0].Score {
				t.Fatalf("the copy scores %v, the titled note %v: the test needs the copy ranked above", keep.Items[1].Score, keep.Items[0].Score)
			}
			for _, limit := range []int{1, 2, 10} {
				res, err := eng.Retrieve(ctx, Request{Query: "paris flat", Limit: limit, Budget: Unlimited})
				if err != nil {
					t.Fatal(err)
				}
				checkTitledCollapse(t, res)
				if want := min(limit, 2); len(res.Items) != want {
					t.Fatalf("limit %d: items %v", limit, refs(res.Items))
				}
			}
		})
	}
	t.Run("fused", func(t *testing.T) {
		st := newMemStore(titledDups()...)
		h, c := synced(t, st)
		eng := New(st, Options{Embedder: h, Vectors: c})
		defer eng.Close()
		res, err := eng.Retrieve(ctx, Request{Query: "paris flat", Budget: Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		if !res.EmbeddingUsed {
			t.Fatal("fusion not used")
		}
		checkTitledCollapse(t, res)
	})
}
