package bench

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "bench.json")
	if err := WriteFile(ok, func(w io.Writer) error { _, err := io.WriteString(w, "{}\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(ok); err != nil || string(b) != "{}\n" {
		t.Fatalf("file holds %q, %v", b, err)
	}
	// A render that fails half-way leaves no file at all.
	bad := filepath.Join(dir, "bench.svg")
	boom := errors.New("boom")
	err := WriteFile(bad, func(w io.Writer) error { io.WriteString(w, "<svg"); return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the render's", err)
	}
	if _, err := os.Stat(bad); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a failed render left a file: %v", err)
	}
	if err := WriteFile(filepath.Join(dir, "no", "such", "dir.json"), func(io.Writer) error { return nil }); err == nil {
		t.Fatal("no error for a file in a missing folder")
	}
}
