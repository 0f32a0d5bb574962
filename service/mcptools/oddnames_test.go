package mcptools

import (
	"encoding/json"
	"path/filepath"
	"runtime"
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
