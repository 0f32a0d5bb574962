package fs

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// TestAllStampedFollowsAll: AllStamped yields the items of All, in the
// same order, with the same errors (unmappable files included), and
// reads only what fresh does not claim.
func TestAllStampedFollowsAll(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	s := mustOpen(t, root)
	for _, e := range []store.Entry{
		{Category: "a", Name: "one", Content: "1"},
		{Category: "a/b/c", Name: "deep", Content: "2"},
		{Category: RootCategory, Name: "top", Content: "3"},
		{Category: "z", Name: "last", Content: "4"},
	} {
		if err := s.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	write := func(rel, content string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/broken.md", "bad \xff byte")
	write("_root/inside.md", "cannot be mapped")
	write("bad\x01/x.md", "cannot be mapped")
	write(".hidden/x.md", "skipped")
	write("a/attachment.png", "skipped")
	if err := os.Symlink(filepath.Join(root, "a", "one.md"), filepath.Join(root, "a", "link.md")); err != nil {
		t.Fatal(err)
	}

	type item struct {
		key store.Key
		err string
	}
	var want []item
	for e, err := range s.All(ctx) {
		it := item{key: e.Key()}
		if err != nil {
			it.err = err.Error()
		}
		want = append(want, it)
	}
	for _, claim := range []bool{false, true} {
		var got []item
		asked := 0
		for e, err := range s.AllStamped(ctx, func(store.Key, string) bool { asked++; return claim }) {
			it := item{key: e.Entry.Key()}
			if err != nil {
				it.err = err.Error()
			}
			if e.Cached && len(got) < len(want) {
				it.err = want[len(got)].err // not read, so not found broken
			}
			got = append(got, it)
			if e.Cached != (claim && e.Stamp != "") {
				t.Errorf("claim %v: %v cached %v with stamp %q", claim, it.key, e.Cached, e.Stamp)
			}
			if err == nil && !e.Cached && e.Entry.Content == "" {
				t.Errorf("claim %v: %v not read", claim, it.key)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("claim %v: %d items, All yields %d:\n%v\n%v", claim, len(got), len(want), got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("claim %v: item %d is %+v, All's %+v", claim, i, got[i], want[i])
			}
		}
		if asked < 5 {
			t.Errorf("claim %v: fresh asked %d times", claim, asked)
		}
	}
}

// TestStamps: a stamp changes with every change of the file that could
// leave its content different, and is empty for a file changed at or
// after the walk's clock (racily clean).
func TestStamps(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	s := mustOpen(t, root)
	if err := s.Put(ctx, store.Entry{Category: "a", Name: "n", Content: "hello world"}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "a", "n.md")
	stamp := func() string {
		t.Helper()
		for e, err := range s.AllStamped(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			return e.Stamp
		}
		t.Fatal("no entry")
		return ""
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	time.Sleep(30 * time.Millisecond) // past the change time's tick
	s1 := stamp()
	if s1 == "" || s1 != stamp() {
		t.Fatalf("stamps of an unchanged file: %q, then %q", s1, stamp())
	}
	// Same size, same modification time: the change time tells (Linux).
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, bytes.Replace(b, []byte("hello"), []byte("jello"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	time.Sleep(30 * time.Millisecond)
	if s2 := stamp(); s2 == s1 && inodeSupported {
		t.Error("same-size edit with the modification time put back keeps the stamp")
	}
	// Changed at or after the clock: no stamp.
	future := time.Now().Add(time.Minute)
	if err := os.Chtimes(p, future, future); err != nil {
		t.Fatal(err)
	}
	if s3 := stamp(); s3 != "" {
		t.Errorf("racily clean file stamped %q", s3)
	}
}

// TestStampedIndexFile: the copy is saved and loaded whole, replaced
// atomically, absent as nil, and (kept in the folder) never read through a
// linked .recall.
func TestStampedIndexFile(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	s := mustOpen(t, root)
	if b, err := s.LoadStampedIndex(ctx); b != nil || err != nil {
		t.Fatalf("no copy: %q, %v", b, err)
	}
	for _, data := range [][]byte{[]byte("first copy"), bytes.Repeat([]byte("x"), 1<<20)} {
		if err := s.SaveStampedIndex(ctx, data); err != nil {
			t.Fatal(err)
		}
		if b, err := s.LoadStampedIndex(ctx); !bytes.Equal(b, data) || err != nil {
			t.Fatalf("loaded %d bytes, %v; saved %d", len(b), err, len(data))
		}
	}
	left, _ := filepath.Glob(filepath.Join(s.CacheDir(), ".index.tmp-*"))
	if len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}
	root2 := t.TempDir()
	if err := os.Symlink(s.CacheDir(), filepath.Join(root2, ".recall")); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(root2, &Options{CacheInFolder: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, err := s2.LoadStampedIndex(ctx); err == nil {
		t.Error("copy read through a linked .recall")
	}
	if err := s2.SaveStampedIndex(ctx, []byte("x")); err == nil {
		t.Error("copy written through a linked .recall")
	}
}
