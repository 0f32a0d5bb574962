package web

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSectionOnPage: a long note with headings comes back as the section
// that matched, and the item shows its heading path after the entry's
// identity (which still links to the whole entry).
func TestSectionOnPage(t *testing.T) {
	ctx := tab(t)
	s := startServer(t)
	filler := strings.Repeat("lorem ipsum dolor sit amet ", 90)
	note := "Intro. " + filler + "\n\n## Install\n\n### On Linux\nzebrafish with apt.\n" + filler + "\n\n## Usage\nRun it. " + filler
	body, _ := json.Marshal(map[string]string{"content": note})
	put(t, s, "notes", "guide", string(body), 201)

	openPage(t, ctx, s.URL+"/")
	query(t, ctx, "zebrafish")
	waitFor(t, ctx, `document.querySelector('#items li .item-section')`)
	if got := eval[string](t, ctx, `document.querySelector('#items li .item-section').textContent`); got != "§ Install > On Linux" {
		t.Errorf("section on the page: %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('#items li .ident').textContent`); got != "notes:guide" {
		t.Errorf("identity on the page: %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('#items li .content').textContent`); strings.Contains(got, "Intro.") || !strings.Contains(got, "zebrafish with apt") {
		t.Errorf("content on the page is not the section: %.80q", got)
	}
}
