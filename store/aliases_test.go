package store

import (
	"slices"
	"testing"
)

func TestAliases(t *testing.T) {
	cases := []struct {
		extra map[string]any
		want  []string
	}{
		{nil, nil},
		{map[string]any{"aliases": []any{"An alias", " Tips ", "", 2024, "Tips"}}, []string{"An alias", "Tips", "2024"}},
		{map[string]any{"aliases": "Ana, Dr. Xu"}, []string{"Ana", "Dr. Xu"}},
		{map[string]any{"alias": "One", "aliases": []string{"Two"}}, []string{"Two", "One"}},
		{map[string]any{"aliases": map[string]any{"x": "y"}}, nil},
	}
	for _, c := range cases {
		if got := Aliases(Meta{Extra: c.extra}); !slices.Equal(got, c.want) {
			t.Errorf("Aliases(%v) = %q, want %q", c.extra, got, c.want)
		}
	}
}

func TestPropertyLinks(t *testing.T) {
	m := Meta{Extra: map[string]any{
		"up":         "[[Parent]]",
		"related":    []any{"[[A]]", " ![[B|b]] ", "plain", 3},
		"note":       "see [[C]] too",          // more than a link: text
		"nested":     []any{[]any{"Unquoted"}}, // YAML's [[Unquoted]]: not a link in Obsidian
		"supersedes": []any{"[[old]]"},         // recall's own key
		"aliases":    []any{"[[not a property link]]"},
	}}
	want := []string{"[[A]]", "![[B|b]]", "[[Parent]]"}
	if got := PropertyLinks(m); !slices.Equal(got, want) {
		t.Errorf("PropertyLinks = %q, want %q", got, want)
	}
}
