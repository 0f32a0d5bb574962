package storetest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/store"
)

// RunKeyLister checks the store.KeyLister contract against stores made by
// open, which must implement it: Keys names exactly the identities All
// yields, each once; a category lists exactly that category (not its
// sub-categories); deletes are seen; an invalid category is ErrInvalid; a
// stopped loop stops; a cancelled ctx and a closed store end with an error.
func RunKeyLister(t *testing.T, open Open) {
	t.Helper()
	lister := func(t *testing.T) (store.Store, store.KeyLister) {
		s := open(t)
		l, ok := s.(store.KeyLister)
		if !ok {
			t.Fatalf("%T does not implement store.KeyLister", s)
		}
		return s, l
	}
	fill := func(t *testing.T, s store.Store) {
		t.Helper()
		for i := range 30 {
			mustPut(t, s, store.Entry{Category: []string{"a", "a/b", "a/b/c", "b", "三亚"}[i%5], Name: fmt.Sprintf("n%02d 海边", i), Content: fmt.Sprintf("content %d", i)})
		}
		mustPut(t, s, store.Entry{Category: "ab", Name: "x", Content: "a prefix of another category"})
	}
	t.Run("SameAsAll", func(t *testing.T) {
		s, l := lister(t)
		defer s.Close()
		fill(t, s)
		want := sortedKeys(collect(t, s))
		got := listKeys(t, l, "")
		if !slices.Equal(got, want) {
			t.Fatalf("Keys:\n%v\nAll:\n%v", got, want)
		}
		if err := s.Delete(ctx, "a/b", "n01 海边"); err != nil {
			t.Fatal(err)
		}
		if got := listKeys(t, l, ""); len(got) != len(want)-1 || slices.Contains(got, store.Key{Category: "a/b", Name: "n01 海边"}) {
			t.Errorf("after a delete: %d keys, want %d without a/b:n01 海边", len(got), len(want)-1)
		}
	})
	t.Run("Category", func(t *testing.T) {
		s, l := lister(t)
		defer s.Close()
		fill(t, s)
		all := collect(t, s)
		for _, cat := range []string{"a", "a/b", "a/b/c", "三亚", "ab", "missing", "a/missing"} {
			var want []store.Key
			for k := range all {
				if k.Category == cat {
					want = append(want, k)
				}
			}
			slices.SortFunc(want, compareKey)
			if got := listKeys(t, l, cat); !slices.Equal(got, want) {
				t.Errorf("Keys(%q) = %v, want %v", cat, got, want)
			}
		}
		for _, bad := range []string{"a/../b", "x:y", "/a"} {
			n := 0
			for _, err := range l.Keys(ctx, bad) {
				n++
				if !errors.Is(err, store.ErrInvalid) {
					t.Errorf("Keys(%q): %v, want ErrInvalid", bad, err)
				}
			}
			if n != 1 {
				t.Errorf("Keys(%q) yielded %d items, want one error", bad, n)
			}
		}
	})
	t.Run("Stop", func(t *testing.T) {
		s, l := lister(t)
		defer s.Close()
		fill(t, s)
		n := 0
		for _, err := range l.Keys(ctx, "") {
			if err != nil {
				t.Fatal(err)
			}
			if n++; n == 3 {
				break
			}
		}
		if n != 3 {
			t.Errorf("%d keys before the break", n)
		}
	})
	t.Run("Cancel", func(t *testing.T) {
		s, l := lister(t)
		defer s.Close()
		fill(t, s)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		var last error
		for _, err := range l.Keys(cctx, "") {
			last = err
		}
		if !errors.Is(last, context.Canceled) {
			t.Errorf("cancelled: last item %v, want context.Canceled", last)
		}
	})
	t.Run("Closed", func(t *testing.T) {
		s, l := lister(t)
		fill(t, s)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		var last error
		for _, err := range l.Keys(ctx, "") {
			last = err
		}
		if !errors.Is(last, store.ErrClosed) {
			t.Errorf("closed: last item %v, want ErrClosed", last)
		}
	})
}

// listKeys collects Keys(category), failing on an error item or a key
// named twice, sorted.
func listKeys(t *testing.T, l store.KeyLister, category string) []store.Key {
	t.Helper()
	var keys []store.Key
	seen := map[store.Key]bool{}
	for k, err := range l.Keys(ctx, category) {
		if err != nil {
			t.Fatalf("Keys(%q): %v", category, err)
		}
		if seen[k] {
			t.Fatalf("Keys(%q) yielded %s twice", category, k)
		}
		seen[k] = true
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKey)
	return keys
}

func sortedKeys(m map[store.Key]store.Entry) []store.Key {
	keys := make([]store.Key, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKey)
	return keys
}

func compareKey(a, b store.Key) int {
	return cmp.Or(strings.Compare(a.Category, b.Category), strings.Compare(a.Name, b.Name))
}
