package postgres

import (
	"errors"
	"fmt"
	"testing"

	"github.com/recallhq/recall/store"
)

func fillSorted(t *testing.T, s *Store, n int) {
	t.Helper()
	var batch []store.Entry
	for i := range n {
		batch = append(batch, store.Entry{Category: "c", Name: fmt.Sprintf("n%04d", i), Content: "x"})
	}
	if err := s.PutBatch(ctx, batch); err != nil {
		t.Fatal(err)
	}
}

// AllSorted reads one instant: entries the loop body deletes and adds
// after the walk began (several chunks later in key order) do not change
// what it yields. All, chunk by chunk, sees them.
func TestAllSortedIsOneInstant(t *testing.T) {
	testURL(t)
	s := openNew(t)
	const n = 3*chunkSize + 10
	fillSorted(t, s, n)
	count := func(seq func(func(store.Entry, error) bool)) (int, bool) {
		got, sawNew := 0, false
		for e, err := range seq {
			if err != nil {
				t.Fatal(err)
			}
			if got == 0 {
				for i := chunkSize; i < n; i++ { // every chunk after the first
					if err := s.Delete(ctx, "c", fmt.Sprintf("n%04d", i)); err != nil {
						t.Fatal(err)
					}
				}
				mustPut(t, s, "d", "new", "written during the walk")
			}
			sawNew = sawNew || e.Category == "d"
			got++
		}
		return got, sawNew
	}
	if got, sawNew := count(s.AllSorted(ctx)); got != n || sawNew {
		t.Fatalf("AllSorted yielded %d entries (new one seen: %v), want the %d there when it began", got, sawNew, n)
	}
	// The same loop over All sees the deletes: what makes this test able
	// to fail.
	fillSorted(t, s, n)
	if err := s.Delete(ctx, "d", "new"); err != nil {
		t.Fatal(err)
	}
	if got, _ := count(s.All(ctx)); got == n {
		t.Fatalf("All yielded all %d entries despite the deletes; the test cannot tell an instant from chunks", n)
	}
}

// The loop body may close the store: the walk then ends with an error
// wrapping store.ErrClosed instead of hanging (its connection is not the
// pool's, which Close waits for).
func TestAllSortedCloseInLoop(t *testing.T) {
	testURL(t)
	s := openNew(t)
	fillSorted(t, s, 2*chunkSize)
	var last error
	got := 0
	for _, err := range s.AllSorted(ctx) {
		if err != nil {
			last = err
			continue
		}
		if got == 0 {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}
		got++
	}
	if !errors.Is(last, store.ErrClosed) {
		t.Fatalf("AllSorted after Close ended with %v, want store.ErrClosed", last)
	}
	if got != chunkSize {
		t.Fatalf("AllSorted yielded %d entries after Close, want the rest of the chunk read (%d)", got, chunkSize)
	}
}
