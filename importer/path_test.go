package importer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadPath(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := `{"category":"notes","name":"a","content":"x"}` + "\n"
	tests := []struct {
		name      string
		path      string
		opts      PathOptions
		items     int
		skipped   int
		errSubstr string
	}{
		{"vault", filepath.Join(dir, "vault"), PathOptions{RootCategory: "inbox"}, 1, 0, ""},
		// A .jsonl file whose first line is broken is still read line by line.
		{"jsonl broken first line", write("broken.jsonl", "{oops\n"+good), PathOptions{}, 1, 1, ""},
		{"empty file", write("empty.json", " \n"), PathOptions{}, 0, 0, ""},
		{"mcp memory in a .jsonl", write("memory.jsonl", `{"type":"entity","name":"Alice","entityType":"person","observations":["hi"]}`+"\n"), PathOptions{}, 1, 0, ""},
		{"unknown content", write("x.txt", "hello"), PathOptions{}, 0, 0, "not a folder or a .jsonl file"},
		{"forced format", write("y.txt", good), PathOptions{Format: FormatJSONL}, 1, 0, ""},
		{"missing", filepath.Join(dir, "nope"), PathOptions{}, 0, 0, "import: "},
	}
	write("vault/Note.md", "a note\n")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan, err := ReadPath(ctx, tt.path, tt.opts)
			if tt.errSubstr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errSubstr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.errSubstr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Items) != tt.items || len(plan.Skipped) != tt.skipped {
				t.Fatalf("%d items, %d skipped (%v); want %d, %d", len(plan.Items), len(plan.Skipped), plan.Skipped, tt.items, tt.skipped)
			}
		})
	}
	plan, err := ReadPath(ctx, filepath.Join(dir, "vault"), PathOptions{RootCategory: "inbox"})
	if err != nil || plan.Items[0].Entry.Category != "inbox" {
		t.Fatalf("vault root note: %+v, %v; want category inbox", plan, err)
	}
}
