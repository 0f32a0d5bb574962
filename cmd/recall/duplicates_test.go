package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// checkDuplicatesNPM checks client.mjs's calls 33 to 35: the add of a
// copy names the original, retrieve collapses it, keep_duplicates keeps it.
func checkDuplicatesNPM(t *testing.T, addText string, add, def, keep map[string]any) {
	t.Helper()
	if d, _ := add["duplicates"].([]any); len(d) != 1 || d[0] != "shop:npm milk" || !strings.Contains(addText, "duplicates: shop:npm milk") {
		t.Errorf("add of a copy over MCP: %v %q", add, addText)
	}
	names := func(res map[string]any) (out []string) {
		items, _ := res["items"].([]any)
		for _, it := range items {
			m := it.(map[string]any)
			out = append(out, m["category"].(string)+":"+m["name"].(string))
		}
		return out
	}
	// The two copies: one kept, naming the other in collapsed, by default;
	// both with keep_duplicates. Other entries of the memory may match too.
	copies := func(res map[string]any) (out []map[string]any) {
		items, _ := res["items"].([]any)
		for _, it := range items {
			if m := it.(map[string]any); m["name"] == "npm milk" {
				out = append(out, m)
			}
		}
		return out
	}
	if got := copies(def); len(got) != 1 || fmt.Sprint(got[0]["collapsed"]) != "[shop:npm milk]" && fmt.Sprint(got[0]["collapsed"]) != "[notes:npm milk]" {
		t.Errorf("retrieve over MCP: %v", names(def))
	}
	if got := copies(keep); len(got) != 2 || got[0]["collapsed"] != nil || got[1]["collapsed"] != nil {
		t.Errorf("keep_duplicates over MCP: %v", names(keep))
	}
}

// TestAddAndRetrieveDuplicatesCLI: add prints one line naming the
// duplicates, retrieve shows collapsed=, --keep-duplicates the copies, on
// a folder and a bolt file.
func TestAddAndRetrieveDuplicatesCLI(t *testing.T) {
	c := newCLI(t, nil)
	for _, st := range []string{filepath.Join(t.TempDir(), "f"), filepath.Join(t.TempDir(), "m.db")} {
		if o := c.run("--store", st, "add", "shop", "milk", "--content", "Buy oat milk on Friday."); o.stderr != "added shop:milk\n" {
			t.Fatalf("%s first add: %+v", st, o)
		}
		if o := c.run("--store", st, "add", "notes", "milk", "--content", "buy OAT milk  on friday."); o.stderr != "added notes:milk\nduplicates: shop:milk\n" {
			t.Fatalf("%s copy: %+v", st, o)
		}
		if o := c.run("--store", st, "add", "notes", "bread", "--content", "Buy oat bread on Friday."); o.stderr != "added notes:bread\n" {
			t.Fatalf("%s another value: %+v", st, o)
		}
		out := c.ok("--store", st, "retrieve", "oat", "milk")
		if !strings.Contains(out, "collapsed=") || strings.Count(out, "milk\n") > 1 {
			t.Errorf("%s retrieve:\n%s", st, out)
		}
		if out := c.ok("--store", st, "retrieve", "oat", "milk", "--keep-duplicates"); strings.Contains(out, "collapsed=") {
			t.Errorf("%s --keep-duplicates:\n%s", st, out)
		}
	}
}
