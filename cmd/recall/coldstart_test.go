package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/store/bolt"
)

// A one-shot retrieve on a bolt store saves the index in the file; the
// next one loads it and answers the same, and after a write the next one
// brings the copy up to date (the file's change history names the entry
// written) and answers with it.
func TestRetrievePersistsIndex(t *testing.T) {
	db := sampleStores(t)["bolt"]
	c := newCLI(t, nil)
	// copyAt reports whether the file holds a copy, and whether it was
	// made at the file's revision.
	copyAt := func() (has, current bool) {
		t.Helper()
		st, err := bolt.Open(db, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		data, rev, err := st.LoadIndex(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		cur, _ := st.Revision(context.Background())
		return data != nil, data != nil && rev == cur
	}
	hasCopy := func() bool { has, _ := copyAt(); return has }
	// The import that made the store built the index to report duplicates
	// (docs/duplicates.md) and may have saved it: if so, at its revision.
	if has, current := copyAt(); has && !current {
		t.Fatal("the import left a copy behind the store")
	}
	first := c.ok("--store", db, "retrieve", "--json", "周末安排")
	if !hasCopy() {
		t.Fatal("no copy saved by retrieve")
	}
	if again := c.ok("--store", db, "retrieve", "--json", "周末安排"); again != first {
		t.Fatalf("answer from the copy differs:\n%s\nwant\n%s", again, first)
	}
	c.ok("--store", db, "add", "plans", "weekend-zebra", "--content", "周末安排 zebra")
	if has, current := copyAt(); !has || current {
		t.Fatalf("after a write: copy %v, current %v; want the old copy kept", has, current)
	}
	res, _ := resultJSON(t, c, "--store", db, "retrieve", "zebra")
	if len(res.Items) == 0 || res.Items[0].Name != "weekend-zebra" {
		t.Fatalf("after the write: %+v", res.Items)
	}
	if !hasCopy() {
		t.Fatal("copy lost by the catch-up")
	}
}

// TestRetrievePersistsIndexFolder: a one-shot retrieve on a folder saves
// a copy of the index in its cache folder; the next answers the same from it,
// sees an entry added since, and still reports a file it cannot read.
func TestRetrievePersistsIndexFolder(t *testing.T) {
	dir := sampleStores(t)["fs"]
	c := newCLI(t, nil)
	copyPath := filepath.Join(folderCache(t, dir), "index")
	if _, err := os.Stat(copyPath); err == nil {
		t.Fatal("copy before any retrieve")
	}
	if err := os.WriteFile(filepath.Join(dir, "broken.md"), []byte("x \xff") /* not UTF-8; broken front matter is read since issue 24 */, 0o644); err != nil {
		t.Fatal(err)
	}
	o := c.run("--store", dir, "retrieve", "--json", "周末安排")
	if o.code != 0 || !strings.Contains(o.stderr, "skipped") || !strings.Contains(o.stderr, "broken.md") {
		t.Fatalf("first retrieve: exit %d, stderr %q", o.code, o.stderr)
	}
	if _, err := os.Stat(copyPath); err != nil {
		t.Fatalf("no copy saved by retrieve: %v", err)
	}
	again := c.run("--store", dir, "retrieve", "--json", "周末安排")
	if again.stdout != o.stdout || again.stderr != o.stderr {
		t.Fatalf("answer from the copy differs:\n%s\n%s\nwant\n%s\n%s", again.stdout, again.stderr, o.stdout, o.stderr)
	}
	c.ok("--store", dir, "add", "plans", "weekend-zebra", "--content", "周末安排 zebra")
	res, _ := resultJSON(t, c, "--store", dir, "retrieve", "zebra")
	if len(res.Items) == 0 || res.Items[0].Name != "weekend-zebra" {
		t.Fatalf("after the write: %+v", res.Items)
	}
	if o := c.run("--store", dir, "reindex"); o.code != 1 || !strings.Contains(o.stderr, "broken.md") {
		t.Fatalf("reindex: exit %d, stderr %q", o.code, o.stderr)
	}
}
