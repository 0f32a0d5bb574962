package service_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/fs"
)

// Reindex counts what it indexed and skipped and reports the new index's
// validity.
func TestReindex(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := fs.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, e := range []store.Entry{
		{Category: "places", Name: "old", Content: "Paris flat"},
		{Category: "places", Name: "new", Content: "Lyon flat", Meta: store.Meta{Extra: map[string]any{store.MetaSupersedes: []any{"[[places:old]]"}}}},
	} {
		if err := st.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "places", "broken.md"), []byte("x \xff") /* not UTF-8; broken front matter is read since issue 24 */, 0o644); err != nil {
		t.Fatal(err)
	}
	an := index.Default()
	rep, err := service.Reindex(ctx, st, an)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Entries != 2 || len(rep.Skipped) != 1 || rep.Took <= 0 {
		t.Errorf("report %+v, want 2 entries, 1 skipped", rep)
	}
	if rep.Validity == nil {
		t.Fatal("no validity")
	}
	if by, ok := rep.Validity.SupersededBy("places", "old"); !ok || by.String() != "places:new" {
		t.Errorf("places:old superseded by %v %v", by, ok)
	}
	ctx2, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := service.Reindex(ctx2, st, an); err == nil {
		t.Error("a cancelled reindex succeeded")
	}
}
