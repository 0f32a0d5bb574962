package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// testUpdate checks the semantics of Update one call at a time.
func testUpdate(t *testing.T, s store.Store) {
	// Absent: fn sees found == false and the identity only.
	err := s.Update(ctx, "u", "new", func(old store.Entry, found bool) (store.Entry, error) {
		if found || old.Content != "" || old.Category != "u" || old.Name != "new" {
			t.Errorf("absent entry: fn got (%+v, %v)", old, found)
		}
		old.Content = "first"
		old.Meta.Tags = []string{"keep"}
		return old, nil
	})
	if err != nil {
		t.Fatalf("Update of a new entry: %v", err)
	}
	got, err := s.Get(ctx, "u", "new")
	if err != nil || got.Content != "first" || !slices.Equal(got.Meta.Tags, []string{"keep"}) || got.Meta.Created.IsZero() {
		t.Fatalf("after Update: %+v, %v", got, err)
	}
	created := got.Meta.Created

	// Present: fn sees the stored entry; what it keeps is kept.
	err = s.Update(ctx, "u", "new", func(old store.Entry, found bool) (store.Entry, error) {
		if !found || old.Content != "first" || !slices.Equal(old.Meta.Tags, []string{"keep"}) {
			t.Errorf("present entry: fn got (%+v, %v)", old, found)
		}
		old.Content += " second"
		old.Meta.Updated = time.Time{} // stamped anew
		return old, nil
	})
	if err != nil {
		t.Fatalf("Update of an existing entry: %v", err)
	}
	got, _ = s.Get(ctx, "u", "new")
	if got.Content != "first second" || !slices.Equal(got.Meta.Tags, []string{"keep"}) || !got.Meta.Created.Equal(created) {
		t.Fatalf("after second Update: %+v (created was %v)", got, created)
	}

	// ErrNoChange and other errors write nothing.
	r0 := rev(t, s)
	if err := s.Update(ctx, "u", "new", func(old store.Entry, _ bool) (store.Entry, error) {
		return old, store.ErrNoChange
	}); err != nil {
		t.Fatalf("Update returning ErrNoChange: %v, want nil", err)
	}
	boom := errors.New("boom")
	if err := s.Update(ctx, "u", "new", func(old store.Entry, _ bool) (store.Entry, error) {
		old.Content = "never"
		return old, boom
	}); !errors.Is(err, boom) {
		t.Fatalf("Update whose fn failed: %v, want the fn's error", err)
	}
	if r := rev(t, s); r != r0 {
		t.Fatalf("revision moved from %d to %d with nothing written", r0, r)
	}
	if got, _ := s.Get(ctx, "u", "new"); got.Content != "first second" {
		t.Fatalf("content after failed updates: %q", got.Content)
	}

	// A result with another identity, or an invalid one, is refused.
	if err := s.Update(ctx, "u", "new", func(old store.Entry, _ bool) (store.Entry, error) {
		old.Name = "other"
		return old, nil
	}); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("Update changing the identity: %v, want ErrInvalid", err)
	}
	if err := s.Update(ctx, "u", "new", func(old store.Entry, _ bool) (store.Entry, error) {
		old.Content = "bad \xff utf-8"
		return old, nil
	}); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("Update to invalid content: %v, want ErrInvalid", err)
	}
	if _, err := s.Get(ctx, "u", "other"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("identity-changing update wrote u:other: %v", err)
	}
	if err := s.Update(ctx, "bad/../x", "n", func(old store.Entry, _ bool) (store.Entry, error) { return old, nil }); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("Update of an invalid identity: %v, want ErrInvalid", err)
	}
	if r := rev(t, s); r != r0 {
		t.Fatalf("revision moved from %d to %d by refused updates", r0, r)
	}
	// A successful update moves the revision.
	if err := s.Update(ctx, "u", "new", func(old store.Entry, _ bool) (store.Entry, error) {
		old.Content = "third"
		return old, nil
	}); err != nil {
		t.Fatal(err)
	}
	if r := rev(t, s); r <= r0 {
		t.Fatalf("revision %d did not move past %d after an update", r, r0)
	}
}

// testUpdateConcurrent: concurrent read-modify-writes of one entry lose
// nothing. Each update appends its own token; at the end every token is
// there exactly once, and concurrent plain Puts of another field (tags) are
// never undone by an update that read before them. Run under -race.
func testUpdateConcurrent(t *testing.T, s store.Store) {
	const workers, rounds = 6, 25
	mustPut(t, s, store.Entry{Category: "race", Name: "counter", Content: "start"})
	var wg sync.WaitGroup
	errc := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				tok := fmt.Sprintf("w%dr%d", w, r)
				err := s.Update(ctx, "race", "counter", func(old store.Entry, found bool) (store.Entry, error) {
					if !found {
						return old, errors.New("entry vanished")
					}
					old.Content += " " + tok
					n, _ := strconv.Atoi(firstTag(old.Meta.Tags))
					old.Meta.Tags = []string{strconv.Itoa(n + 1)}
					old.Meta.Updated = time.Time{} // stamped anew
					return old, nil
				})
				if err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, "race", "counter")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, f := range strings.Fields(got.Content)[1:] {
		seen[f]++
	}
	for w := range workers {
		for r := range rounds {
			if tok := fmt.Sprintf("w%dr%d", w, r); seen[tok] != 1 {
				t.Errorf("token %s appears %d times, want once (a lost or doubled update)", tok, seen[tok])
			}
		}
	}
	if want := strconv.Itoa(workers * rounds); firstTag(got.Meta.Tags) != want {
		t.Errorf("counter tag = %v, want %s", got.Meta.Tags, want)
	}
}

func firstTag(tags []string) string {
	if len(tags) == 0 {
		return "0"
	}
	return tags[0]
}
