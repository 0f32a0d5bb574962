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
	wantErr := map[int]string{10: "limit must be between 1 and 1000, got 0", 11: "old_text does not occur in trips:三亚之行's content", 12: "entry not found", 15: "entry already exists; nothing was written",
		19: `after invalid date "May 3rd"`, 26: "expires is not a date"}
	for i, c := range report.Calls {
		if c.Thrown != "" {
			t.Errorf("call %d %s %v threw in the client: %s", i, c.Name, c.Args, c.Thrown)
			continue
		}
		if msg, bad := wantErr[i]; bad != c.IsError || (bad && !strings.Contains(c.Text, msg)) {
			t.Errorf("call %d %s %v: isError %v, text %q", i, c.Name, c.Args, c.IsError, c.Text)
		}
	}
	if len(report.Calls) != 28 {
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

	// Time: the phrase becomes the range, every item carries its date,
	// the link outside the range is marked; an empty query with after and
	// before is a timeline; the date round-trips through get.
	phrase := report.Calls[17].Structured
	tr, _ := phrase["time_range"].(map[string]any)
	if tr["text"] != "last week" || tr["from"] != "2025-05-26T00:00:00+08:00" || tr["to"] != "2025-06-02T00:00:00+08:00" {
		t.Errorf("time_range over MCP: %v", phrase["time_range"])
	}
	items, _ := phrase["items"].([]any)
	if len(items) != 2 {
		t.Fatalf("retrieve \"beach last week\": %v", phrase)
	}
	hit, link := items[0].(map[string]any), items[1].(map[string]any)
	if hit["name"] != "npm beach" || hit["date"] != "2025-05-28" || link["source"] != "link" || link["outside_range"] != true || link["date"] == nil {
		t.Errorf("items over MCP: %v", items)
	}
	if !strings.Contains(report.Calls[17].Text, `Time range "last week"`) || !strings.Contains(report.Calls[17].Text, "dated 2025-05-28") {
		t.Errorf("text for the model: %q", report.Calls[17].Text)
	}
	timeline, _ := report.Calls[18].Structured["items"].([]any)
	if len(timeline) == 0 || timeline[0].(map[string]any)["name"] != "npm beach" || report.Calls[18].Structured["time_range"] == nil {
		t.Errorf("timeline over MCP: %v", report.Calls[18].Structured)
	}
	if m := report.Calls[20].Structured["meta"].(map[string]any); m["date"] != "2025-05-28" {
		t.Errorf("get of a dated entry: %v", m)
	}
	if d := report.Tools["retrieve"].InputSchema["properties"].(map[string]any); d["after"] == nil || d["now"] == nil {
		t.Errorf("retrieve schema lacks after/now: %v", d)
	}
	checkValidityNPM(t, report.Calls[24].Structured, report.Calls[24].Text, report.Calls[25].Structured, report.Calls[27].Structured)
}
