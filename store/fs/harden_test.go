package fs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// within fails the test if fn does not return in time: the bugs these
// tests pin used to hang forever.
func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

// A folder store whose root vanished is unavailable, not empty (issue 9).
func TestRootVanished(t *testing.T) {
	s := openTemp(t)
	if err := s.Put(ctx, store.Entry{Category: "a", Name: "b", Content: "c"}); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(s.root); err != nil {
		t.Fatal(err)
	}
	var allErr error
	n := 0
	for _, err := range s.All(ctx) {
		n++
		allErr = err
	}
	if n != 1 || !errors.Is(allErr, store.ErrUnavailable) || !strings.Contains(allErr.Error(), s.root) {
		t.Errorf("All yielded %d items, last error %v; want one error wrapping ErrUnavailable naming the root", n, allErr)
	}
	if _, err := s.Get(ctx, "a", "b"); !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("Get = %v, want ErrUnavailable", err)
	}
	if _, err := s.Revision(ctx); !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("Revision = %v, want ErrUnavailable", err)
	}
	if err := s.Put(ctx, store.Entry{Category: "a", Name: "b", Content: "c"}); !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("Put = %v, want ErrUnavailable", err)
	}
	if _, err := os.Stat(s.root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a Put re-created the vanished root: %v", err)
	}
	if err := s.Delete(ctx, "a", "b"); !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("Delete = %v, want ErrUnavailable", err)
	}
	// Back again (remounted): the store works again.
	if err := os.MkdirAll(s.root, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Revision(ctx); err != nil {
		t.Errorf("Revision after the root came back = %v", err)
	}
}

// add over a folder that has the entry's file name gets a clear error
// (issue 9).
func TestPutOverFolder(t *testing.T) {
	s := openTemp(t)
	writeFile(t, filepath.Join(s.root, "a", "b.md", "inner.md"), "x")
	err := s.Put(ctx, store.Entry{Category: "a", Name: "b", Content: "y"})
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "is a folder") || !strings.Contains(err.Error(), filepath.Join(s.root, "a", "b.md")) {
		t.Errorf("Put over a folder = %v, want ErrMalformed naming the folder", err)
	}
	// A plain file where a category folder belongs.
	writeFile(t, filepath.Join(s.root, "plain"), "x")
	err = s.Put(ctx, store.Entry{Category: "plain/sub", Name: "n", Content: "y"})
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "category folder") {
		t.Errorf("Put below a plain file = %v, want ErrMalformed", err)
	}
	if _, err := s.Get(ctx, "plain/sub", "n"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Get below a plain file = %v, want ErrNotFound", err)
	}
}

// Notes at the root belong to RootCategory, both ways (issue 11).
func TestRootNotes(t *testing.T) {
	s := openTemp(t)
	writeFile(t, filepath.Join(s.root, "Welcome.md"), "hello")
	e, err := s.Get(ctx, RootCategory, "Welcome")
	if err != nil || e.Content != "hello" {
		t.Fatalf("Get root note = %q, %v", e.Content, err)
	}
	if err := s.Put(ctx, store.Entry{Category: RootCategory, Name: "Todo", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.root, "Todo.md")); err != nil {
		t.Errorf("Put of a root note did not write <root>/Todo.md: %v", err)
	}
	if p, _ := s.Path(RootCategory, "Todo"); p != filepath.Join(s.root, "Todo.md") {
		t.Errorf("Path = %s", p)
	}
	all, errs := collect(t, s)
	if got := keys(all); len(got) != 2 || len(errs) != 0 {
		t.Errorf("All = %v, %v", got, errs)
	}
	if err := s.Delete(ctx, RootCategory, "Todo"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.root); err != nil {
		t.Fatalf("Delete of the last root note removed the root: %v", err)
	}
}

// Nested categories are nested folders, created and removed level by level.
func TestNestedFolders(t *testing.T) {
	s := openTemp(t)
	if err := s.Put(ctx, store.Entry{Category: "trips/2024/spring", Name: "Kyoto Trip", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.root, "trips", "2024", "spring", "Kyoto Trip.md")); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, store.Entry{Category: "trips", Name: "index", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "trips/2024/spring", "Kyoto Trip"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.root, "trips", "2024")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("empty folders above the deleted entry kept: %v", err)
	}
	if _, err := os.Stat(filepath.Join(s.root, "trips", "index.md")); err != nil {
		t.Errorf("the parent's entry went: %v", err)
	}
}

// A file name that is not NFC cannot be reached under its NFC identity on
// a file system that keeps normalisation apart (Linux): reported, not
// hidden, not yielded under a name Get cannot find.
func TestNonNFCFileName(t *testing.T) {
	s := openTemp(t)
	writeFile(t, filepath.Join(s.root, "a", "Cafe\u0301.md"), "nfd on disk")
	all, errs := collect(t, s)
	if runtime.GOOS == "darwin" {
		t.Skip("macOS finds the file under either spelling")
	}
	if len(all) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "NFC") {
		t.Errorf("All = %v, %v; want one error about NFC", keys(all), errs)
	}
}

// On a case-insensitive file system a second identity that differs only
// by case is refused, never written over the first (SPEC §1). Linux is
// case-sensitive, so the store is told the file system folds case; the
// check it then makes (does the folder list the name in another case?)
// is the same.
func TestCaseInsensitiveRefusesCaseTwin(t *testing.T) {
	s, err := Open(t.TempDir(), &Options{Case: CaseInsensitive})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	put := func(cat, name, content string) error {
		return s.Put(ctx, store.Entry{Category: cat, Name: name, Content: content})
	}
	if err := put("Trips", "Kyoto", "first"); err != nil {
		t.Fatal(err)
	}
	for _, k := range [][2]string{{"Trips", "kyoto"}, {"trips", "Kyoto"}, {"TRIPS", "KYOTO"}} {
		err := put(k[0], k[1], "second")
		var fe *store.FieldError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), "case") {
			t.Errorf("Put %s:%s = %v, want a FieldError about case", k[0], k[1], err)
		}
	}
	if e, err := s.Get(ctx, "Trips", "Kyoto"); err != nil || e.Content != "first" {
		t.Errorf("first entry = %q, %v", e.Content, err)
	}
	// The exact identity still updates, and a new name is fine.
	if err := put("Trips", "Kyoto", "updated"); err != nil {
		t.Error(err)
	}
	if err := put("Trips", "Osaka", "new"); err != nil {
		t.Error(err)
	}
	// Auto-detection on this file system.
	s2, err := Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if runtime.GOOS == "linux" && s2.foldsCase() != CaseSensitive {
		t.Errorf("probe on Linux found %v, want CaseSensitive", s2.caseMode)
	}
	if got := probeCase(s.root); runtime.GOOS == "linux" && got != CaseSensitive {
		t.Errorf("probe by an existing name on Linux found %v, want CaseSensitive", got)
	}
}

// Puts and Deletes in nested categories race: a Delete removes every
// folder it leaves empty, up to the root, while a Put creates them level
// by level. Every Put must still succeed.
func TestPutDeleteNestedRace(t *testing.T) {
	s := openTemp(t)
	var wg sync.WaitGroup
	errc := make(chan error, 8)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 150 {
				cat := fmt.Sprintf("a/b%d/c", i%2)
				name := fmt.Sprintf("w%d", w)
				if err := s.Put(ctx, store.Entry{Category: cat, Name: name, Content: "x"}); err != nil {
					errc <- err
					return
				}
				if err := s.Delete(ctx, cat, name); err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	if names, _ := os.ReadDir(s.root); len(names) > 1 { // .recall may stay
		t.Errorf("folders left behind: %v", names)
	}
}

// Notes written under older, looser name rules stay readable and
// removable, under the identities of SPEC §1's name mapping (issue 24:
// until then they were "a:trailing " and so on, which an import could not
// write); only new writes of the names as written follow the new rules.
func TestLegacyNamesReadable(t *testing.T) {
	s := openTemp(t)
	for _, p := range []string{"con/x.md", "a/trailing..md", "a/trailing .md", "a/nul.md"} {
		writeFile(t, filepath.Join(s.root, filepath.FromSlash(p)), "old "+p)
	}
	all, errs := collect(t, s)
	want := []string{"%63on:x", "a:%6Eul", "a:trailing%20", "a:trailing%2E"}
	if got := keys(all); !slices.Equal(got, want) || len(errs) != 0 {
		t.Errorf("All = %q, %v; want %q", got, errs, want)
	}
	for i, k := range [][2]string{{"con", "x"}, {"a", "trailing."}, {"a", "trailing "}, {"a", "nul"}} {
		id := strings.SplitN(want[[]int{0, 3, 2, 1}[i]], ":", 2)
		for _, spelling := range [][2]string{k, {id[0], id[1]}} {
			e, err := s.Get(ctx, spelling[0], spelling[1])
			if err != nil || e.Key().String() != strings.Join(id, ":") {
				t.Errorf("Get %q:%q = %s, %v; want %s", spelling[0], spelling[1], e.Key(), err, strings.Join(id, ":"))
			}
		}
		if err := s.Put(ctx, store.Entry{Category: k[0], Name: k[1], Content: "new"}); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("Put %q:%q = %v, want ErrInvalid", k[0], k[1], err)
		}
		if err := s.Delete(ctx, k[0], k[1]); err != nil {
			t.Errorf("Delete %q:%q: %v", k[0], k[1], err)
		}
	}
}

// The store's own folder, .recall (lock file; the index copy and vector
// cache with Options.CacheInFolder), must not be a link out of the root
// either: a cloned memory could carry one.
func TestRecallDirLinkRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges")
	}
	for _, inFolder := range []bool{false, true} {
		outside := t.TempDir()
		root := t.TempDir()
		if err := os.Symlink(outside, filepath.Join(root, ".recall")); err != nil {
			t.Fatal(err)
		}
		s, err := Open(root, &Options{CacheInFolder: inFolder})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.Put(ctx, store.Entry{Category: "a", Name: "b", Content: "c"}); !errors.Is(err, ErrMalformed) {
			t.Errorf("in folder %v: Put = %v, want ErrMalformed about .recall", inFolder, err)
		}
		key := strings.Repeat("ab", 32)
		err = s.PutVectors(ctx, "m", []string{key}, [][]float32{{1}})
		if inFolder != errors.Is(err, ErrMalformed) {
			t.Errorf("in folder %v: PutVectors = %v", inFolder, err)
		}
		err = s.LoadVectors(ctx, "m", func(string, []float32) error { return nil })
		if inFolder != errors.Is(err, ErrMalformed) {
			t.Errorf("in folder %v: LoadVectors = %v", inFolder, err)
		}
		if names, _ := os.ReadDir(outside); len(names) != 0 {
			t.Errorf("in folder %v: the store wrote outside its root: %v", inFolder, names)
		}
	}
}
