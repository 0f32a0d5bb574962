package web

import (
	"slices"
	"strings"
	"testing"
)

// TestCollapsedOnPage: a query's kept hit shows the duplicates collapsed
// into it, as links, where the page shows the other evidence, and the
// page lists the items the CLI lists.
func TestCollapsedOnPage(t *testing.T) {
	ctx := tab(t)
	s := startServer(t)
	put(t, s, "shop", "milk", `{"content": "wombat oat milk on Friday"}`, 201)
	put(t, s, "notes", "milk", `{"content": "Wombat  OAT milk on friday"}`, 201)
	put(t, s, "notes", "bread", `{"content": "wombat oat bread on Friday"}`, 201)

	openPage(t, ctx, s.URL+"/")
	query(t, ctx, "wombat milk")
	items := pageItems(t, ctx, "#items")
	var texts []string
	for _, it := range items {
		texts = append(texts, it.Text)
	}
	all := strings.ToLower(strings.Join(texts, "\n---\n"))
	// One of the two copies is the hit, naming the other.
	if !strings.Contains(all, "collapsed shop:milk") && !strings.Contains(all, "collapsed notes:milk") || strings.Contains(all, "collapsed ,") {
		t.Errorf("query items:\n%s", all)
	}
	got := eval[[]string](t, ctx, `[...document.querySelectorAll('#items .collapsed a')].map(a => a.textContent)`)
	if len(got) != 1 || got[0] != "shop:milk" && got[0] != "notes:milk" {
		t.Errorf("collapsed links %v", got)
	}
	want := s.cli(t, "wombat milk")
	if got, w := pageIdents(items), idents(want.Items); !slices.Equal(got, w) {
		t.Errorf("page %v, CLI %v", got, w)
	}
}
