package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/recallhq/recall/store"
)

// RunSorter checks the store.Sorter contract against stores made by open,
// which must implement it: AllSorted yields exactly the entries All yields
// (same identities, same contents), each once, in identity order (category,
// then name, bytewise), on identities chosen so that a walk in any other
// order shows: bytes below '/' ("c/x-y" sorts between "c/x" and "c/x/sub"),
// a category that is a prefix of another, letters of both cases, CJK, and
// the category "_root". A stopped loop stops; a cancelled ctx ends with an
// error.
func RunSorter(t *testing.T, open Open) {
	t.Helper()
	sorter := func(t *testing.T) (store.Store, store.Sorter) {
		s := open(t)
		so, ok := s.(store.Sorter)
		if !ok {
			t.Fatalf("%T does not implement store.Sorter", s)
		}
		return s, so
	}
	cats := []string{"c", "c/x", "c/x-y", "c/x y", "c/x.y", "c/x/sub", "c/x/sub-2", "c/x+", "c-d", "_root", "_a", "A", "a", "三亚", "三亚/海边", "z(1)", "x.md"}
	names := []string{"a", "a b", "a-b", "a.b", "a(1)", "ab", "B", "海边", "n!", "n&m", "z"}
	t.Run("SameAsAllInOrder", func(t *testing.T) {
		s, so := sorter(t)
		defer s.Close()
		rng := rand.New(rand.NewPCG(27, 2))
		var batch []store.Entry
		for _, c := range cats {
			for _, n := range names {
				if rng.IntN(3) == 0 {
					continue
				}
				batch = append(batch, store.Entry{Category: c, Name: n, Content: fmt.Sprintf("%s | %s", c, n)})
			}
		}
		rng.Shuffle(len(batch), func(i, j int) { batch[i], batch[j] = batch[j], batch[i] })
		for _, e := range batch {
			mustPut(t, s, e)
		}
		want := collect(t, s)
		var prev store.Key
		n := 0
		for e, err := range so.AllSorted(ctx) {
			if err != nil {
				t.Fatalf("AllSorted: %v", err)
			}
			k := e.Key()
			if n > 0 && compareKey(prev, k) >= 0 {
				t.Fatalf("AllSorted yielded %s after %s: not in identity order", k, prev)
			}
			w, ok := want[k]
			if !ok {
				t.Fatalf("AllSorted yielded %s, which All does not", k)
			}
			if e.Content != w.Content {
				t.Fatalf("AllSorted %s content %q, All %q", k, e.Content, w.Content)
			}
			prev, n = k, n+1
		}
		if n != len(want) || n != len(batch) {
			t.Fatalf("AllSorted yielded %d entries, All %d, put %d", n, len(want), len(batch))
		}
	})
	t.Run("Break", func(t *testing.T) {
		s, so := sorter(t)
		defer s.Close()
		for i := range 10 {
			mustPut(t, s, store.Entry{Category: cats[i], Name: "n", Content: "x"})
		}
		n := 0
		for range so.AllSorted(ctx) {
			n++
			if n == 3 {
				break
			}
		}
		if n != 3 {
			t.Fatalf("loop ran %d times after break at 3", n)
		}
	})
	t.Run("Cancelled", func(t *testing.T) {
		s, so := sorter(t)
		defer s.Close()
		mustPut(t, s, store.Entry{Category: "c", Name: "n", Content: "x"})
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		var last error
		for _, err := range so.AllSorted(cctx) {
			last = err
		}
		if !errors.Is(last, context.Canceled) {
			t.Fatalf("AllSorted with a cancelled ctx ended with %v, want context.Canceled", last)
		}
	})
}
