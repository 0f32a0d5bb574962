package web

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/recallhq/recall/store"
)

// TestMappedNamesOnPage: a note whose name SPEC §1 refuses for new entries
// (a vault's "What is it?.md", in a folder "Q: misc") is shown as written
// on the page, in results, the entry view, its links and the category
// tree, not as its identity "Q%3A misc:What is it%3F" (issue 24: on main
// the page showed the escapes), while its links still open it.
func TestMappedNamesOnPage(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the file system refuses these names")
	}
	ctx := tab(t)
	s := startServer(t)
	dir := filepath.Join(s.Store, "Q: misc")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "What is it?.md"), []byte("Lighthouses and their keepers. See [[Q3: plan]].\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Q3: plan.md"), []byte("A plan for the third quarter.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	openPage(t, ctx, s.URL+"/")
	// The server follows the folder within about a second.
	for range 50 {
		query(t, ctx, "lighthouses keepers")
		if eval[bool](t, ctx, `!!document.querySelector('#items li[data-source=hit]')`) {
			break
		}
		do(t, ctx, chromedp.Sleep(100e6))
	}
	if got := eval[string](t, ctx, `document.querySelector('#items li[data-source=hit] .ident').textContent`); got != "Q: misc:What is it?" {
		t.Errorf("hit shown as %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('#items li[data-source=hit]').dataset.ident`); got != "Q%3A misc:What is it%3F" {
		t.Errorf("hit identity %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('#items li[data-source=link] .ident').textContent`); got != "Q: misc:Q3: plan" {
		t.Errorf("link shown as %q", got)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`#items li[data-source=hit] a.ident`)))
	waitFor(t, ctx, `!document.querySelector('#view-entry').hidden && document.querySelector('#entry-content') && document.querySelector('#backlinks, #view-entry .muted')`)
	if got := eval[string](t, ctx, `document.querySelector('#entry-title').innerText`); got != "Q: misc / What is it?" {
		t.Errorf("entry title %q", got)
	}
	if got := eval[string](t, ctx, `document.title`); got != "Q: misc:What is it? — recall" {
		t.Errorf("document title %q", got)
	}
	waitFor(t, ctx, `document.querySelector('#entry-content a.wikilink')`)
	if got := eval[string](t, ctx, `document.querySelector('#entry-content a.wikilink').title`); got != "Q: misc:Q3: plan" {
		t.Errorf("wiki-link title %q", got)
	}
	openPage(t, ctx, s.URL+"/#/browse")
	waitFor(t, ctx, `document.querySelector('#tree a') && document.querySelector('#entry-list')`)
	tree := eval[[]string](t, ctx, `[...document.querySelectorAll('#tree a')].map(a => a.firstChild.textContent)`)
	found := false
	for _, c := range tree {
		found = found || c == "Q: misc"
	}
	if !found {
		t.Errorf("category tree %v lacks Q: misc", tree)
	}
	waitFor(t, ctx, `[...document.querySelectorAll('#entry-list a')].some(a => a.textContent.includes('What is it'))`)
	names := eval[[]string](t, ctx, `[...document.querySelectorAll('#entry-list a')].map(a => a.textContent).filter(s => s.includes('What is it'))`)
	if len(names) != 1 || names[0] != "Q: misc:What is it?" {
		t.Errorf("browse list shows %v", names)
	}
}

// TestAsWrittenAgrees: the page's asWritten decodes identities exactly as
// store.UnescapeName does, the one mapping written twice (Go and the
// page's script).
func TestAsWrittenAgrees(t *testing.T) {
	ctx := tab(t)
	s := startServer(t)
	openPage(t, ctx, s.URL+"/")
	names := []string{"What is it?", "Q3: plan", "Notes.", "Trailing ", "CON", "nul", "100%3A", "100% sure", "%41", "%2f", "a|b", "x^2",
		"<tag>", `say "hi"`, `back\\slash`, "[draft]", "C# notes", "2*3", "tab\there", ".hidden", "三亚之行", "%%3F%", "100%"}
	var ids []string
	for _, n := range names {
		ids = append(ids, store.EscapeName(n))
	}
	b, _ := json.Marshal(ids)
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`window.__written = undefined; import('/assets/app.js').then((m) => { window.__written = `+string(b)+`.map(m.asWritten); })`))
	waitFor(t, ctx, `window.__written !== undefined`)
	got := eval[[]string](t, ctx, `window.__written`)
	for i, id := range ids {
		if i >= len(got) || got[i] != store.UnescapeName(id) || got[i] != names[i] {
			t.Errorf("asWritten(%q) = %q, want %q", id, got[min(i, len(got)-1)], store.UnescapeName(id))
		}
	}
}
