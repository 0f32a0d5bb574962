package bolt

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/recallhq/recall/store"
)

func TestIndexCache(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	st, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	// view is ViewIndex, whose data must match LoadIndex's at every step.
	view := func(st *Store) (data []byte, rev uint64, called bool) {
		t.Helper()
		err := st.ViewIndex(ctx, func(d []byte, r uint64) { data, rev, called = bytes.Clone(d), r, true })
		if err != nil {
			t.Fatalf("ViewIndex: %v", err)
		}
		return data, rev, called
	}
	if data, _, err := st.LoadIndex(ctx); err != nil || data != nil {
		t.Fatalf("new file: %q, %v", data, err)
	}
	if _, _, called := view(st); called {
		t.Fatal("new file: ViewIndex called its function")
	}
	if err := st.Put(ctx, store.Entry{Category: "a", Name: "x", Content: "one"}); err != nil {
		t.Fatal(err)
	}
	rev, _ := st.Revision(ctx)
	if err := st.SaveIndex(ctx, rev-1, []byte("old")); err != nil {
		t.Fatal(err)
	}
	if data, _, _ := st.LoadIndex(ctx); data != nil {
		t.Fatalf("copy of an older revision kept: %q", data)
	}
	if data, _, called := view(st); called {
		t.Fatalf("copy of an older revision viewed: %q", data)
	}
	if err := st.SaveIndex(ctx, rev, []byte("copy")); err != nil {
		t.Fatal(err)
	}
	if r2, _ := st.Revision(ctx); r2 != rev {
		t.Fatalf("SaveIndex moved the revision: %d → %d", rev, r2)
	}
	st.Close()

	st, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if data, r, err := st.LoadIndex(ctx); err != nil || string(data) != "copy" || r != rev {
		t.Fatalf("after reopening: %q at %d, %v; want the copy at %d", data, r, err, rev)
	}
	if data, r, called := view(st); !called || string(data) != "copy" || r != rev {
		t.Fatalf("after reopening: viewed %q at %d (%v); want the copy at %d", data, r, called, rev)
	}
	if err := st.Delete(ctx, "a", "x"); err != nil {
		t.Fatal(err)
	}
	// After a write the copy is still served, with the revision it was
	// made at: the reader catches up through the change feed.
	if data, r, _ := st.LoadIndex(ctx); string(data) != "copy" || r != rev {
		t.Fatalf("after a write: %q at %d; want the copy at %d", data, r, rev)
	}
	if data, r, called := view(st); !called || string(data) != "copy" || r != rev {
		t.Fatalf("after a write: viewed %q at %d (%v); want the copy at %d", data, r, called, rev)
	}
	if err := st.SaveIndex(ctx, rev, []byte("late")); err != nil {
		t.Fatal(err)
	}
	if data, _, _ := st.LoadIndex(ctx); string(data) == "late" {
		t.Fatalf("save for a past revision kept: %q", data)
	}
}

// Saving a copy again reuses the old copy's pages rather than growing
// the file by the copy's size each time (as a one-shot command after
// each write would).
func TestIndexCacheReusesSpace(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	data := make([]byte, 4<<20)
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	var first int64
	for i := 0; i < 8; i++ {
		st, err := Open(path, &Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Put(ctx, store.Entry{Category: "a", Name: fmt.Sprint(i), Content: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
		rev, _ := st.Revision(ctx)
		if d, r, _ := st.LoadIndex(ctx); d != nil && r >= rev {
			t.Fatal("copy current after a write")
		}
		if err := st.SaveIndex(ctx, rev, data); err != nil {
			t.Fatal(err)
		}
		st.Close()
		if i == 1 {
			first = size()
		}
	}
	if got := size(); got > first+int64(len(data)) {
		t.Fatalf("file grew from %d to %d bytes over 6 saves of %d", first, got, len(data))
	}
}
