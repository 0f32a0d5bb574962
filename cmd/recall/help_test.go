package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/docs/commands"
	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/index"
)

// TestEveryCommandHasAPage: the manual (docs/commands) has one page per
// command and none for a command that does not exist, --help prints the
// page, and the defaults a page states are the code's.
func TestEveryCommandHasAPage(t *testing.T) {
	root := newRootCmd(nil, nil, nil, func(string) string { return "" })
	names := []string{"recall"}
	for _, c := range root.Commands() {
		if c.Name() != "help" && c.Name() != "completion" {
			names = append(names, c.Name())
		}
	}
	pages := commands.Names()
	slices.Sort(names)
	if !slices.Equal(names, pages) {
		t.Fatalf("commands %v, pages %v", names, pages)
	}
	c := newCLI(t, nil)
	for _, n := range names {
		p, err := commands.Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		args := []string{"--help"}
		if n != "recall" {
			args = []string{n, "--help"}
		}
		out := c.ok(args...)
		if !strings.HasPrefix(out, p.Long+"\n") || !strings.Contains(out, "Examples:\n"+p.Example+"\n") && p.Example != "" {
			t.Errorf("recall %v does not print docs/commands/%s.md:\n%s", args, n, out)
		}
	}
	for _, c := range []struct{ page, want string }{
		{"serve", "(default " + defaultServeAddr + ","},
		{"import", `(default
    "` + importer.RootCategory + `")`},
		{"bench", "(default " + index.DefaultAnalyzer + ")"},
	} {
		if p, _ := commands.Lookup(c.page); !strings.Contains(p.Long, c.want) {
			t.Errorf("docs/commands/%s.md does not say %q", c.page, c.want)
		}
	}
}
