//go:build unix

package fs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// A named pipe called x.md used to hang every reader (issue 9).
func TestFIFONeverHangs(t *testing.T) {
	s := openTemp(t)
	writeFile(t, filepath.Join(s.root, "a", "ok.md"), "fine")
	fifo := filepath.Join(s.root, "a", "x.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	within(t, 5*time.Second, "Get of a named pipe", func() {
		if _, err := s.Get(ctx, "a", "x"); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("Get = %v, want ErrMalformed naming a named pipe", err)
		}
	})
	within(t, 5*time.Second, "All over a named pipe", func() {
		all, errs := collect(t, s)
		if len(all) != 1 || len(errs) != 1 || !strings.Contains(errs[0].Error(), fifo) || !errors.Is(errs[0], ErrMalformed) {
			t.Errorf("All = %v, errors %v; want a:ok and one error naming %s", keys(all), errs, fifo)
		}
	})
	within(t, 5*time.Second, "Put over a named pipe", func() {
		if err := s.Put(ctx, store.Entry{Category: "a", Name: "x", Content: "now a file"}); err != nil {
			t.Errorf("Put = %v", err)
		}
		if e, err := s.Get(ctx, "a", "x"); err != nil || e.Content != "now a file" {
			t.Errorf("Get after Put = %q, %v", e.Content, err)
		}
	})
}

// The vector cache's files get the entries' treatment: a named pipe never
// blocks a load, a link is never followed.
func TestVectorFileNotRegular(t *testing.T) {
	s := openTemp(t)
	dir := s.vectorDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "m.vec"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	within(t, 5*time.Second, "LoadVectors of a named pipe", func() {
		err := s.LoadVectors(ctx, "m", func(string, []float32) error { return nil })
		if !errors.Is(err, ErrMalformed) {
			t.Errorf("LoadVectors = %v, want ErrMalformed", err)
		}
	})
	outside := filepath.Join(t.TempDir(), "target")
	writeFile(t, outside, "not a vector file")
	if err := os.Symlink(outside, filepath.Join(dir, "n.vec")); err != nil {
		t.Fatal(err)
	}
	key := strings.Repeat("ab", 32)
	if err := s.PutVectors(ctx, "n", []string{key}, [][]float32{{1}}); !errors.Is(err, ErrMalformed) {
		t.Errorf("PutVectors through a link = %v, want ErrMalformed", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "not a vector file" {
		t.Errorf("the link's target changed: %q", b)
	}
}

// A named pipe where the index copy's probe file belongs
// (index.clock in the cache folder) must not hang AllStamped: the walk's
// time is then the system clock's, before which the note just written is
// not, so it is read.
func TestFIFOProbeNeverHangs(t *testing.T) {
	s := openTemp(t)
	writeFile(t, filepath.Join(s.root, "a", "ok.md"), "fine")
	if err := os.MkdirAll(s.CacheDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(s.CacheDir(), "index.clock"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	within(t, 5*time.Second, "AllStamped beside a named pipe probe", func() {
		n := 0
		for it, err := range s.AllStamped(ctx, func(store.Key, string) bool { return true }) {
			if err != nil || it.Cached || it.Stamp != "" || it.Entry.Content != "fine" {
				t.Errorf("AllStamped = %+v, %v; want a:ok read, without a stamp", it, err)
			}
			n++
		}
		if n != 1 {
			t.Errorf("AllStamped yielded %d items, want 1", n)
		}
	})
}
