package importer

import (
	"context"
	"fmt"
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
		{"stdin", "-", PathOptions{Stdin: strings.NewReader("{oops\n" + good)}, 1, 1, ""},
		{"no stdin", "-", PathOptions{}, 0, 0, "import -: no stdin"},
		{"the store itself", filepath.Join(dir, "vault"), PathOptions{Store: filepath.Join(dir, ".", "vault")}, 0, 0, "that folder is the store itself"},
		{"another store", filepath.Join(dir, "vault"), PathOptions{Store: filepath.Join(dir, "other")}, 1, 0, ""},
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

// Outcome fails an import only when it skipped everything it was given.
func TestOutcome(t *testing.T) {
	skip := []Skip{{Where: "a"}, {Where: "b"}}
	for _, tt := range []struct {
		plan *Plan
		rep  Report
		want string
	}{
		{&Plan{}, Report{}, ""}, // nothing to import
		{&Plan{Skipped: skip}, Report{Added: 1}, ""},
		{&Plan{Skipped: skip}, Report{Unchanged: 1}, ""},
		{&Plan{Skipped: skip[:1]}, Report{}, "import: nothing imported, all 1 item was skipped"},
		{&Plan{Skipped: skip}, Report{Rejected: skip[:1]}, "import: nothing imported, all 3 items were skipped"},
	} {
		err := tt.plan.Outcome(tt.rep)
		if got := fmt.Sprint(err); (tt.want == "" && err != nil) || (tt.want != "" && got != tt.want) {
			t.Errorf("%d skipped, %+v: %v, want %q", len(tt.plan.Skipped), tt.rep, err, tt.want)
		}
	}
}
