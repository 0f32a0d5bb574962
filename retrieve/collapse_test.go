package retrieve

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/store"
)

const dupLong = "the lease of the flat ends in june; the deposit comes back after the inspection of the kitchen, " +
	"the bathroom and the balcony, and the keys go to the agency on the last day"

func dupEntries() []store.Entry {
	return []store.Entry{
		{Category: "a", Name: "lease", Content: dupLong},
		{Category: "b", Name: "lease copy", Content: strings.ToUpper(dupLong)},                // exact
		{Category: "b", Name: "lease near", Content: dupLong + " afterwards"},                 // near
		{Category: "c", Name: "lease at ten", Content: dupLong + " at 10:00"},                 // a value: not one
		{Category: "c", Name: "lease by carol", Content: dupLong + " with Carol"},             // a name: not one
		{Category: "d", Name: "bail", Content: "le bail de l'appartement se termine en juin"}, // another language
	}
}

func putEntries(t *testing.T, eng *Engine, es []store.Entry) {
	t.Helper()
	for _, e := range es {
		if err := eng.Put(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
}

func refs(items []Item) []string {
	var out []string
	for _, it := range items {
		s := it.Category + ":" + it.Name
		if len(it.Collapsed) > 0 {
			s += fmt.Sprint(it.Collapsed)
		}
		out = append(out, s)
	}
	return out
}

// TestCollapse: on every backend, a hit that duplicates a higher-ranked
// one is folded into it (named in collapsed, no item, no budget), frees
// its slot for the next hit, and keep_duplicates gives exactly the answer
// of an engine that detects no duplicates at all.
func TestCollapse(t *testing.T) {
	ctx := context.Background()
	for name, st := range openStores(t) {
		t.Run(name, func(t *testing.T) {
			eng := New(st, Options{})
			defer eng.Close()
			if _, err := eng.Rebuild(ctx); err != nil {
				t.Fatal(err)
			}
			putEntries(t, eng, dupEntries())
			res, err := eng.Retrieve(ctx, Request{Query: "lease flat june", Budget: Unlimited})
			if err != nil {
				t.Fatal(err)
			}
			kept := res.Items[0]
			if kept.Category+":"+kept.Name != "a:lease" || !slices.Equal(kept.Collapsed, []string{"b:lease copy", "b:lease near"}) &&
				!slices.Equal(kept.Collapsed, []string{"b:lease near", "b:lease copy"}) {
				t.Fatalf("first item %s:%s collapsed %v", kept.Category, kept.Name, kept.Collapsed)
			}
			got := refs(res.Items)
			for _, r := range got {
				if strings.HasPrefix(r, "b:") {
					t.Fatalf("a duplicate is an item: %v", got)
				}
			}
			if len(got) != 3 { // a:lease, c:lease at ten, c:lease by carol (the French one shares no term)
				t.Fatalf("items %v", got)
			}
			sum := 0
			for _, it := range res.Items {
				sum += it.TokensEst
			}
			if res.BudgetUsed != sum {
				t.Fatalf("budget used %d, items cost %d", res.BudgetUsed, sum)
			}

			// keep_duplicates: byte for byte the answer of no detection.
			off := New(st, Options{NoDuplicates: true})
			defer off.Close()
			for _, req := range []Request{
				{Query: "lease flat june"}, {Query: "lease", Limit: 2}, {Query: "kitchen balcony", Budget: 60, Explain: true},
			} {
				want, err := off.Retrieve(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				req.KeepDuplicates = true
				keep, err := eng.Retrieve(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				a, _ := json.Marshal(want)
				b, _ := json.Marshal(keep)
				if string(a) != string(b) {
					t.Fatalf("%+v: keep_duplicates\n%s\nwant\n%s", req, b, a)
				}
			}

			// A collapsed hit frees its slot: limit 2 is the kept hit and
			// the next distinct one, and the budget counts only those.
			two, err := eng.Retrieve(ctx, Request{Query: "lease flat june", Limit: 2, Budget: Unlimited})
			if err != nil {
				t.Fatal(err)
			}
			if len(two.Items) != 2 || two.Items[0].Name != "lease" || strings.HasPrefix(refs(two.Items)[1], "b:") {
				t.Fatalf("limit 2: %v", refs(two.Items))
			}
			// The budget: what the copies would have cost is left for others.
			tight, _ := eng.Retrieve(ctx, Request{Query: "lease flat june", Budget: 2*kept.TokensEst + 5, NoLinks: true})
			tightKeep, _ := eng.Retrieve(ctx, Request{Query: "lease flat june", Budget: 2*kept.TokensEst + 5, NoLinks: true, KeepDuplicates: true})
			if len(tight.Items) != 2 || len(tightKeep.Items) != 2 || tight.Items[1].Category != "c" || tightKeep.Items[1].Category != "b" {
				t.Fatalf("budget for two: collapsed %v, kept %v", refs(tight.Items), refs(tightKeep.Items))
			}

			// Deleting the kept entry: a copy is the hit now, naming the rest.
			if err := eng.Delete(ctx, "a", "lease"); err != nil {
				t.Fatal(err)
			}
			res, _ = eng.Retrieve(ctx, Request{Query: "lease flat june", Budget: Unlimited})
			if first := res.Items[0]; first.Category != "b" || len(first.Collapsed) != 1 {
				t.Fatalf("after the delete: %v", refs(res.Items))
			}
			// A fresh engine (the persisted copy on bolt) answers the same.
			fresh := New(st, Options{})
			defer fresh.Close()
			again, _ := fresh.Retrieve(ctx, Request{Query: "lease flat june", Budget: Unlimited})
			if !slices.Equal(refs(again.Items), refs(res.Items)) {
				t.Fatalf("fresh engine %v, want %v", refs(again.Items), refs(res.Items))
			}
		})
	}
}

// TestCollapseNoLinkToCollapsed: a collapsed hit is not injected as a
// link of the hit it folded into either.
func TestCollapseNoLinkToCollapsed(t *testing.T) {
	ctx := context.Background()
	eng := New(newMemStore(), Options{})
	defer eng.Close()
	putEntries(t, eng, []store.Entry{
		{Category: "a", Name: "one", Content: "garden shed key under the pot [[b:two]]"},
		{Category: "b", Name: "two", Content: "Garden shed key under the pot [[b:two]]"},
	})
	res, err := eng.Retrieve(ctx, Request{Query: "garden shed key"})
	if err != nil {
		t.Fatal(err)
	}
	if got := refs(res.Items); !slices.Equal(got, []string{"a:one[b:two]"}) {
		t.Fatalf("items %v", got)
	}
}

// TestCollapseModel: any sequence of puts (copies, near copies, values
// changed), deletes and compactions gives the collapse a brute-force
// model gives: walk the ranking of keep_duplicates, fold each hit into
// the first kept one whose content index.ContentDuplicates says it
// duplicates, until limit hits are kept.
func TestCollapseModel(t *testing.T) {
	ctx := context.Background()
	contents := []string{dupLong, strings.ToUpper(dupLong), dupLong + " afterwards", dupLong + " at 10:00",
		dupLong + " at 11:00", "the flat in june", "The flat in June", "flat flat flat"}
	for name, st := range openStores(t) {
		t.Run(name, func(t *testing.T) {
			eng := New(st, Options{})
			defer eng.Close()
			r := rand.New(rand.NewPCG(23, 4))
			model := map[string]string{}
			for step := range 150 {
				k := fmt.Sprintf("c%d:n%d", r.IntN(2), r.IntN(12))
				cat, nm, _ := strings.Cut(k, ":")
				if r.IntN(4) == 0 {
					_ = eng.Delete(ctx, cat, nm)
					delete(model, k)
				} else {
					c := contents[r.IntN(len(contents))]
					if err := eng.Put(ctx, store.Entry{Category: cat, Name: nm, Content: c}); err != nil {
						t.Fatal(err)
					}
					model[k] = c
				}
				for _, limit := range []int{3, 50} {
					all, err := eng.Retrieve(ctx, Request{Query: "flat june", Limit: 50, Budget: Unlimited, NoLinks: true, KeepDuplicates: true})
					if err != nil {
						t.Fatal(err)
					}
					want := modelCollapse(all.Items, model, limit)
					got, err := eng.Retrieve(ctx, Request{Query: "flat june", Limit: limit, Budget: Unlimited, NoLinks: true})
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(refs(got.Items), want) {
						t.Fatalf("step %d limit %d: %v, model %v", step, limit, refs(got.Items), want)
					}
				}
			}
		})
	}
}

func modelCollapse(ranked []Item, model map[string]string, limit int) []string {
	type kept struct {
		key  string
		coll []string
	}
	var ks []kept
	for _, it := range ranked {
		if len(ks) == limit {
			break // what ranks below the last kept hit is no answer's
		}
		k := it.Category + ":" + it.Name
		folded := false
		for i := range ks {
			if index.ContentDuplicates(index.Default(), model[ks[i].key], model[k]) {
				ks[i].coll = append(ks[i].coll, k)
				folded = true
				break
			}
		}
		if folded {
			continue
		}
		ks = append(ks, kept{key: k})
	}
	var out []string
	for _, k := range ks {
		s := k.key
		if len(k.coll) > 0 {
			s += fmt.Sprint(k.coll)
		}
		out = append(out, s)
	}
	return out
}
