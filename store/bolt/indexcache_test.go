package bolt

import (
	"context"
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
	if data, _, err := st.LoadIndex(ctx); err != nil || data != nil {
		t.Fatalf("new file: %q, %v", data, err)
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
	if err := st.Delete(ctx, "a", "x"); err != nil {
		t.Fatal(err)
	}
	if data, _, _ := st.LoadIndex(ctx); data != nil {
		t.Fatalf("copy served after a write: %q", data)
	}
	if err := st.SaveIndex(ctx, rev, []byte("late")); err != nil {
		t.Fatal(err)
	}
	if data, _, _ := st.LoadIndex(ctx); data != nil {
		t.Fatalf("save for a past revision kept: %q", data)
	}
}
