//go:build linux

package bolt

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// quiet lets a check be recorded however recently the file changed: the
// test cannot wait verifiedQuiet after each write.
func quiet(t *testing.T) {
	old := verifiedQuiet
	verifiedQuiet = -time.Hour
	t.Cleanup(func() { verifiedQuiet = old })
}

// openCounting opens path and returns how many full checks that took.
func openCounting(t *testing.T, path string) (*Store, int64, error) {
	t.Helper()
	before := fileChecks.Load()
	s, err := Open(path, nil)
	return s, fileChecks.Load() - before, err
}

func mustOpenCounting(t *testing.T, path string) int64 {
	t.Helper()
	s, n, err := openCounting(t, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return n
}

// A file checked once is not read again at the next Open, until it
// changes: a write through the store, a write from outside, a file put in
// its place; a damaged file is still refused, and its record goes.
func TestVerifiedOnce(t *testing.T) {
	quiet(t)
	path, _ := damageFixture(t)
	if n := mustOpenCounting(t, path); n != 1 {
		t.Fatalf("first open: %d checks, want 1", n)
	}
	if _, err := os.Stat(path + verifiedSuffix); err != nil {
		t.Fatalf("no record after a check: %v", err)
	}
	if n := mustOpenCounting(t, path); n != 0 {
		t.Fatalf("second open of an unchanged file: %d checks, want 0", n)
	}

	// A write through the store.
	s, _, err := openCounting(t, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, store.Entry{Category: "c", Name: "n", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if n := mustOpenCounting(t, path); n != 1 {
		t.Fatalf("open after a write: %d checks, want 1", n)
	}
	if n := mustOpenCounting(t, path); n != 0 {
		t.Fatalf("open after that: %d checks, want 0", n)
	}

	// A write from outside that leaves the size and the modification time
	// as they were: the status-change time still moves.
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if n := mustOpenCounting(t, path); n != 1 {
		t.Fatalf("open after an outside rewrite: %d checks, want 1", n)
	}

	// Another file renamed into its place.
	other := path + ".copy"
	if err := os.WriteFile(other, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	if n := mustOpenCounting(t, path); n != 1 {
		t.Fatalf("open of a file put in its place: %d checks, want 1", n)
	}

	// Damage: the record does not let it through, and goes.
	if err := os.WriteFile(path, orig[:8192], 0o600); err != nil {
		t.Fatal(err)
	}
	_, n, err := openCounting(t, path)
	if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), "damaged") || n != 1 {
		t.Fatalf("open of a truncated file = %v after %d checks, want a damaged-file error after 1", err, n)
	}
	if _, err := os.Stat(path + verifiedSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the record outlived a failed check: %v", err)
	}
}

// A record that is damaged, or of another file, is not believed.
func TestVerifiedRecordDamaged(t *testing.T) {
	quiet(t)
	path, _ := damageFixture(t)
	mustOpenCounting(t, path)
	rec, err := os.ReadFile(path + verifiedSuffix)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rec {
		b := []byte(string(rec))
		b[i] ^= 0x10
		if err := os.WriteFile(path+verifiedSuffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if n := mustOpenCounting(t, path); n != 1 {
			t.Fatalf("record with byte %d flipped: %d checks, want 1", i, n)
		}
	}
	other, _ := damageFixture(t)
	mustOpenCounting(t, other)
	if err := os.Rename(other+verifiedSuffix, path+verifiedSuffix); err != nil {
		t.Fatal(err)
	}
	if n := mustOpenCounting(t, path); n != 1 {
		t.Fatalf("another file's record: %d checks, want 1", n)
	}
}

// A file written within verifiedQuiet of its check is checked again next
// time: a write after the check could carry the same coarse timestamps.
func TestVerifiedNotRecordedWhenRecent(t *testing.T) {
	path, _ := damageFixture(t)
	mustOpenCounting(t, path)
	if _, err := os.Stat(path + verifiedSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a check of a file written just now was recorded (%v)", err)
	}
	if n := mustOpenCounting(t, path); n != 1 {
		t.Fatalf("second open: %d checks, want 1", n)
	}
}
