// Package sample gives tests a private copy of the sample memory that
// ships with the repository (examples/memory).
//
// The copy holds the sample's notes only: files and folders whose names
// start with a dot are left out, so that a .recall/ an earlier version of
// recall left in the checkout (reading no longer writes one: see store/fs,
// "Cache folder") never reaches a test. Tests that read the sample through
// a store use a copy, never the checkout itself, since a store written to
// writes beside the notes.
package sample

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Dir is the sample memory's folder in the checkout. Read it only through
// Copy.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	if filepath.IsAbs(file) {
		return filepath.Join(filepath.Dir(file), "..", "..", "examples", "memory")
	}
	// Built with -trimpath, file is module-relative: the checkout is the
	// nearest folder above the test's (a package folder) with go.mod.
	dir, err := os.Getwd()
	if err != nil {
		return filepath.Join("examples", "memory")
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			if _, err := os.Stat(filepath.Join(d, "examples", "memory")); err == nil {
				return filepath.Join(d, "examples", "memory")
			}
		}
		if filepath.Dir(d) == d {
			return filepath.Join(dir, "examples", "memory")
		}
	}
}

// Copy copies the sample memory into a new folder under t.TempDir and
// returns the folder's path ("…/memory").
func Copy(t testing.TB) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "memory")
	if err := CopyNotes(dst, Dir()); err != nil {
		t.Fatal(err)
	}
	return dst
}

// CopyNotes copies the tree at src to dst, leaving out every file and
// folder whose name starts with a dot. dst must not exist.
func CopyNotes(dst, src string) error {
	if err := os.Mkdir(dst, 0o755); err != nil {
		return err
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path == src {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.Mkdir(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
