package fs

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/treetest"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/storetest"
)

// vaultFixture writes a small vault (notes at the top and nested, an
// .obsidian folder, an attachment), its times an hour back so that no
// file is racily clean, and returns its root.
func vaultFixture(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "vault")
	files := map[string]string{
		"Welcome.md":                 "---\ntags: [start]\n---\nHello [[ideas:Sea]].\n",
		"ideas/Sea.md":               "The sea at Sanya is very blue.\n",
		"ideas/deep/Kayak.md":        "---\n# a comment\ndate: 2024-01-05\n---\nKayaking in Halong Bay.\n",
		".obsidian/workspace.json":   "{}",
		"attachments/photo.png":      "not really a png",
		"ideas/.hidden-draft.md.bak": "x",
	}
	past := time.Now().Add(-time.Hour)
	for p, c := range files {
		path := filepath.Join(root, filepath.FromSlash(p))
		writeFile(t, path, c)
		if err := os.Chtimes(path, past, past); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestReadsLeaveTheFolderAlone: everything a reader does (walks, the
// index copy's load and save, the vector cache) writes nothing into the
// folder: no file, no dot-folder, no touched time.
func TestReadsLeaveTheFolderAlone(t *testing.T) {
	root := vaultFixture(t)
	before := treetest.Snapshot(t, root)
	s := mustOpen(t, root)
	if strings.HasPrefix(s.CacheDir(), root) {
		t.Fatalf("cache folder %s is in the folder", s.CacheDir())
	}
	for range 2 {
		var stamped int
		for it, err := range s.AllStamped(ctx, func(store.Key, string) bool { return false }) {
			if err != nil {
				t.Fatal(err)
			}
			if it.Stamp != "" {
				stamped++
			}
		}
		if stamped != 3 {
			t.Errorf("%d of 3 notes stamped", stamped)
		}
		if err := s.SaveStampedIndex(ctx, []byte("copy")); err != nil {
			t.Fatal(err)
		}
		if b, err := s.LoadStampedIndex(ctx); string(b) != "copy" || err != nil {
			t.Fatalf("LoadStampedIndex = %q, %v", b, err)
		}
		storetest.MustPutVectors(t, s, "m", []string{storetest.VectorKey(1)}, [][]float32{{1, 2}})
		if got := storetest.LoadAll(t, s, "m"); len(got) != 1 {
			t.Fatalf("vectors: %v", got)
		}
		if err := s.DeleteVectors(ctx, "m", []string{storetest.VectorKey(1)}); err != nil {
			t.Fatal(err)
		}
		collect(t, s)
		for _, err := range s.Keys(ctx, "") {
			if err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Get(ctx, "ideas", "Sea"); err != nil {
			t.Fatal(err)
		}
	}
	if d := treetest.Diff(before, treetest.Snapshot(t, root)); len(d) != 0 {
		t.Errorf("reads changed the folder:\n%s", strings.Join(d, "\n"))
	}
	if _, err := os.Stat(filepath.Join(s.CacheDir(), indexFile)); err != nil {
		t.Errorf("no index copy in the cache folder: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(s.CacheDir(), "folder")); err != nil || string(b) != s.root+"\n" {
		t.Errorf("the cache folder's note of its folder: %q, %v", b, err)
	}
}

// TestCacheFolderPerFolder: two folders never share a cache; a folder
// reached through a link is the same folder; a copy, or the folder moved
// elsewhere, gets a fresh cache.
func TestCacheFolderPerFolder(t *testing.T) {
	parent := t.TempDir()
	a, b := filepath.Join(parent, "notes"), filepath.Join(parent, "other", "notes")
	for _, d := range []string{a, b} {
		writeFile(t, filepath.Join(d, "x.md"), "same content")
	}
	cache := func(root string) string {
		t.Helper()
		s, err := Open(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		return s.CacheDir()
	}
	ca, cb := cache(a), cache(b)
	if ca == cb {
		t.Fatalf("two folders share the cache folder %s", ca)
	}
	base := os.Getenv("RECALL_CACHE_DIR")
	for _, c := range []string{ca, cb} {
		if filepath.Dir(c) != filepath.Join(base, "folders") || !strings.HasPrefix(filepath.Base(c), "notes-") {
			t.Errorf("cache folder %s, want %s/folders/notes-<hex>", c, base)
		}
	}
	if runtime.GOOS != "windows" {
		link := filepath.Join(parent, "link")
		if err := os.Symlink(a, link); err != nil {
			t.Fatal(err)
		}
		if c := cache(link); c != ca {
			t.Errorf("through a link: %s, want %s", c, ca)
		}
	}
	if runtime.GOOS != "windows" {
		cp := filepath.Join(parent, "copy")
		if out, err := exec.Command("cp", "-a", a, cp).CombinedOutput(); err != nil {
			t.Fatalf("cp -a: %v %s", err, out)
		}
		if c := cache(cp); c == ca {
			t.Error("a copy shares its original's cache")
		}
	}
	moved := filepath.Join(parent, "moved")
	if err := os.Rename(a, moved); err != nil {
		t.Fatal(err)
	}
	if c := cache(moved); c == ca {
		t.Error("a moved folder kept the cache of its old place")
	}
	s, err := Open(moved, &Options{CacheDir: filepath.Join(parent, "mine")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.CacheDir(), filepath.Join(parent, "mine", "folders")+string(filepath.Separator)) {
		t.Errorf("Options.CacheDir: cache folder %s", s.CacheDir())
	}
	in, err := Open(moved, &Options{CacheInFolder: true, CacheDir: filepath.Join(parent, "mine")})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if in.CacheDir() != filepath.Join(in.root, ".recall") {
		t.Errorf("Options.CacheInFolder: cache folder %s", in.CacheDir())
	}
}

// TestCacheUnwritable: a cache folder that cannot be made (its place is
// taken by a file, which stops root too) costs speed only: every note is
// read, saves fail, loads find nothing, and the folder is untouched.
func TestCacheUnwritable(t *testing.T) {
	root := vaultFixture(t)
	blocker := filepath.Join(t.TempDir(), "file")
	writeFile(t, blocker, "a file where the cache directory belongs")
	before := treetest.Snapshot(t, root)
	s, err := Open(root, &Options{CacheDir: blocker})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var names []string
	for it, err := range s.AllStamped(ctx, func(store.Key, string) bool { return true }) {
		if err != nil || it.Cached || it.Entry.Content == "" {
			t.Errorf("AllStamped = %+v, %v; want every note read", it, err)
		}
		names = append(names, it.Entry.Name)
	}
	if slices.Sort(names); !slices.Equal(names, []string{"Kayak", "Sea", "Welcome"}) {
		t.Errorf("AllStamped read %q", names)
	}
	if err := s.SaveStampedIndex(ctx, []byte("x")); err == nil {
		t.Error("SaveStampedIndex into an unwritable cache succeeded")
	}
	if b, err := s.LoadStampedIndex(ctx); b != nil || err != nil {
		t.Errorf("LoadStampedIndex = %q, %v; want nothing", b, err)
	}
	if err := s.PutVectors(ctx, "m", []string{storetest.VectorKey(1)}, [][]float32{{1}}); err == nil {
		t.Error("PutVectors into an unwritable cache succeeded")
	}
	if got := storetest.LoadAll(t, s, "m"); len(got) != 0 {
		t.Errorf("LoadVectors: %v", got)
	}
	if d := treetest.Diff(before, treetest.Snapshot(t, root)); len(d) != 0 {
		t.Errorf("the folder changed:\n%s", strings.Join(d, "\n"))
	}
}

// TestLegacyVectorsAdopted: the vector file an earlier recall kept in
// <root>/.recall is copied into the cache folder once (embeddings cost
// money) and never changed; damage in it is dropped from the copy, as
// from any vector file.
func TestLegacyVectorsAdopted(t *testing.T) {
	root := t.TempDir()
	old, err := Open(root, &Options{CacheInFolder: true})
	if err != nil {
		t.Fatal(err)
	}
	storetest.MustPutVectors(t, old, "m", []string{storetest.VectorKey(1), storetest.VectorKey(2)}, [][]float32{{1}, {2}})
	old.Close()
	legacy := filepath.Join(root, ".recall", "vectors", vectorStem("m")+vectorExt)
	b, err := os.ReadFile(legacy)
	if err != nil {
		t.Fatal(err)
	}
	// A torn last record, as a crash leaves.
	if err := os.WriteFile(legacy, b[:len(b)-2], 0o644); err != nil {
		t.Fatal(err)
	}
	before := treetest.Snapshot(t, root)
	s := mustOpen(t, root)
	if got := storetest.LoadAll(t, s, "m"); len(got) != 1 || got[storetest.VectorKey(1)] == nil {
		t.Fatalf("adopted vectors: %v", got)
	}
	storetest.MustPutVectors(t, s, "m", []string{storetest.VectorKey(3)}, [][]float32{{3}})
	s2 := mustOpen(t, root)
	if got := storetest.LoadAll(t, s2, "m"); len(got) != 2 || got[storetest.VectorKey(3)] == nil {
		t.Fatalf("after a put: %v", got)
	}
	if d := treetest.Diff(before, treetest.Snapshot(t, root)); len(d) != 0 {
		t.Errorf("the old .recall changed:\n%s", strings.Join(d, "\n"))
	}
	// A model the old folder never had stays empty, and makes nothing.
	if got := storetest.LoadAll(t, s2, "other"); len(got) != 0 {
		t.Errorf("other model: %v", got)
	}
	if _, err := os.Stat(filepath.Join(s2.vectorDir(), vectorStem("other")+vectorExt)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("loading an unknown model made a file: %v", err)
	}
}

// TestStampClockOnAnotherFileSystem: with the cache folder on another
// file system than the folder, the walk's time is the system clock less
// clockMargin: a file changed within the margin gets no stamp, an older
// one does.
func TestStampClockOnAnotherFileSystem(t *testing.T) {
	root := t.TempDir()
	other, err := os.MkdirTemp("/dev/shm", "recall-cache-")
	if err != nil {
		t.Skipf("no /dev/shm: %v", err)
	}
	defer os.RemoveAll(other)
	a, _ := os.Stat(root)
	b, _ := os.Stat(other)
	if sameDevice(a, b) || !stampsTrusted(root) {
		t.Skip("/dev/shm is on the temp folder's file system, or stamps are not trusted there")
	}
	defer func(m time.Duration) { clockMargin = m }(clockMargin)
	clockMargin = 200 * time.Millisecond
	s, err := Open(root, &Options{CacheDir: other})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	writeFile(t, filepath.Join(root, "n", "x.md"), "fresh")
	stamp := func() string {
		for it, err := range s.AllStamped(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			return it.Stamp
		}
		return "none"
	}
	if st := stamp(); st != "" {
		t.Errorf("a file changed just now got a stamp")
	}
	time.Sleep(2 * clockMargin)
	if st := stamp(); st == "" || st == "none" {
		t.Errorf("a file older than the margin got no stamp")
	}
	if _, err := os.Stat(filepath.Join(s.CacheDir(), clockFile)); err != nil {
		t.Errorf("no probe in the cache folder: %v", err)
	}
}
