package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// feedWait bounds how long the suite waits for a subscription to fire. A
// backend fires well within a second; the margin is for a loaded machine.
const feedWait = 10 * time.Second

// RunChangeFeed runs the conformance tests of the change-feed capability
// (store.ChangeFeed) against stores made by open, which must implement it.
// history is the number of changed keys the stores remember (the opener
// should make it small, 64 or so); with history > 0 the suite writes past
// it and checks that a reader that fell behind gets Reset. Zero skips that
// check, for a backend whose history is unbounded.
func RunChangeFeed(t *testing.T, open Open, history int) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(*testing.T, store.Store, store.ChangeFeed)
	}{
		{"Empty", testFeedEmpty},
		{"Writes", testFeedWrites},
		{"FailedWrites", testFeedFailedWrites},
		{"Future", testFeedFuture},
		{"Concurrent", testFeedConcurrent},
		{"Subscribe", testFeedSubscribe},
		{"Cancel", testFeedCancel},
		{"Closed", testFeedClosed},
	}
	if history > 0 {
		tests = append(tests, struct {
			name string
			fn   func(*testing.T, store.Store, store.ChangeFeed)
		}{"TooOld", func(t *testing.T, s store.Store, f store.ChangeFeed) { testFeedTooOld(t, s, f, history) }})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			defer s.Close()
			f, ok := s.(store.ChangeFeed)
			if !ok {
				t.Fatalf("%T does not implement store.ChangeFeed", s)
			}
			tc.fn(t, s, f)
		})
	}
}

func changes(t *testing.T, f store.ChangeFeed, since uint64) store.ChangeSet {
	t.Helper()
	cs, err := f.Changes(ctx, since)
	if err != nil {
		t.Fatalf("Changes(%d): %v", since, err)
	}
	if cs.Since != since {
		t.Fatalf("Changes(%d).Since = %d", since, cs.Since)
	}
	return cs
}

// keySet renders keys sorted, failing on a key listed twice.
func keySet(t *testing.T, keys []store.Key) string {
	t.Helper()
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k.String())
	}
	slices.Sort(out)
	if c := slices.Compact(slices.Clone(out)); len(c) != len(out) {
		t.Errorf("a key is listed more than once: %v", out)
	}
	return fmt.Sprint(out)
}

func testFeedEmpty(t *testing.T, s store.Store, f store.ChangeFeed) {
	r := rev(t, s)
	cs := changes(t, f, r)
	if cs.Reset || len(cs.Keys) != 0 || cs.Rev != r {
		t.Fatalf("Changes(current revision %d) = %+v, want empty at %d", r, cs, r)
	}
}

func testFeedWrites(t *testing.T, s store.Store, f store.ChangeFeed) {
	mustPut(t, s, store.Entry{Category: "feed", Name: "a", Content: "a"})
	r0 := rev(t, s)
	mustPut(t, s, store.Entry{Category: "feed", Name: "b", Content: "b"})
	mustPut(t, s, store.Entry{Category: "feed", Name: "b", Content: "b again"})
	if err := s.Update(ctx, "feed", "c", func(old store.Entry, _ bool) (store.Entry, error) {
		old.Content = "c"
		return old, nil
	}); err != nil {
		t.Fatal(err)
	}
	r1 := rev(t, s)
	if err := s.Delete(ctx, "feed", "a"); err != nil {
		t.Fatal(err)
	}
	r2 := rev(t, s)

	cs := changes(t, f, r0)
	if cs.Reset || cs.Rev != r2 {
		t.Fatalf("Changes(%d) = %+v, want keys up to revision %d", r0, cs, r2)
	}
	if got, want := keySet(t, cs.Keys), "[feed:a feed:b feed:c]"; got != want {
		t.Errorf("Changes(%d).Keys = %s, want %s", r0, got, want)
	}
	cs = changes(t, f, r1)
	if got, want := keySet(t, cs.Keys), "[feed:a]"; cs.Reset || got != want || cs.Rev != r2 {
		t.Errorf("Changes(%d) = %+v, want %s up to %d", r1, cs, want, r2)
	}
	// The reader's recipe: re-read each key; ErrNotFound means deleted.
	if _, err := s.Get(ctx, "feed", "a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Get of a deleted key listed by the feed: %v", err)
	}
	cs = changes(t, f, r2)
	if cs.Reset || len(cs.Keys) != 0 || cs.Rev != r2 {
		t.Errorf("Changes(current) = %+v, want empty", cs)
	}
}

func testFeedFailedWrites(t *testing.T, s store.Store, f store.ChangeFeed) {
	mustPut(t, s, store.Entry{Category: "feed", Name: "a", Content: "a"})
	r := rev(t, s)
	if err := s.Delete(ctx, "feed", "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Delete of a missing entry: %v", err)
	}
	if err := s.Update(ctx, "feed", "a", func(old store.Entry, _ bool) (store.Entry, error) {
		return old, store.ErrNoChange
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, store.Entry{Category: "feed", Name: "bad", Content: "\xff"}); err == nil {
		t.Fatal("invalid Put accepted")
	}
	cs := changes(t, f, r)
	if cs.Reset || len(cs.Keys) != 0 || cs.Rev != r {
		t.Errorf("after writes that wrote nothing: Changes(%d) = %+v, want empty", r, cs)
	}
}

// A since beyond the current revision: the reader's store was replaced or
// restarted behind it.
func testFeedFuture(t *testing.T, s store.Store, f store.ChangeFeed) {
	mustPut(t, s, store.Entry{Category: "feed", Name: "a", Content: "a"})
	r := rev(t, s)
	cs := changes(t, f, r+1000)
	if !cs.Reset || len(cs.Keys) != 0 {
		t.Errorf("Changes(%d) at revision %d = %+v, want Reset", r+1000, r, cs)
	}
}

func testFeedTooOld(t *testing.T, s store.Store, f store.ChangeFeed, history int) {
	r0 := rev(t, s)
	for i := range history + 2 {
		mustPut(t, s, store.Entry{Category: "feed", Name: fmt.Sprintf("n%d", i), Content: "x"})
	}
	if cs := changes(t, f, r0); !cs.Reset || len(cs.Keys) != 0 {
		t.Errorf("Changes(%d) after %d writes with a history of %d = Reset %v, %d keys; want Reset",
			r0, history+2, history, cs.Reset, len(cs.Keys))
	}
	// Recent history is still answered.
	r := rev(t, s)
	mustPut(t, s, store.Entry{Category: "feed", Name: "last", Content: "x"})
	if cs := changes(t, f, r); cs.Reset || keySet(t, cs.Keys) != "[feed:last]" {
		t.Errorf("Changes(%d) after one more write = %+v", r, cs)
	}
}

// Writers on many goroutines: every key is in the feed, whatever order
// the writes commit in.
func testFeedConcurrent(t *testing.T, s store.Store, f store.ChangeFeed) {
	const workers, each = 4, 10
	r0 := rev(t, s)
	var wg sync.WaitGroup
	want := []store.Key{}
	for w := range workers {
		for i := range each {
			want = append(want, store.Key{Category: fmt.Sprintf("w%d", w), Name: fmt.Sprintf("n%d", i)})
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := s.Put(ctx, store.Entry{Category: fmt.Sprintf("w%d", w), Name: fmt.Sprintf("n%d", i), Content: "x"}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	cs := changes(t, f, r0)
	if cs.Reset {
		t.Fatalf("Changes(%d) = Reset", r0)
	}
	if got, w := keySet(t, cs.Keys), keySet(t, want); got != w {
		t.Errorf("Changes after concurrent writes = %s, want %s", got, w)
	}
	if r := rev(t, s); cs.Rev != r {
		t.Errorf("Changes.Rev = %d, store at %d", cs.Rev, r)
	}
}

func testFeedSubscribe(t *testing.T, s store.Store, f store.ChangeFeed) {
	ch, cancel := f.Subscribe()
	defer cancel()
	drain(ch, 0)
	mustPut(t, s, store.Entry{Category: "feed", Name: "a", Content: "a"})
	select {
	case <-ch:
	case <-time.After(feedWait):
		t.Fatal("no notification after a Put")
	}
	// Many writes and nobody reading: writers are not blocked, and the
	// values coalesce.
	const n = 50
	for i := range n {
		mustPut(t, s, store.Entry{Category: "feed", Name: fmt.Sprintf("n%d", i), Content: "x"})
	}
	select {
	case <-ch:
	case <-time.After(feedWait):
		t.Fatal("no notification after many Puts")
	}
	if got := drain(ch, 300*time.Millisecond); got > 5 {
		t.Errorf("%d more notifications for %d writes: not coalesced", got, n)
	}
	// Each kind of write notifies.
	for _, w := range []struct {
		name string
		do   func() error
	}{
		{"Update", func() error {
			return s.Update(ctx, "feed", "a", func(old store.Entry, _ bool) (store.Entry, error) {
				old.Content = "updated"
				return old, nil
			})
		}},
		{"Delete", func() error { return s.Delete(ctx, "feed", "a") }},
	} {
		drain(ch, 0)
		if err := w.do(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ch:
		case <-time.After(feedWait):
			t.Fatalf("no notification after %s", w.name)
		}
	}
}

// drain empties ch, waiting up to quiet for late values, and counts them.
func drain(ch <-chan struct{}, quiet time.Duration) int {
	n := 0
	for {
		select {
		case <-ch:
			n++
		case <-time.After(quiet):
			return n
		}
	}
}

func testFeedCancel(t *testing.T, s store.Store, f store.ChangeFeed) {
	ch, cancel := f.Subscribe()
	other, cancelOther := f.Subscribe()
	defer cancelOther()
	cancel()
	cancel() // a second cancel is harmless
	drain(ch, 0)
	mustPut(t, s, store.Entry{Category: "feed", Name: "a", Content: "a"})
	select {
	case <-other:
	case <-time.After(feedWait):
		t.Fatal("the remaining subscription got no notification")
	}
	if n := drain(ch, 200*time.Millisecond); n != 0 {
		t.Errorf("a cancelled subscription got %d notifications", n)
	}
}

func testFeedClosed(t *testing.T, s store.Store, f store.ChangeFeed) {
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Changes(context.Background(), 0); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Changes after Close: %v, want ErrClosed", err)
	}
}
