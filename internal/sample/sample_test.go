package sample

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// What a retrieve on the checkout's sample leaves behind (.recall) must
// not reach a test's copy; every note must.
func TestCopyNotesLeavesOutDotFiles(t *testing.T) {
	src := t.TempDir()
	for name, body := range map[string]string{
		"trips/海边.md":         "想去海边玩",
		"_root.md":            "top",
		".recall/index":       "stale copy",
		"notes/.hidden.md":    "hidden",
		"a/b/c/Kyoto Trip.md": "deep",
	} {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dst := filepath.Join(t.TempDir(), "memory")
	if err := CopyNotes(dst, src); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dst, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	})
	slices.Sort(got)
	want := []string{"_root.md", "a/b/c/Kyoto Trip.md", "trips/海边.md"}
	if !slices.Equal(got, want) {
		t.Fatalf("copied %q, want %q", got, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "trips", "海边.md")); string(b) != "想去海边玩" {
		t.Fatalf("content %q", b)
	}
}

// The sample itself is there and holds notes.
func TestCopy(t *testing.T) {
	dir := Copy(t)
	if _, err := os.Stat(filepath.Join(dir, ".recall")); err == nil {
		t.Fatal(".recall copied")
	}
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) < 3 {
		t.Fatalf("sample copy: %v, %d entries", err, len(ents))
	}
}

// Dir is the checkout's sample memory, also in a test built with
// -trimpath (cmd/recall's TestReadmeSetupCommands runs this one so).
func TestDirIsTheSample(t *testing.T) {
	notes, err := filepath.Glob(filepath.Join(Dir(), "*", "*.md"))
	if err != nil || len(notes) == 0 {
		t.Fatalf("Dir() = %s holds no notes (%v)", Dir(), err)
	}
}
