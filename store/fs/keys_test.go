package fs

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/store"
)

// TestKeysReportsLikeAll puts notes All cannot map next to good ones and
// one with broken front matter: Keys reports the same unmappable paths as
// All, lists the broken note (it reads no file), and opens no entry file
// (a named pipe called x.md would block an open without O_NONBLOCK; a file
// without read permission would fail one).
func TestKeysReportsLikeAll(t *testing.T) {
	s := openTemp(t)
	root := s.root
	mustPut := func(c, n string) {
		if err := s.Put(ctx, store.Entry{Category: c, Name: n, Content: "fine"}); err != nil {
			t.Fatal(err)
		}
	}
	mustPut("a", "good")
	mustPut("a/b", "deep")
	mustPut(RootCategory, "top")
	writeFile(t, filepath.Join(root, "a", strings.Repeat("n", store.MaxNameBytes+1)+".md"), "x")   // a name the rules refuse
	writeFile(t, filepath.Join(root, strings.Repeat("f", store.MaxNameBytes+1), "inside.md"), "x") // a folder that cannot be a category
	writeFile(t, filepath.Join(root, RootCategory, "lost.md"), "x")                                // a note in a folder named _root
	writeFile(t, filepath.Join(root, "a", "broken.md"), "bad \xff byte")                           // content that cannot be read
	writeFile(t, filepath.Join(root, "a", "attachment.png"), "x")                                  // not a note: ignored
	writeFile(t, filepath.Join(root, "a", ".hidden.md"), "x")                                      // hidden: ignored
	if runtime.GOOS != "windows" {
		if err := os.Symlink(filepath.Join(root, "a", "good.md"), filepath.Join(root, "a", "link.md")); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(root, "a", "good.md"), 0); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(filepath.Join(root, "a", "good.md"), 0o644)
	}

	var allErrs, keyErrs []string
	var allKeys, keys []store.Key
	for e, err := range s.All(ctx) {
		switch {
		case err == nil:
			allKeys = append(allKeys, e.Key())
		case e.Name != "": // a note that maps to a key but cannot be read
			allKeys = append(allKeys, e.Key())
		default:
			allErrs = append(allErrs, err.Error())
		}
	}
	for k, err := range s.Keys(ctx, "") {
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("Keys error %v does not wrap ErrMalformed", err)
			}
			keyErrs = append(keyErrs, err.Error())
			continue
		}
		keys = append(keys, k)
	}
	if !slices.Equal(keyErrs, allErrs) {
		t.Errorf("Keys reported\n%q\nAll reported\n%q", keyErrs, allErrs)
	}
	if !slices.Equal(keys, allKeys) {
		t.Errorf("Keys listed %v, All %v", keys, allKeys)
	}
	if !slices.Contains(keys, store.Key{Category: "a", Name: "broken"}) {
		t.Errorf("the note with broken front matter is not listed: %v", keys)
	}
	if len(keyErrs) < 3 {
		t.Errorf("only %d unmappable notes reported: %q", len(keyErrs), keyErrs)
	}

	// One category: its own notes only, and the same reports for them.
	var inA []store.Key
	var errsA int
	for k, err := range s.Keys(ctx, "a") {
		if err != nil {
			errsA++
			continue
		}
		inA = append(inA, k)
	}
	want := []store.Key{{Category: "a", Name: "broken"}, {Category: "a", Name: "good"}}
	if !slices.Equal(inA, want) {
		t.Errorf("Keys(a) = %v, want %v", inA, want)
	}
	if wantErrs := map[bool]int{true: 2, false: 1}[runtime.GOOS != "windows"]; errsA != wantErrs {
		t.Errorf("Keys(a) reported %d unmappable notes, want %d (bad:name, link)", errsA, wantErrs)
	}
	var top []store.Key
	for k, err := range s.Keys(ctx, RootCategory) {
		if err != nil {
			t.Errorf("Keys(%s): %v", RootCategory, err)
		}
		top = append(top, k)
	}
	if !slices.Equal(top, []store.Key{{Category: RootCategory, Name: "top"}}) {
		t.Errorf("Keys(%s) = %v", RootCategory, top)
	}
}
