package zipsafe

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestDecode(t *testing.T) {
	for in, want := range map[string]string{
		"Tom{U+0027}s notes.md":       "Tom's notes.md",
		"50% done{U+003B} maybe!.md":  "50% done; maybe!.md",
		"{U+1F30A} Beach.md":          "🌊 Beach.md",
		"plain.md":                    "plain.md",
		"{U+12} and {u+0027} and {x}": "{U+12} and {u+0027} and {x}", // not escapes: left alone
	} {
		if got := Decode(in); got != want {
			t.Errorf("Decode(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCopyTree(t *testing.T) {
	src := t.TempDir()
	if err := os.MkdirAll(filepath.Join(src, "a{U+003B}b"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(src, "a{U+003B}b", "x{U+0027}.md")
	if err := os.WriteFile(f, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(f, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "out")
	if err := CopyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	got := filepath.Join(dst, "a;b", "x'.md")
	data, err := os.ReadFile(got)
	if err != nil || string(data) != "hello" {
		t.Fatalf("%q %v", data, err)
	}
	if fi, _ := os.Stat(got); !fi.ModTime().Equal(mtime) {
		t.Errorf("mtime %v, want %v", fi.ModTime(), mtime)
	}
}
