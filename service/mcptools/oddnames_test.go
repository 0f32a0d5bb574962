package mcptools

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/recallhq/recall/internal/zipsafe"
	"github.com/recallhq/recall/service"
	fsstore "github.com/recallhq/recall/store/fs"
)

// The retrieve, get and list tools give a mapped name as written in
// display_name, and no display_name for an ordinary one (issue 24: on main
// the retrieve tool's items had none).
func TestOddVaultDisplayNames(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the file system refuses these names")
	}
	vault := filepath.Join(t.TempDir(), "vault")
	if err := zipsafe.CopyTree(filepath.Join("..", "..", "importer", "testdata", "oddvault"), vault); err != nil {
		t.Fatal(err)
	}
	st, err := fsstore.Open(vault, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := service.New(st, service.Options{})
	t.Cleanup(func() { m.Close(); st.Close() })
	cs := connect(t, m)
	structured := func(name string, args map[string]any, v any) {
		t.Helper()
		res := callTool(t, cs, name, args)
		b, _ := json.Marshal(res.StructuredContent)
		if res.IsError || json.Unmarshal(b, v) != nil {
			t.Fatalf("%s: %s", name, b)
		}
	}
	var r struct {
		Items []map[string]any `json:"items"`
	}
	structured("retrieve", map[string]any{"query": "lighthouses keepers"}, &r)
	if len(r.Items) == 0 || r.Items[0]["name"] != "What is it%3F" || r.Items[0]["display_name"] != "Questions:What is it?" {
		t.Errorf("retrieve items: %v", r.Items)
	}
	r.Items = nil // json.Unmarshal would merge into the maps it holds
	structured("retrieve", map[string]any{"query": "home links", "limit": 1}, &r)
	if _, has := r.Items[0]["display_name"]; r.Items[0]["name"] != "Home" || has {
		t.Errorf("retrieve Home: %v", r.Items[0])
	}
	var e service.Entry
	structured("get", map[string]any{"category": "Questions", "name": "What is it?"}, &e)
	if e.DisplayName != "Questions:What is it?" {
		t.Errorf("get: %+v", e)
	}
	var page service.ListPage
	structured("list", map[string]any{"category": "Readwise"}, &page)
	if len(page.Entries) != 2 || page.Entries[0].DisplayName != "Readwise:Cut title." {
		t.Errorf("list: %+v", page.Entries)
	}
}

// The text answers a model reads show a mapped name as written, as
// display_name does: the retrieve tool's hits, links and their via, the
// get tool's head line and the list tool's lines; the content and its
// links stay as written in the note. On main they showed the identity
// (Questions:What is it%3F).
func TestOddVaultTextShowsNamesAsWritten(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the file system refuses these names")
	}
	vault := filepath.Join(t.TempDir(), "vault")
	if err := zipsafe.CopyTree(filepath.Join("..", "..", "importer", "testdata", "oddvault"), vault); err != nil {
		t.Fatal(err)
	}
	st, err := fsstore.Open(vault, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := service.New(st, service.Options{})
	t.Cleanup(func() { m.Close(); st.Close() })
	cs := connect(t, m)
	out := text(callTool(t, cs, "retrieve", map[string]any{"query": "lighthouses keepers"}))
	if !strings.HasPrefix(out, "[hit] Questions:What is it? (") {
		t.Errorf("retrieve:\n%s", out)
	}
	out = text(callTool(t, cs, "retrieve", map[string]any{"query": "home links", "budget_tokens": 4000}))
	for _, want := range []string{
		"[hit] _root:Home (",
		"\n[link via _root:Home] Questions:What is it?\n",
		"\n[link via _root:Home] Questions:Q3: plan\n",
		"\n[link via _root:Home] Readwise:Cut title.\n",
		"Links: [[What is it?]], [[Q3: plan]]", // the content as written
	} {
		if !strings.Contains(out, want) {
			t.Errorf("retrieve lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "[") && strings.Contains(line, "%") {
			t.Errorf("a header shows an identity: %q", line)
		}
	}
	if out := text(callTool(t, cs, "get", map[string]any{"category": "Questions", "name": "What is it?"})); !strings.HasPrefix(out, "Questions:What is it?") {
		t.Errorf("get:\n%s", out)
	}
	out = text(callTool(t, cs, "list", map[string]any{"category": "Readwise"}))
	if !strings.HasPrefix(out, "Readwise:Cut title. (") || !strings.Contains(out, "\nReadwise:Trailing%20 (") {
		t.Errorf("list (a name ending in a space keeps its identity):\n%s", out)
	}
}
