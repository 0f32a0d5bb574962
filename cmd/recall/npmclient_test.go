package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestMCPWithNPMClient drives `recall mcp` with a client this project did
// not write: the official TypeScript SDK's, from a small node script
// (testdata/npmclient/client.mjs), calling every tool with numbers,
// booleans and arrays. The TypeScript client also checks each
// structuredContent against the tool's output schema. .ci/run installs the
// SDK from npm; in CI (CI=true) a missing node or SDK fails the test.
func TestMCPWithNPMClient(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "npmclient"))
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	}
	if err != nil {
		msg := "the npm MCP client is not installed (" + err.Error() + "): run `npm install` in cmd/recall/testdata/npmclient, or bash .ci/run"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	store := copySample(t)
	want := newCLI(t, nil).ok("--store", store, "retrieve", "想去海边玩", "--limit", "3", "--no-budget", "--json")

	cmd := exec.Command(node, "client.mjs", recallBinary(t), store)
	cmd.Dir = dir
	cmd.Env = childEnv(t)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client: %v\nstderr:\n%s", err, stderr)
	}
	var report struct {
		Tools map[string]struct {
			InputSchema     map[string]any `json:"inputSchema"`
			HasOutputSchema bool           `json:"hasOutputSchema"`
		} `json:"tools"`
		Calls []struct {
			Name       string         `json:"name"`
			Args       map[string]any `json:"args"`
			IsError    bool           `json:"isError"`
			Text       string         `json:"text"`
			Structured map[string]any `json:"structured"`
			Thrown     string         `json:"thrown"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
	if len(report.Tools) != 8 {
		t.Errorf("tools: %v", report.Tools)
	}
	for name, tool := range report.Tools {
		if !tool.HasOutputSchema {
			t.Errorf("tool %s: no output schema", name)
		}
		for p, s := range tool.InputSchema["properties"].(map[string]any) {
			if _, ok := s.(map[string]any)["type"].(string); !ok {
				t.Errorf("tool %s: property %s is not one plain JSON type: %v", name, p, s)
			}
		}
	}
	wantErr := map[int]string{10: "limit must be between 1 and 1000, got 0", 11: "old_text does not occur in trips:三亚之行's content", 12: "entry not found", 15: "entry already exists; nothing was written"}
	for i, c := range report.Calls {
		if c.Thrown != "" {
			t.Errorf("call %d %s %v threw in the client: %s", i, c.Name, c.Args, c.Thrown)
			continue
		}
		if msg, bad := wantErr[i]; bad != c.IsError || (bad && !strings.Contains(c.Text, msg)) {
			t.Errorf("call %d %s %v: isError %v, text %q", i, c.Name, c.Args, c.IsError, c.Text)
		}
	}
	if len(report.Calls) != 16 {
		t.Fatalf("%d calls", len(report.Calls))
	}
	// The structured retrieve is the object `recall retrieve --json` prints.
	var cli map[string]any
	if err := json.Unmarshal([]byte(want), &cli); err != nil {
		t.Fatal(err)
	}
	if got := report.Calls[0].Structured; !reflect.DeepEqual(got, cli) {
		t.Errorf("MCP retrieve differs from the CLI's:\n%v\n%v", got, cli)
	}
	for _, it := range report.Calls[1].Structured["items"].([]any) {
		item := it.(map[string]any)
		if c := item["category"]; c != "trips" && c != "preferences" || item["source"] != "hit" {
			t.Errorf("filtered retrieve returned %v", item)
		}
	}
	if d := report.Calls[1].Structured["dropped"]; d == nil {
		t.Error("explain: true did not reach the server")
	}
	get := report.Calls[5].Structured
	if get["content"] != "written by the npm client\none more line" || !reflect.DeepEqual(get["meta"].(map[string]any)["tags"], []any{"a", "b"}) {
		t.Errorf("get after add, append, edit: %v", get)
	}
	p1, p2 := report.Calls[6].Structured, report.Calls[7].Structured
	e1, e2 := p1["entries"].([]any), p2["entries"].([]any)
	last, first := e1[len(e1)-1].(map[string]any), e2[0].(map[string]any)
	if len(e1) != 5 || len(e2) != 5 || p1["next_cursor"] == nil ||
		last["category"].(string)+"\x00"+last["name"].(string) >= first["category"].(string)+"\x00"+first["name"].(string) {
		t.Errorf("list pages: %v then %v", p1, p2)
	}
	if cats := report.Calls[8].Structured["categories"].([]any); len(cats) != 8 {
		t.Errorf("categories: %v", cats)
	}
	// add over an existing entry says what it replaced (validated by the
	// client against the output schema), and if_absent refuses it.
	up := report.Calls[14]
	if !reflect.DeepEqual(up.Structured["replaced"], map[string]any{"bytes": 14.0, "first_line": "first", "tags": []any{"x"}}) ||
		!strings.Contains(up.Text, `replaced 14 bytes, first line "first", tags x`) {
		t.Errorf("add over an existing entry: %q %v", up.Text, up.Structured)
	}
	if c := report.Calls[15]; !c.IsError || !strings.Contains(c.Text, "already exists") {
		t.Errorf("add with if_absent over an existing entry: %v %q", c.IsError, c.Text)
	}
}
