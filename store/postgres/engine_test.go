package postgres

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
)

// found reports whether a retrieve of query through eng returns the entry.
func found(t *testing.T, eng *retrieve.Engine, query, category, name string) bool {
	t.Helper()
	res, err := eng.Retrieve(ctx, retrieve.Request{Query: query, Limit: 5, NoLinks: true})
	if err != nil {
		t.Fatalf("retrieve %q: %v", query, err)
	}
	for _, it := range res.Items {
		if it.Category == category && it.Name == name {
			return true
		}
	}
	return false
}

// Two hosts, each a store (its own pool and listener) with its own engine,
// on one database: writes through either engine, and a row edited with
// plain SQL, are in the other's retrieve within a second, without any
// Rebuild, and the index each follows equals a fresh build of the store.
func TestTwoHostsRetrieve(t *testing.T) {
	schema := newSchema(t)
	a, b := openSchema(t, schema, nil), openSchema(t, schema, nil)
	ea, eb := retrieve.New(a, retrieve.Options{}), retrieve.New(b, retrieve.Options{})
	defer ea.Close()
	defer eb.Close()
	mustPut(t, a, "seed", "s", "nothing to see")
	for _, e := range []*retrieve.Engine{ea, eb} {
		if _, err := e.Rebuild(ctx); err != nil {
			t.Fatal(err)
		}
	}
	const bound = time.Second
	visible := func(eng *retrieve.Engine, query, category, name string) time.Duration {
		t.Helper()
		start := time.Now()
		for !found(t, eng, query, category, name) {
			if time.Since(start) > bound {
				t.Fatalf("%s:%s not retrievable by %q on the other host after %v", category, name, query, bound)
			}
			time.Sleep(5 * time.Millisecond)
		}
		return time.Since(start)
	}
	var worst time.Duration
	for i := range 10 {
		word := fmt.Sprintf("zebrafish%d", i)
		w, r := ea, eb
		if i%2 == 1 {
			w, r = eb, ea
		}
		if err := w.Put(ctx, store.Entry{Category: "hosts", Name: word, Content: "about " + word}); err != nil {
			t.Fatal(err)
		}
		worst = max(worst, visible(r, word, "hosts", word))
	}
	// A row edited behind recall's back, with SQL.
	if _, err := adminPool(t).Exec(ctx, `UPDATE `+schema+`.entries SET content = 'now about narwhals' WHERE category = 'hosts' AND name = 'zebrafish3'`); err != nil {
		t.Fatal(err)
	}
	worst = max(worst, visible(ea, "narwhals", "hosts", "zebrafish3"))
	worst = max(worst, visible(eb, "narwhals", "hosts", "zebrafish3"))
	// A delete through one host leaves the other's retrieve.
	if err := ea.Delete(ctx, "hosts", "zebrafish0"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for found(t, eb, "zebrafish0", "hosts", "zebrafish0") {
		if time.Since(start) > bound {
			t.Fatal("a deleted entry is still retrieved on the other host")
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("slowest cross-host visibility: %v", worst.Round(time.Millisecond))
}

// Concurrent read-modify-writes of one entry through the engines of two
// hosts lose nothing, and both indexes end with the final text.
func TestTwoHostsEngineUpdate(t *testing.T) {
	schema := newSchema(t)
	a, b := openSchema(t, schema, nil), openSchema(t, schema, nil)
	ea, eb := retrieve.New(a, retrieve.Options{}), retrieve.New(b, retrieve.Options{})
	defer ea.Close()
	defer eb.Close()
	mustPut(t, a, "shared", "log", "start")
	const rounds = 15
	var wg sync.WaitGroup
	for h, eng := range []*retrieve.Engine{ea, eb} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				tok := fmt.Sprintf("h%dr%d", h, r)
				err := eng.Update(ctx, "shared", "log", func(old store.Entry, found bool) (store.Entry, error) {
					old.Content += " " + tok
					return old, nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	e, err := a.Get(ctx, "shared", "log")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(e.Content)) - 1; n != 2*rounds {
		t.Fatalf("%d tokens after %d updates: %q", n, 2*rounds, e.Content)
	}
	for _, eng := range []*retrieve.Engine{ea, eb} {
		start := time.Now()
		for !found(t, eng, "h0r14 h1r14", "shared", "log") {
			if time.Since(start) > time.Second {
				t.Fatal("the final text is not retrievable on both hosts")
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}
