package bolt

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/storetest"
)

func TestChangeFeedConformance(t *testing.T) {
	storetest.RunChangeFeed(t, func(t *testing.T) store.Store {
		s, err := Open(tempPath(t), &Options{ChangeLogSize: 64, History: 64})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}, 64)
}

// A reopened file answers from its change history: a reader that indexed
// it before (in this or an earlier process) re-reads only what changed
// since, while the revision itself carries on from the file. Without a
// history (Options.History < 0) such a reader must rebuild.
func TestChangeFeedAfterReopen(t *testing.T) {
	for _, keep := range []int{0, -1} {
		t.Run(fmt.Sprint("history=", keep), func(t *testing.T) { testChangeFeedAfterReopen(t, keep) })
	}
}

func testChangeFeedAfterReopen(t *testing.T, keep int) {
	path := tempPath(t)
	s, err := Open(path, &Options{History: keep})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b"} {
		if err := s.Put(ctx, store.Entry{Category: "c", Name: n, Content: n}); err != nil {
			t.Fatal(err)
		}
	}
	r, _ := s.Revision(ctx)
	s.Close()
	s, err = Open(path, &Options{History: keep})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if r2, _ := s.Revision(ctx); r2 != r {
		t.Fatalf("revision after reopen = %d, want %d", r2, r)
	}
	cs, _ := s.Changes(ctx, r-1)
	if keep < 0 && !cs.Reset {
		t.Errorf("Changes(%d) after reopen without a history = %+v, want Reset", r-1, cs)
	}
	if b := (store.Key{Category: "c", Name: "b"}); keep >= 0 && (cs.Reset || cs.Rev != r || !slices.Equal(cs.Keys, []store.Key{b})) {
		t.Errorf("Changes(%d) after reopen = %+v, want [%s] up to %d", r-1, cs, b, r)
	}
	if cs, _ := s.Changes(ctx, r+1); !cs.Reset {
		t.Errorf("Changes(%d), past the revision, after reopen = %+v, want Reset", r+1, cs)
	}
	if cs, _ := s.Changes(ctx, r); cs.Reset || len(cs.Keys) != 0 || cs.Rev != r {
		t.Errorf("Changes(%d) after reopen = %+v, want empty", r, cs)
	}
	if err := s.Delete(ctx, "c", "a"); err != nil {
		t.Fatal(err)
	}
	if cs, _ := s.Changes(ctx, r); cs.Reset || len(cs.Keys) != 1 || cs.Keys[0] != (store.Key{Category: "c", Name: "a"}) || cs.Rev != r+1 {
		t.Errorf("Changes(%d) after a delete = %+v", r, cs)
	}
}

// A write made with store.CallerPublishes(ctx, p) is acknowledged to every
// reader but p, whichever way it is written; a group holding writes by
// several publishers, or by none, is acknowledged to all.
func TestAckedRevision(t *testing.T) {
	s := openTemp(t)
	p, q := new(store.Publisher), new(store.Publisher)
	acked := func(r *store.Publisher) uint64 {
		t.Helper()
		v, err := s.AckedRevision(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	check := func(step string, wantP, wantQ uint64) {
		t.Helper()
		rev, _ := s.Revision(ctx)
		if got := [3]uint64{acked(p), acked(q), acked(nil)}; got != [3]uint64{wantP, wantQ, rev} {
			t.Fatalf("%s: AckedRevision p, q, nil = %v, want %v", step, got, [3]uint64{wantP, wantQ, rev})
		}
	}
	mustPut(t, s, "c", "a", "one")
	check("a plain Put", 1, 1)
	pctx := store.CallerPublishes(ctx, p)
	if err := s.Put(pctx, store.Entry{Category: "c", Name: "b", Content: "two"}); err != nil {
		t.Fatal(err)
	}
	check("p's Put", 1, 2)
	if err := s.Update(pctx, "c", "b", func(old store.Entry, _ bool) (store.Entry, error) {
		old.Content = "three"
		return old, nil
	}); err != nil {
		t.Fatal(err)
	}
	check("p's Update", 1, 3)
	if err := s.Update(pctx, "c", "b", func(store.Entry, bool) (store.Entry, error) { return store.Entry{}, store.ErrNoChange }); err != nil {
		t.Fatal(err)
	}
	check("p's Update that changed nothing", 1, 3)
	if err := s.Delete(pctx, "c", "a"); err != nil {
		t.Fatal(err)
	}
	check("p's Delete", 1, 4)
	if err := s.PutBatch(store.CallerPublishes(ctx, q), []store.Entry{{Category: "c", Name: "x", Content: "x"}, {Category: "c", Name: "y", Content: "y"}}); err != nil {
		t.Fatal(err)
	}
	check("q's batch", 6, 4)
	// One group with writes by p and q: each must wait for the other's.
	s.wmu.Lock()
	errs := make(chan error, 2)
	for _, c := range []context.Context{pctx, store.CallerPublishes(ctx, q)} {
		go func() { errs <- s.Put(c, store.Entry{Category: "g", Name: fmt.Sprint(c == pctx), Content: "grouped"}) }()
	}
	for {
		s.qmu.Lock()
		n := len(s.queue)
		s.qmu.Unlock()
		if n == 2 {
			break
		}
		time.Sleep(100 * time.Microsecond)
	}
	s.wmu.Unlock()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	check("a group of p's and q's writes", 8, 8)
}
