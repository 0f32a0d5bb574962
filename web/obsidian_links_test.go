package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
)

// obsidianVault is a small vault written by hand, as Obsidian users write
// one: links in the wrong case, markdown links (relative, URL-escaped,
// with a heading), a bare name two notes hold, another two notes hold at
// the same distance, property links and aliases (issue 24).
var obsidianVault = map[string]string{
	"Internal links.md": "How links work.\n",
	"Guides/Start.md": "Onboarding: read [[internal links]], then [[guides/setup]] and [Setup](Setup.md), " +
		"[Tips](../Misc/Tips%20and%20tricks.md#Top), [site](https://example.com/x.md), ![pic](img.png), " +
		"[[Templates]], [[Dup]] and [[An alias]].\n",
	"Guides/Setup.md":           "---\nup: \"[[Start]]\"\nrelated: [\"[[Internal links]]\", \"[[Nope]]\"]\nnote: not [[a link]] here\n---\nSetup steps.\n",
	"Misc/Tips and tricks.md":   "---\naliases:\n  - An alias\n  - Tips\n---\nSome tips.\n",
	"Plugins/Templates.md":      "Templates plugin.\n",
	"Plugins/Core/Templates.md": "Core templates.\n",
	"A1/Dup.md":                 "one\n",
	"B1/Dup.md":                 "two\n",
}

// obsidianStores returns the vault opened in place and imported into bolt.
func obsidianStores(t *testing.T) map[string]store.Store {
	t.Helper()
	dir := t.TempDir()
	for p, content := range obsidianVault {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("RECALL_CACHE_DIR", t.TempDir())
	fs, err := fsstore.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	bolt, err := boltstore.Open(filepath.Join(t.TempDir(), "m.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bolt.Close() })
	n := 0
	for e, err := range fs.All(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if err := bolt.Put(context.Background(), e); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != len(obsidianVault) {
		t.Fatalf("%d notes read, want %d", n, len(obsidianVault))
	}
	return map[string]store.Store{"folder": fs, "bolt": bolt}
}

// Links resolve as Obsidian resolves them, in retrieve's injection, in
// /v1/links and in backlinks, on a folder store and on bolt. Every check
// here failed before issue 24: the case-mismatched, markdown, property and
// alias links were unresolved or not links, and [[Templates]] was left
// unresolved as ambiguous.
func TestObsidianLinks(t *testing.T) {
	for kind, st := range obsidianStores(t) {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			eng := retrieve.New(st, retrieve.Options{})
			res, err := eng.Retrieve(ctx, retrieve.Request{Query: "onboarding", Budget: retrieve.Unlimited})
			if err != nil {
				t.Fatal(err)
			}
			var items []string
			for _, it := range res.Items {
				items = append(items, string(it.Source)+" "+it.Category+":"+it.Name)
			}
			want := []string{
				"hit Guides:Start",
				"link _root:Internal links", // [[internal links]]: case ignored
				"link Guides:Setup",         // [[guides/setup]], and [Setup](Setup.md) once
				"link Misc:Tips and tricks", // ../Misc/Tips%20and%20tricks.md#Top
				"link Plugins:Templates",    // of two Templates, the shorter path
			}
			if !slices.Equal(items, want) {
				t.Errorf("items = %q\nwant %q", items, want)
			}
			// Dup: two notes at the same distance, which Obsidian picks by
			// load order: unresolved. The alias resolved (to a note already
			// injected); the URL and the image are no note links.
			if want := []string{"[[Dup]]"}; !slices.Equal(res.UnresolvedLinks, want) {
				t.Errorf("unresolved = %q, want %q", res.UnresolvedLinks, want)
			}

			mux := http.NewServeMux()
			mux.Handle("GET /v1/links/{category}/{name}", Links(eng))
			get := func(category, name string) LinksResult {
				t.Helper()
				rec := httptest.NewRecorder()
				mux.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/links/"+url.PathEscape(category)+"/"+url.PathEscape(name), nil))
				body, _ := io.ReadAll(rec.Body)
				var res LinksResult
				if rec.Code != 200 || json.Unmarshal(body, &res) != nil {
					t.Fatalf("GET %s:%s: %d %s", category, name, rec.Code, body)
				}
				return res
			}
			links := func(r LinksResult) (out []string) {
				for _, l := range r.Links {
					to := "?"
					if l.Resolved {
						to = l.Category + ":" + l.Name
					}
					out = append(out, l.Raw+" → "+to)
				}
				return out
			}
			backs := func(r LinksResult) (out []string) {
				for _, b := range r.Backlinks {
					out = append(out, b.Category+":"+b.Name)
				}
				return out
			}
			// Property links, in key order, before the content's.
			setup := get("Guides", "Setup")
			if want := []string{"[[Internal links]] → _root:Internal links", "[[Nope]] → ?", "[[Start]] → Guides:Start"}; !slices.Equal(links(setup), want) {
				t.Errorf("Setup's links = %q\nwant %q", links(setup), want)
			}
			start := get("Guides", "Start")
			wantStart := []string{
				"[[internal links]] → _root:Internal links",
				"[[guides/setup]] → Guides:Setup",
				"[Setup](Setup.md) → Guides:Setup",
				"[Tips](../Misc/Tips%20and%20tricks.md#Top) → Misc:Tips and tricks",
				"[[Templates]] → Plugins:Templates",
				"[[Dup]] → ?",
				"[[An alias]] → Misc:Tips and tricks",
			}
			if !slices.Equal(links(start), wantStart) {
				t.Errorf("Start's links = %q\nwant %q", links(start), wantStart)
			}
			if want := []string{"Guides:Setup"}; !slices.Equal(backs(start), want) {
				t.Errorf("Start's backlinks = %q, want %q", backs(start), want)
			}
			if want := []string{"Guides:Setup", "Guides:Start"}; !slices.Equal(backs(get("_root", "Internal links")), want) {
				t.Errorf("Internal links' backlinks = %q, want %q", backs(get("_root", "Internal links")), want)
			}
			if want := []string{"Guides:Start"}; !slices.Equal(backs(get("Misc", "Tips and tricks")), want) {
				t.Errorf("Tips' backlinks = %q, want %q", backs(get("Misc", "Tips and tricks")), want)
			}
		})
	}
}
