package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/treetest"
)

// settledSample is a copy of the sample memory whose files are an hour
// old, so that no note is racily clean and every walk stamps them all.
func settledSample(t *testing.T) string {
	t.Helper()
	dir := copySample(t)
	past := time.Now().Add(-time.Hour)
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, past, past)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReadsLeaveTheFolderAlone: reading commands on a folder store write
// nothing into the folder (a git-managed vault shows no "?? .recall/"):
// the index copy and the vector cache live in the user's cache directory.
func TestReadsLeaveTheFolderAlone(t *testing.T) {
	dir := settledSample(t)
	before := treetest.Snapshot(t, dir)
	c := newCLI(t, nil)
	first := c.ok("--store", dir, "retrieve", "--json", "想去海边玩")
	if again := c.ok("--store", dir, "retrieve", "--json", "想去海边玩"); again != first {
		t.Errorf("second retrieve (from the cache) differs:\n%s\nwant\n%s", again, first)
	}
	for _, args := range [][]string{
		{"retrieve", "--embedder", "hash", "海边"},
		{"embed", "--embedder", "hash"},
		{"retrieve", "--embedder", "hash", "海边"},
		{"ls"},
		{"categories"},
		{"reindex"},
		{"export"},
		{"get", "daily_life", "commute"},
	} {
		if o := c.run(append([]string{"--store", dir}, args...)...); o.code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, o.code, o.stderr)
		}
	}
	if d := treetest.Diff(before, treetest.Snapshot(t, dir)); len(d) != 0 {
		t.Errorf("reading commands changed the folder:\n%s", strings.Join(d, "\n"))
	}
	if _, err := os.Stat(filepath.Join(folderCache(t, dir), "index")); err != nil {
		t.Errorf("no index copy in the cache folder: %v", err)
	}
}

// TestCacheDirUnwritable: a cache directory that cannot be made costs the
// next start a full read, nothing else: the answer is the same, and
// nothing is said about it.
func TestCacheDirUnwritable(t *testing.T) {
	dir := settledSample(t)
	want := newCLI(t, nil).ok("--store", dir, "retrieve", "--json", "想去海边玩")
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, []byte("in the cache directory's way"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, map[string]string{"RECALL_CACHE_DIR": blocker})
	for _, args := range [][]string{
		{"retrieve", "--json", "想去海边玩"},
		{"retrieve", "--json", "--embedder", "hash", "想去海边玩"},
	} {
		o := c.run(append([]string{"--store", dir}, args...)...)
		if o.code != 0 || o.stderr != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, o.code, o.stderr)
		}
		if len(args) == 3 && o.stdout != want {
			t.Errorf("answer without a cache differs:\n%s\nwant\n%s", o.stdout, want)
		}
	}
}

// TestCacheInFolder: --cache-in-folder keeps the copy in <folder>/.recall,
// as earlier versions did, and nothing in the user's cache directory.
func TestCacheInFolder(t *testing.T) {
	dir := settledSample(t)
	cacheHome := t.TempDir()
	c := newCLI(t, map[string]string{"RECALL_CACHE_DIR": cacheHome})
	c.ok("--store", dir, "--cache-in-folder", "retrieve", "海边")
	if _, err := os.Stat(filepath.Join(dir, ".recall", "index")); err != nil {
		t.Errorf("no copy in the folder: %v", err)
	}
	if names, _ := os.ReadDir(cacheHome); len(names) != 0 {
		t.Errorf("the user's cache directory holds %v", names)
	}
}

// TestWritesKeepFrontMatter: append and edit through recall on a note
// written by hand change its body and nothing of its front matter (issue
// 24: keys were sorted, comments dropped, 2024-01-05 became a time, 4.50
// became 4.5, and created/updated were added).
func TestWritesKeepFrontMatter(t *testing.T) {
	dir := t.TempDir()
	front := "---\n# my template\ntitle: \"Trip: Sanya\"  # quoted\ndate: 2024-01-05\nprice: 4.50\naliases: [Sanya]\nzeta: last\nalpha: first\n---\n"
	path := filepath.Join(dir, "trips", "Sanya.md")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(front+"The sea is blue.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, nil)
	c.ok("--store", dir, "append", "trips", "Sanya", "--text", "We went by train.")
	c.ok("--store", dir, "edit", "trips", "Sanya", "--old", "blue", "--new", "very blue")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := front + "The sea is very blue.\nWe went by train."; string(b) != want {
		t.Errorf("note after append and edit:\n%s\nwant\n%s", b, want)
	}
}
