package commands

import (
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       Page
		err        string
	}{
		{
			name: "fences dropped from the help, examples kept verbatim, later sections ignored",
			text: "# recall x\n\nDo x\n\nX does x:\n\n```text\n  a   one\n  b   two\n```\n\nThen more.\n\n## Examples\n\n```sh\n  recall x\n  recall x --y\n```\n\n## Notes\n\nFor readers only.\n",
			want: Page{Short: "Do x", Long: "X does x:\n\n  a   one\n  b   two\n\nThen more.", Example: "  recall x\n  recall x --y"},
		},
		{
			name: "no examples",
			text: "# recall\n\nThe root\n\nLong text.\n",
			want: Page{Short: "The root", Long: "Long text."},
		},
		{
			name: "a fence-like line with text stays",
			text: "# recall x\n\nS\n\nuse ```code``` here\n",
			want: Page{Short: "S", Long: "use ```code``` here"},
		},
		{name: "no title", text: "recall x\n\nS\n", err: "title"},
		{name: "no summary", text: "# recall x\n\n\nLong\n", err: "summary"},
		{name: "examples without a block", text: "# recall x\n\nS\n\nL\n\n## Examples\n\n  recall x\n", err: "```sh"},
		{name: "examples block not closed", text: "# recall x\n\nS\n\nL\n\n## Examples\n\n```sh\n  recall x\n", err: "not closed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Parse = %#v, %v\nwant %#v", got, err, tt.want)
			}
		})
	}
}

// Every page of the manual parses, and its title names its file.
func TestPages(t *testing.T) {
	names := Names()
	if !slices.Contains(names, "recall") || !slices.Contains(names, "retrieve") {
		t.Fatalf("Names = %v", names)
	}
	for _, n := range names {
		p, err := Lookup(n)
		if err != nil {
			t.Error(err)
			continue
		}
		if p.Long == "" {
			t.Errorf("%s: no help text", n)
		}
		b, _ := pages.ReadFile(n + ".md")
		title := "# recall " + n
		if n == "recall" {
			title = "# recall"
		}
		if first, _, _ := strings.Cut(string(b), "\n"); first != title {
			t.Errorf("%s.md: title %q, want %q", n, first, title)
		}
	}
	if _, err := Lookup("nope"); err == nil {
		t.Error("Lookup of a command without a page succeeded")
	}
}
