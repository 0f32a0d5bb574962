package store_test

import (
	"slices"
	"testing"

	"github.com/recallhq/recall/store"
)

// TestInlineTags: Obsidian's body tags, and the look-alikes that are not
// tags (headings, numbers, URLs, links, code).
func TestInlineTags(t *testing.T) {
	for _, c := range []struct {
		name, content string
		want          []string
	}{
		{"none", "no tags here", nil},
		{"start and middle", "#alpha at the start, then #beta and #gamma.", []string{"alpha", "beta", "gamma"}},
		{"nested", "see #area/sub-topic and #snake_case/", []string{"area/sub-topic", "snake_case"}},
		{"unicode and emoji", "旅行 #海边 and #🚀launch and #café，then", []string{"海边", "🚀launch", "café"}},
		{"repeat in other case", "#Project then #project and #PROJECT", []string{"Project"}},
		{"heading", "# Heading\n## Sub heading\n###", nil},
		{"heading with a tag", "## Plans #todo", []string{"todo"}},
		{"numbers", "issue #123 and #2024 but #y1984 and #1-2", []string{"y1984", "1-2"}},
		{"url anchor", "https://example.com/page#anchor and example.com/#top", nil},
		{"markdown link anchor", "[jump](#Section) and [[Note#Heading]] and [[#Heading]]", nil},
		{"inside a word", "C#sharp and a#b", nil},
		{"inline code", "run `#notatag` and ``#nor `this` one`` but #yes", []string{"yes"}},
		{"unclosed backtick", "a ` then #tag", []string{"tag"}},
		// One rule with links and sections (internal/mdcode): a code span
		// runs over a line break within its paragraph (on main #not was a
		// tag), not past a blank line.
		{"inline code over a line break", "run `this\n#not` but #yes", []string{"yes"}},
		{"no inline code past a blank line", "a `b\n\n#tag c`", []string{"tag"}},
		{"fenced code", "before #one\n```go\n#not\n```\n~~~\n#neither\n~~~\nafter #two", []string{"one", "two"}},
		{"unclosed fence", "#one\n```\n#not", []string{"one"}},
		{"longer closing fence", "````\n```\n#not\n````\n#two", []string{"two"}},
		{"indented fence up to three spaces", "   ```\n#not\n   ```\n#two", []string{"two"}},
		{"list and quote", "- #item\n> #quoted\n\t#tabbed", []string{"item", "quoted", "tabbed"}},
		{"lone hash", "a # b #", nil},
		{"CRLF", "one #crlf\r\ntwo", []string{"crlf"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := store.InlineTags(c.content); !slices.Equal(got, c.want) {
				t.Errorf("InlineTags(%q) = %q, want %q", c.content, got, c.want)
			}
		})
	}
}

// TestEntryTags: metadata tags first, then inline ones they lack (in any
// case); the metadata's own slice when the content has none.
func TestEntryTags(t *testing.T) {
	meta := []string{"work", "Project"}
	e := store.Entry{Content: "plain text", Meta: store.Meta{Tags: meta}}
	if got := store.EntryTags(e); &got[0] != &meta[0] {
		t.Errorf("no inline tags: got a copy %q", got)
	}
	e.Content = "#project notes about #harbor and #work"
	if got, want := store.EntryTags(e), []string{"work", "Project", "harbor"}; !slices.Equal(got, want) {
		t.Errorf("EntryTags = %q, want %q", got, want)
	}
	if !slices.Equal(meta, []string{"work", "Project"}) {
		t.Errorf("EntryTags changed Meta.Tags: %q", meta)
	}
	if got := store.EntryTags(store.Entry{}); got != nil {
		t.Errorf("empty entry: %q", got)
	}
}
