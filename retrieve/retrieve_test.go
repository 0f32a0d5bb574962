package retrieve

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

var ctx = context.Background()

func ent(c, n, content string) store.Entry {
	return store.Entry{Category: c, Name: n, Content: content}
}

func keys(items []Item) []string {
	out := []string{}
	for _, it := range items {
		s := string(it.Source) + " " + it.Category + ":" + it.Name
		if it.Via != nil {
			s += " via " + it.Via.Category + ":" + it.Via.Name
		}
		out = append(out, s)
	}
	return out
}

func TestLinkExpansionRules(t *testing.T) {
	st := newMemStore(
		// Both hits for "sea"; h1 links to h2 (a hit: not injected again),
		// to l1 twice (injected once), to a missing entry twice (recorded
		// once), and to l2 through a same-category short link with a label.
		ent("trips", "h1", "sea sea sea [[trips:h2]] [[people:l1]] [[daily_life:renamed-item]] [[people:l1|again]] [[l2|the label]] [[daily_life:renamed-item]]"),
		ent("trips", "h2", "sea [[people:l1]] [[people:l3]] [[ghost]]"),
		ent("people", "l1", "a linked person"),
		ent("trips", "l2", "a same-category link"),
		ent("people", "l3", "links are one hop only [[people:l4]]"),
		ent("people", "l4", "never reached"),
	)
	e := New(st, Options{})
	res, err := e.Retrieve(ctx, Request{Query: "sea", Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"hit trips:h1",
		"link people:l1 via trips:h1",
		"link trips:l2 via trips:h1",
		"hit trips:h2",
		"link people:l3 via trips:h2",
	}
	if got := keys(res.Items); !slices.Equal(got, want) {
		t.Fatalf("items =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantUnresolved := []string{"[[daily_life:renamed-item]]", "[[ghost]]"}
	if !slices.Equal(res.UnresolvedLinks, wantUnresolved) {
		t.Fatalf("unresolved = %q, want %q", res.UnresolvedLinks, wantUnresolved)
	}
	for _, it := range res.Items {
		switch it.Source {
		case SourceHit:
			if it.BM25Score == nil || *it.BM25Score <= 0 || it.Score != *it.BM25Score || it.Via != nil {
				t.Errorf("hit %s:%s has bad evidence: %+v", it.Category, it.Name, it)
			}
			if !slices.Equal(it.MatchedTerms, []string{"sea"}) {
				t.Errorf("hit %s matched_terms = %v", it.Name, it.MatchedTerms)
			}
		case SourceLink:
			if it.BM25Score != nil || it.CosScore != nil || it.MatchedTerms != nil || it.Score != 0 {
				t.Errorf("link %s:%s carries hit evidence: %+v", it.Category, it.Name, it)
			}
		}
		if it.CosScore != nil {
			t.Errorf("cos_score set without an embedder")
		}
	}
	if res.EmbeddingUsed {
		t.Error("embedding_used without an embedder")
	}

	// With links off: hits only, and no unresolved links collected.
	res, err = e.Retrieve(ctx, Request{Query: "sea", NoLinks: true, Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(res.Items); !slices.Equal(got, []string{"hit trips:h1", "hit trips:h2"}) {
		t.Fatalf("no-links items = %v", got)
	}
	if len(res.UnresolvedLinks) != 0 {
		t.Fatalf("no-links collected unresolved links %v", res.UnresolvedLinks)
	}
}

// A link to an entry that is a hit further down the list is not injected
// early: the entry appears once, at its hit position.
func TestLinkToLaterHit(t *testing.T) {
	st := newMemStore(
		ent("a", "first", "apple apple apple [[a:second]] [[a:other]]"),
		ent("a", "second", "apple"),
		ent("a", "other", "unrelated"),
	)
	res, err := New(st, Options{}).Retrieve(ctx, Request{Query: "apple", Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"hit a:first", "link a:other via a:first", "hit a:second"}
	if got := keys(res.Items); !slices.Equal(got, want) {
		t.Fatalf("items = %v, want %v", got, want)
	}
}

func TestBudget(t *testing.T) {
	// tokens_est = est_tokens(name + "\n" + content): name is one word.
	st := newMemStore(
		ent("c", "a", "key "+strings.Repeat("w ", 8)), // 1 + 9 = 10
		ent("c", "b", "key "+strings.Repeat("w ", 3)), // 1 + 4 = 5 (ranks below a: longer docs... see scores)
		ent("c", "c", "key key key [[c:d]]"),          // 1 + 3 + 2 = 6
		ent("c", "d", "海边玩"),                          // 1 + 3 = 4
	)
	e := New(st, Options{})
	full, err := e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "key", Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	total := 0
	for _, it := range full.Items {
		order = append(order, it.Name)
		total += it.TokensEst
	}
	if full.BudgetUsed != total {
		t.Fatalf("budget_used %d != sum of tokens_est %d", full.BudgetUsed, total)
	}
	est := map[string]int{}
	for _, it := range full.Items {
		est[it.Name] = it.TokensEst
	}
	if est["a"] != 10 || est["b"] != 5 || est["c"] != 6 || est["d"] != 4 {
		t.Fatalf("tokens_est = %v", est)
	}
	// Budgets at every boundary: the kept items are the longest prefix that
	// fits, the first item is always kept, dropped is the rest (explain only).
	for budget := 1; budget <= total+1; budget++ {
		res, err := e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "key", Budget: budget, Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		wantKept := 0
		sum := 0
		for i, it := range full.Items {
			if i > 0 && sum+it.TokensEst > budget {
				break
			}
			sum += it.TokensEst
			wantKept++
		}
		if len(res.Items) != wantKept || res.BudgetUsed != sum {
			t.Fatalf("budget %d: kept %d (used %d), want %d (used %d); order %v", budget, len(res.Items), res.BudgetUsed, wantKept, sum, order)
		}
		if len(res.Items)+len(res.Dropped) != len(full.Items) {
			t.Fatalf("budget %d: kept+dropped = %d, want %d", budget, len(res.Items)+len(res.Dropped), len(full.Items))
		}
		if budget < full.Items[0].TokensEst && len(res.Items) != 1 {
			t.Fatalf("budget %d below the first item: first item not kept alone", budget)
		}
		noExplain, _ := e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "key", Budget: budget})
		if noExplain.Dropped != nil {
			t.Fatalf("dropped reported without explain")
		}
	}
	// Default budget is 800: everything fits here.
	def, _ := e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "key"})
	if len(def.Items) != len(full.Items) {
		t.Fatalf("default budget cut items")
	}
}

func TestEmptyQueries(t *testing.T) {
	st := newMemStore(ent("c", "n", "content with words"))
	e := New(st, Options{})
	for _, q := range []string{"", "!!! ... ---", "？！。", "missingword"} {
		res, err := e.Retrieve(ctx, Request{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Items) != 0 || res.BudgetUsed != 0 || res.UnresolvedLinks == nil {
			t.Fatalf("query %q: %+v", q, res)
		}
	}
}

func TestLimit(t *testing.T) {
	st := newMemStore()
	for i := range 30 {
		_ = st.Put(ctx, ent("c", fmt.Sprintf("n%02d", i), strings.Repeat("x ", i+1)))
	}
	e := New(st, Options{})
	for _, tc := range []struct{ limit, want int }{{0, DefaultLimit}, {3, 3}, {100, 30}} {
		res, err := e.Retrieve(ctx, Request{KeepDuplicates: true, Query: "x", Limit: tc.limit, Budget: Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Items) != tc.want {
			t.Errorf("limit %d: %d items, want %d", tc.limit, len(res.Items), tc.want)
		}
	}
}

// Writes through the engine and behind its back are both seen by the next
// retrieve.
func TestFreshness(t *testing.T) {
	st := newMemStore(ent("prefs", "drink", "coffee"))
	e := New(st, Options{})
	top := func(q string) string {
		t.Helper()
		res, err := e.Retrieve(ctx, Request{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Items) == 0 {
			return ""
		}
		return res.Items[0].Name + "=" + res.Items[0].Content
	}
	if got := top("coffee"); got != "drink=coffee" {
		t.Fatalf("initial: %q", got)
	}
	snap1, _ := e.Snapshot(ctx)
	scans := st.scans
	// Update by add, through the engine: incremental, no rebuild.
	if err := e.Put(ctx, ent("prefs", "drink", "green tea")); err != nil {
		t.Fatal(err)
	}
	if got := top("tea"); got != "drink=green tea" {
		t.Fatalf("after engine update: %q", got)
	}
	if got := top("coffee"); got != "" {
		t.Fatalf("old content still found: %q", got)
	}
	snap2, _ := e.Snapshot(ctx)
	if st.scans != scans {
		t.Fatalf("an update through the engine rescanned the store (%d scans)", st.scans-scans)
	}
	if snap2 == snap1 || snap2.Revision() != snap1.Revision()+1 {
		t.Fatalf("engine write did not publish the next snapshot (got revision %d)", snap2.Revision())
	}
	// Behind the engine's back: the revision moves. This store has no
	// change feed, so the next retrieve must not answer from the stale
	// snapshot (SPEC §4): it waits for the rebuild (the store's scan is
	// held shut here until the retrieve is seen waiting).
	gate := make(chan struct{})
	st.mu.Lock()
	st.gate = gate
	st.mu.Unlock()
	if err := st.Put(ctx, ent("prefs", "snack", "green olives")); err != nil {
		t.Fatal(err)
	}
	done := make(chan *Result, 1)
	go func() {
		res, _ := e.Retrieve(ctx, Request{Query: "green"})
		done <- res
	}()
	select {
	case res := <-done:
		t.Fatalf("retrieve answered %v before the rebuild that its store's write needs", keys(res.Items))
	case <-time.After(100 * time.Millisecond):
	}
	st.mu.Lock()
	st.gate = nil
	st.mu.Unlock()
	close(gate)
	if res := <-done; len(res.Items) != 2 {
		t.Fatalf("retrieve after a direct store write = %v, want both green entries", keys(res.Items))
	}
	// An engine write right after a write behind its back is seen at once:
	// the writer brings the snapshot up to date first.
	if err := st.Put(ctx, ent("prefs", "tea", "green tea, again")); err != nil {
		t.Fatal(err)
	}
	if err := e.Put(ctx, ent("prefs", "juice", "green juice")); err != nil {
		t.Fatal(err)
	}
	if res, _ := e.Retrieve(ctx, Request{Query: "green"}); len(res.Items) != 4 {
		t.Fatalf("after mixed writes: %v", keys(res.Items))
	}
	if err := e.Delete(ctx, "prefs", "tea"); err != nil {
		t.Fatal(err)
	}
	if err := e.Delete(ctx, "prefs", "juice"); err != nil {
		t.Fatal(err)
	}
	if err := e.Delete(ctx, "prefs", "snack"); err != nil {
		t.Fatal(err)
	}
	res, _ := e.Retrieve(ctx, Request{Query: "green"})
	if len(res.Items) != 1 {
		t.Fatalf("engine delete not seen: %v", keys(res.Items))
	}
	// Failed writes change nothing.
	if err := e.Put(ctx, ent("bad:cat", "x", "green")); err == nil {
		t.Fatal("invalid put accepted")
	}
	res, _ = e.Retrieve(ctx, Request{Query: "green"})
	if len(res.Items) != 1 {
		t.Fatalf("failed write changed results: %v", keys(res.Items))
	}
}

// Concurrent retrieves during writes: race-free (run with -race), and every
// result is internally consistent.
func TestConcurrentRetrieveAndWrite(t *testing.T) {
	st := newMemStore()
	for i := range 100 {
		_ = st.Put(ctx, ent("c", fmt.Sprintf("n%d", i), fmt.Sprintf("alpha beta %d", i)))
	}
	e := New(st, Options{})
	var wg sync.WaitGroup
	errc := make(chan error, 8)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				var err error
				if i%5 == 4 {
					err = e.Delete(ctx, "c", fmt.Sprintf("n%d", (i+w)%100))
					if err != nil && !strings.Contains(err.Error(), "not found") {
						errc <- err
						return
					}
					continue
				}
				if err = e.Put(ctx, ent("c", fmt.Sprintf("n%d", (i*7+w)%120), fmt.Sprintf("alpha gamma %d", i))); err != nil {
					errc <- err
					return
				}
				if i%50 == 0 {
					// A write behind the engine's back forces a full rebuild.
					_ = st.Put(ctx, ent("d", fmt.Sprintf("x%d", i), "alpha"))
				}
			}
		}()
	}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				res, err := e.Retrieve(ctx, Request{Query: "alpha gamma", Limit: 20})
				if err != nil {
					errc <- err
					return
				}
				for _, it := range res.Items {
					if !strings.Contains(it.Content, "alpha") {
						errc <- fmt.Errorf("item %s has content %q", it.Name, it.Content)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	// After the dust settles the engine agrees with a fresh one.
	if _, err := e.Fresh(ctx); err != nil {
		t.Fatal(err)
	}
	a, _ := e.Retrieve(ctx, Request{Query: "alpha gamma", Limit: 50, Budget: Unlimited})
	b, _ := New(st, Options{}).Retrieve(ctx, Request{Query: "alpha gamma", Limit: 50, Budget: Unlimited})
	if !slices.Equal(keys(a.Items), keys(b.Items)) {
		t.Fatalf("engine diverged from a fresh build:\n%v\n%v", keys(a.Items), keys(b.Items))
	}
}

// Enough writes through the engine start a background compaction; writes
// made while it runs are replayed on its result, and in the end the engine
// answers exactly like one built from scratch.
func TestBackgroundCompaction(t *testing.T) {
	st := newMemStore()
	for i := range 2000 {
		_ = st.Put(ctx, ent("c", fmt.Sprintf("n%d", i), fmt.Sprintf("alpha beta %d", i%37)))
	}
	e := New(st, Options{})
	first, err := e.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() { // readers all along
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := e.Retrieve(ctx, Request{Query: "alpha gamma"}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := range 900 {
		var err error
		if i%7 == 3 {
			err = e.Delete(ctx, "c", fmt.Sprintf("n%d", i*3))
		} else {
			err = e.Put(ctx, ent("c", fmt.Sprintf("n%d", (i*11)%2500), fmt.Sprintf("alpha gamma %d", i)))
		}
		if err != nil && !strings.Contains(err.Error(), "not found") {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	// Wait for the last compaction to land.
	deadline := time.Now().Add(20 * time.Second)
	for {
		_ = e.lock(ctx)
		busy := e.compacting
		e.unlock()
		if !busy {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("compaction never finished")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cur, _ := e.Snapshot(ctx)
	if cur.SameBase(first) {
		t.Fatal("900 writes never compacted the overlay into a new base")
	}
	rev, _ := st.Revision(ctx)
	if cur.Revision() != rev {
		t.Fatalf("snapshot at revision %d, store at %d", cur.Revision(), rev)
	}
	for _, q := range []string{"alpha gamma", "beta 5", "gamma 899"} {
		a, _ := e.Retrieve(ctx, Request{Query: q, Limit: 50, Budget: Unlimited})
		b, _ := New(st, Options{}).Retrieve(ctx, Request{Query: q, Limit: 50, Budget: Unlimited})
		if asJSON(t, a) != asJSON(t, b) {
			t.Fatalf("%q: compacted engine differs from a fresh build", q)
		}
	}
}
