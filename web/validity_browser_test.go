package web

import (
	"slices"
	"strings"
	"testing"
)

// TestSupersessionOnPage: the entry view shows supersession both ways
// (what an entry supersedes, what supersedes it, with a notice), and a
// query's link to a superseded entry is marked with its successor.
func TestSupersessionOnPage(t *testing.T) {
	ctx := tab(t)
	s := startServer(t)
	put(t, s, "places", "Paris flat", `{"content": "quokka flat in Paris"}`, 201)
	put(t, s, "places", "Berlin flat", `{"content": "quokka flat in Berlin", "supersedes": ["[[places:Paris flat]]"], "expires": "2999-01-01"}`, 201)
	put(t, s, "notes", "move", `{"content": "quokka move, from [[places:Paris flat]]"}`, 201)

	openPage(t, ctx, s.URL+"/#/entry?c=places&n=Berlin%20flat")
	waitFor(t, ctx, `document.querySelector('#supersedes a')`)
	if got := eval[[]string](t, ctx, `[...document.querySelectorAll('#supersedes a')].map(a => a.textContent)`); !slices.Equal(got, []string{"places:Paris flat"}) {
		t.Errorf("Berlin flat supersedes %v on the page", got)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#superseded-notice').length`); n != 0 {
		t.Errorf("the current entry carries a superseded notice")
	}
	if d := eval[string](t, ctx, `document.querySelector('#entry-expires').textContent`); d != "2999-01-01" {
		t.Errorf("expires on the page: %q", d)
	}

	openPage(t, ctx, s.URL+"/#/entry?c=places&n=Paris%20flat")
	waitFor(t, ctx, `document.querySelector('#superseded-by a')`)
	if got := eval[[]string](t, ctx, `[...document.querySelectorAll('#superseded-by a')].map(a => a.textContent)`); !slices.Equal(got, []string{"places:Berlin flat"}) {
		t.Errorf("Paris flat superseded by %v on the page", got)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#superseded-notice').length`); n != 1 {
		t.Errorf("no superseded notice on a superseded entry")
	}

	openPage(t, ctx, s.URL+"/")
	query(t, ctx, "quokka")
	items := pageItems(t, ctx, "#items")
	var texts []string
	for _, it := range items {
		texts = append(texts, it.Text)
	}
	all := strings.ToLower(strings.Join(texts, "\n---\n"))
	if strings.Contains(all, "hit places:Paris flat") || !strings.Contains(all, "superseded by") || !strings.Contains(all, "supersedes") {
		t.Errorf("query items:\n%s", all)
	}
	want := s.cli(t, "quokka")
	if got, w := pageIdents(items), idents(want.Items); !slices.Equal(got, w) {
		t.Errorf("page %v, CLI %v", got, w)
	}
}
