package bolt

import (
	"fmt"
	"slices"
	"testing"

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
