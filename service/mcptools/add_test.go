package mcptools

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/service"
)

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func text(res *mcp.CallToolResult) string { return res.Content[0].(*mcp.TextContent).Text }

// add over an existing entry says what it replaced; with if_absent it
// fails instead and writes nothing.
func TestAddSaysWhatItReplaced(t *testing.T) {
	m := newMemory(t)
	cs := connect(t, m)
	res := callTool(t, cs, "add", map[string]any{"category": "people", "name": "Emma", "content": "\nDesigner in Lisbon.\nLikes tea.", "tags": []string{"friend", "work"}})
	if res.IsError || text(res) != "added people:Emma" {
		t.Fatalf("first add: %q", text(res))
	}
	res = callTool(t, cs, "add", map[string]any{"category": "people", "name": "Emma", "content": "Moved to Porto."})
	want := `updated people:Emma (replaced 31 bytes, first line "Designer in Lisbon.", tags friend, work)`
	if res.IsError || text(res) != want {
		t.Errorf("update: %q, want %q", text(res), want)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var c service.Change
	if err := json.Unmarshal(b, &c); err != nil || c.Status != "updated" || c.Replaced == nil ||
		!reflect.DeepEqual(*c.Replaced, service.Replaced{Bytes: 31, FirstLine: "Designer in Lisbon.", Tags: []string{"friend", "work"}}) {
		t.Errorf("structured content %s (%v)", b, err)
	}

	res = callTool(t, cs, "add", map[string]any{"category": "people", "name": "Emma", "content": "Gone.", "if_absent": true})
	if !res.IsError || !strings.Contains(text(res), "already exists") || !strings.Contains(text(res), "nothing was written") {
		t.Errorf("if_absent over an existing entry: error %v, %q", res.IsError, text(res))
	}
	if e, err := m.Get(context.Background(), "people", "Emma"); err != nil || e.Content != "Moved to Porto." {
		t.Errorf("after a refused if_absent add: %q, %v", e.Content, err)
	}
	res = callTool(t, cs, "add", map[string]any{"category": "people", "name": "Noor", "content": "New.", "if_absent": true})
	if res.IsError || text(res) != "added people:Noor" {
		t.Errorf("if_absent on a new entry: %q", text(res))
	}
}

// Tool arguments follow the one key rule (internal/jsonkeys): a key twice
// or a case variant is a tool error naming it, and nothing is written.
func TestToolArgumentKeysOneRule(t *testing.T) {
	m := newMemory(t)
	cs := connect(t, m)
	for _, raw := range []string{
		`{"category":"p","name":"x","content":"a","content":"b"}`,
		`{"category":"p","name":"x","Content":"b","content":"a"}`,
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "add", Arguments: json.RawMessage(raw)})
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError || !strings.Contains(text(res), "ontent") {
			t.Errorf("%s: error %v, %q", raw, res.IsError, text(res))
		}
	}
	if _, err := m.Get(context.Background(), "p", "x"); err == nil {
		t.Error("a refused add wrote the entry")
	}
}

// add names the entries its content duplicates, in its text and its
// structured answer; retrieve's keep_duplicates keeps them.
func TestAddDuplicates(t *testing.T) {
	m := newMemory(t)
	cs := connect(t, m)
	callTool(t, cs, "add", map[string]any{"category": "shop", "name": "milk", "content": "Buy oat milk on Friday"})
	res := callTool(t, cs, "add", map[string]any{"category": "notes", "name": "milk", "content": "buy OAT milk  on friday"})
	if want := "added notes:milk\nduplicates: shop:milk"; res.IsError || text(res) != want {
		t.Fatalf("add: %q, want %q", text(res), want)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var c service.Change
	if err := json.Unmarshal(b, &c); err != nil || !reflect.DeepEqual(c.Duplicates, []string{"shop:milk"}) {
		t.Fatalf("structured content %s (%v)", b, err)
	}
	res = callTool(t, cs, "add", map[string]any{"category": "notes", "name": "bread", "content": "Buy oat bread on Friday"})
	if text(res) != "added notes:bread" {
		t.Fatalf("another value: %q", text(res))
	}
	for _, keep := range []bool{false, true} {
		res = callTool(t, cs, "retrieve", map[string]any{"query": "oat milk", "keep_duplicates": keep})
		b, _ = json.Marshal(res.StructuredContent)
		if got := strings.Contains(string(b), `"collapsed"`); got == keep {
			t.Fatalf("keep_duplicates %v: %s", keep, b)
		}
	}
}
