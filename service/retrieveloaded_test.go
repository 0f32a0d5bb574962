package service_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/fs"
)

// RetrieveLoaded says once, before answering, what the index could not
// read, and answers as Retrieve; a clean store says nothing.
func TestRetrieveLoaded(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := fs.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Put(ctx, store.Entry{Category: "notes", Name: "trip", Content: "a trip to the sea"}); err != nil {
		t.Fatal(err)
	}
	var said []string
	m := service.New(st, service.Options{})
	res, _, err := m.RetrieveLoaded(ctx, service.RetrieveParams{Query: "sea"}, func(msg string) { said = append(said, msg) })
	m.Engine().Close()
	if err != nil || len(res.Items) != 1 || len(said) != 0 {
		t.Fatalf("clean store: %v, %d items, said %q", err, len(res.Items), said)
	}

	if err := os.WriteFile(filepath.Join(dir, "notes", "broken.md"), []byte("sea \xff") /* not UTF-8; broken front matter is read since issue 24 */, 0o644); err != nil {
		t.Fatal(err)
	}
	m = service.New(st, service.Options{})
	defer m.Engine().Close()
	res, _, err = m.RetrieveLoaded(ctx, service.RetrieveParams{Query: "sea"}, func(msg string) { said = append(said, msg) })
	if err != nil || len(res.Items) != 1 {
		t.Fatalf("damaged store: %v, %+v", err, res)
	}
	if len(said) != 1 || !strings.HasPrefix(said[0], "skipped ") || !strings.Contains(said[0], "broken") {
		t.Errorf("said %q, want one line naming notes:broken", said)
	}
}
