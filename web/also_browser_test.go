package web

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestAlsoShowSwitches: each box of the query form's "Also show" group
// turns on its retrieve option (the answer changes as the option says),
// the page URL carries it, a reload keeps it and Back undoes it.
func TestAlsoShowSwitches(t *testing.T) {
	ctx := tab(t)
	s := startServer(t)
	put(t, s, "places", "Paris flat", `{"content": "quokka flat in Paris"}`, 201)
	put(t, s, "places", "Berlin flat", `{"content": "quokka flat in Berlin", "supersedes": ["[[places:Paris flat]]"]}`, 201)
	put(t, s, "work", "sprint", `{"content": "numbat sprint goal", "expires": "2001-01-01"}`, 201)
	put(t, s, "work", "goal", `{"content": "numbat quarter goal"}`, 201)
	put(t, s, "shop", "milk", `{"content": "wombat oat milk on Friday"}`, 201)
	put(t, s, "notes", "milk", `{"content": "Wombat  OAT milk on friday"}`, 201)
	filler := strings.Repeat("lorem ipsum dolor sit amet ", 90)
	note := "Intro. " + filler + "\n\n## Install\n\n### On Linux\nzebrafish with apt.\n" + filler + "\n\n## Usage\nRun it. " + filler
	body, _ := json.Marshal(map[string]string{"content": note})
	put(t, s, "notes", "guide", string(body), 201)

	// answer is every item of the rendered answer, kept or cut by the
	// budget: ident, then its text.
	answer := func() map[string]string {
		out := map[string]string{}
		for _, sel := range []string{"#items", "#dropped"} {
			for _, it := range pageItems(t, ctx, sel) {
				out[it.Ident] = strings.ToLower(it.Text)
			}
		}
		return out
	}
	for _, c := range []struct {
		box, query string
		before     func(map[string]string) bool // the answer with the box off
		after      func(map[string]string) bool // and on
	}{
		{"superseded", "quokka",
			func(a map[string]string) bool {
				_, ok := a["places:Paris flat"]
				return !ok && a["places:Berlin flat"] != ""
			},
			func(a map[string]string) bool {
				return strings.Contains(a["places:Paris flat"], "superseded by places:berlin flat")
			}},
		{"expired", "numbat",
			func(a map[string]string) bool { _, ok := a["work:sprint"]; return !ok && a["work:goal"] != "" },
			func(a map[string]string) bool {
				return strings.Contains(a["work:sprint"], "expired") && !strings.Contains(a["work:goal"], "expired")
			}},
		{"duplicates", "wombat milk",
			func(a map[string]string) bool {
				shop, okShop := a["shop:milk"]
				notes, okNotes := a["notes:milk"]
				return okShop != okNotes && strings.Contains(shop+notes, "collapsed")
			},
			func(a map[string]string) bool {
				return a["shop:milk"] != "" && a["notes:milk"] != "" && !strings.Contains(a["shop:milk"]+a["notes:milk"], "collapsed")
			}},
		{"whole", "zebrafish",
			func(a map[string]string) bool {
				g := a["notes:guide"]
				return strings.Contains(g, "§ install > on linux") && !strings.Contains(g, "intro.")
			},
			func(a map[string]string) bool {
				g := a["notes:guide"]
				return strings.Contains(g, "intro.") && strings.Contains(g, "zebrafish with apt") && !strings.Contains(g, "§")
			}},
	} {
		t.Run(c.box, func(t *testing.T) {
			openPage(t, ctx, s.URL+"/")
			query(t, ctx, c.query)
			if a := answer(); !c.before(a) {
				t.Fatalf("box off: %q", a)
			}
			if !eval[bool](t, ctx, `!!document.querySelector('#also #`+c.box+`')`) {
				t.Fatalf("no box #%s in the Also show group", c.box)
			}
			seq := resultSeq(t, ctx)
			click(t, ctx, "#"+c.box)
			waitResult(t, ctx, seq)
			if a := answer(); !c.after(a) {
				t.Errorf("box on: %q", a)
			}
			if h := eval[string](t, ctx, `location.hash`); !strings.Contains(h, "&"+c.box+"=1") {
				t.Errorf("the page URL does not carry the box: %s", h)
			}
			do(t, ctx, chromedp.Reload())
			waitFor(t, ctx, `document.body && document.body.dataset.app === 'ready'`)
			waitResult(t, ctx, 0)
			if !eval[bool](t, ctx, `document.querySelector('#`+c.box+`').checked`) {
				t.Errorf("after a reload the box is off")
			}
			if a := answer(); !c.after(a) {
				t.Errorf("after a reload: %q", a)
			}
			seq = resultSeq(t, ctx)
			do(t, ctx, chromedp.Evaluate[chromedp.Void](`history.back()`))
			waitResult(t, ctx, seq)
			if eval[bool](t, ctx, `document.querySelector('#`+c.box+`').checked`) {
				t.Errorf("after Back the box is still on")
			}
			if a := answer(); !c.before(a) {
				t.Errorf("after Back: %q", a)
			}
		})
	}
}
