package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/recallhq/recall/service/mcptools"
)

// TestMCPWithNPMClient drives `recall mcp` with a client this project did
// not write: the official TypeScript SDK's, from a small node script
// (testdata/npmclient/client.mjs), calling every tool with numbers,
// booleans and arrays. The TypeScript client also checks each
// structuredContent against the tool's output schema. .ci/run installs the
// SDK from npm; in CI (CI=true) a missing node or SDK fails the test.
func TestMCPWithNPMClient(t *testing.T) {
	dir, node := npmPackage(t, "npmclient", "@modelcontextprotocol/sdk")
	store := copySample(t)
	want := newCLI(t, nil).ok("--store", store, "retrieve", "想去海边玩", "--limit", "3", "--no-budget", "--json")

	cmd := exec.Command(node, "client.mjs", recallBinary(t), store)
	cmd.Dir = dir
	cmd.Env = childEnv(t)
	checkNPMReport(t, runNode(t, cmd), want)
}

// npmPackage returns testdata/FOLDER (absolute) and node, once npm has
// installed pkg there; without them it skips the test, or fails it in CI
// (CI=true), where .ci/run installs them.
func npmPackage(t *testing.T, folder, pkg string) (dir, node string) {
	t.Helper()
	dir, _ = filepath.Abs(filepath.Join("testdata", folder))
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "package.json"))
	}
	if err != nil {
		msg := "npm package " + pkg + " is not installed (" + err.Error() + "): run `npm install` in cmd/recall/testdata/" + folder + ", or bash .ci/run"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return dir, node
}

// runNode runs a node command and returns its stdout.
func runNode(t *testing.T, cmd *exec.Cmd) []byte {
	t.Helper()
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %v: %v\nstderr:\n%s", cmd.Args[1:], err, stderr)
	}
	return out
}

// npmReport is what client.mjs prints.
type npmReport struct {
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
	Server          struct{ Name, Version string } `json:"server"`
	Instructions    string                         `json:"instructions"`
	ProtocolVersion string                         `json:"protocolVersion"`
	// Issue 25: prompts, resources, instructions.
	Capabilities map[string]any `json:"capabilities"`
	Prompts      []struct {
		Name      string `json:"name"`
		Arguments []struct {
			Name     string `json:"name"`
			Required bool   `json:"required"`
		} `json:"arguments"`
	} `json:"prompts"`
	Prompt struct {
		Messages []struct {
			Role    string `json:"role"`
			Content struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
		Thrown string `json:"thrown"`
	} `json:"prompt"`
	PromptNoMessage struct {
		Thrown string `json:"thrown"`
	} `json:"promptNoMessage"`
	Templates []struct {
		Name        string `json:"name"`
		URITemplate string `json:"uriTemplate"`
	} `json:"templates"`
	Resources []struct {
		URI  string `json:"uri"`
		Name string `json:"name"`
	} `json:"resources"`
	ResourcePages int `json:"resourcePages"`
	Reads         map[string]struct {
		Contents []struct {
			URI      string `json:"uri"`
			MIMEType string `json:"mimeType"`
			Text     string `json:"text"`
		} `json:"contents"`
		Thrown string `json:"thrown"`
	} `json:"reads"`
}

// checkNPMReport checks what client.mjs saw of the sample store, against
// want, `recall retrieve 想去海边玩 --limit 3 --no-budget --json` before
// the calls.
func checkNPMReport(t *testing.T, out []byte, want string) npmReport {
	t.Helper()
	var report npmReport
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
	if report.Server.Name != "recall" || report.Instructions != mcptools.Instructions {
		t.Errorf("handshake: server %+v, instructions %q", report.Server, report.Instructions)
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
		19: `after invalid date "May 3rd"`, 27: "expires is not a date"}
	for i, c := range report.Calls {
		if c.Thrown != "" {
			t.Errorf("call %d %s %v threw in the client: %s", i, c.Name, c.Args, c.Thrown)
			continue
		}
		if msg, bad := wantErr[i]; bad != c.IsError || (bad && !strings.Contains(c.Text, msg)) {
			t.Errorf("call %d %s %v: isError %v, text %q", i, c.Name, c.Args, c.IsError, c.Text)
		}
	}
	if len(report.Calls) != 36 {
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

	// Context on the first turn, through the TypeScript client.
	if report.Capabilities["prompts"] == nil || report.Capabilities["resources"] == nil {
		t.Errorf("handshake: capabilities %v", report.Capabilities)
	}
	if len(report.Prompts) != 1 || report.Prompts[0].Name != "recall" || len(report.Prompts[0].Arguments) != 2 || !report.Prompts[0].Arguments[0].Required {
		t.Errorf("prompts: %+v", report.Prompts)
	}
	if p := report.Prompt; p.Thrown != "" || len(p.Messages) != 1 || p.Messages[0].Role != "user" || p.Messages[0].Content.Type != "text" ||
		!strings.HasPrefix(p.Messages[0].Content.Text, mcptools.ContextIntro+"\n\n[hit] trips:青岛计划 (") ||
		!strings.Contains(p.Messages[0].Content.Text, "/300 tokens.\n\n---\n\n想去海边玩") {
		t.Errorf("prompt: %+v", p)
	}
	if !strings.Contains(report.PromptNoMessage.Thrown, `argument \"message\" is required`) && !strings.Contains(report.PromptNoMessage.Thrown, `argument "message" is required`) {
		t.Errorf("prompt without a message: %q", report.PromptNoMessage.Thrown)
	}
	if len(report.Templates) != 2 {
		t.Errorf("templates: %+v", report.Templates)
	}
	entries := 0
	for _, n := range report.Calls[8].Structured["categories"].([]any) {
		entries += int(n.(map[string]any)["count"].(float64))
	}
	// Since the categories call: notes:npm client deleted, notes:twice,
	// diary:npm beach and projects/harbor:Q3 plan (draft) added.
	if len(report.Resources) != 1+entries-1+3 || report.Resources[0].URI != "recall://" || report.ResourcePages != 1 {
		t.Errorf("%d resources in %d pages (want %d), first %+v", len(report.Resources), report.ResourcePages, 1+entries+2, report.Resources[0])
	}
	harbor := mcptools.EntryURI("projects/harbor", "Q3 plan (draft)")
	listed := false
	for _, r := range report.Resources {
		listed = listed || r.URI == harbor && r.Name == "projects/harbor:Q3 plan (draft)"
	}
	if !listed {
		t.Errorf("resources/list lacks %s", harbor)
	}
	for uri, want := range map[string]string{
		"recall://":                        "- [trips](recall://trips) (",
		"recall://trips":                   "- [trips:三亚之行](recall://trips/%E4%B8%89%E4%BA%9A%E4%B9%8B%E8%A1%8C) (",
		"recall://projects%2Fharbor":       "- [projects/harbor:Q3 plan (draft)](" + harbor + ") (",
		mcptools.EntryURI("trips", "三亚之行"): "trips:三亚之行 (",
		// encodeURIComponent leaves ( ) unencoded; the server reads it.
		"recall://projects%2Fharbor/Q3%20plan%20(draft)": "projects/harbor:Q3 plan (draft) (created ",
		report.Resources[1].URI:                          report.Resources[1].Name,
	} {
		r, ok := report.Reads[uri]
		if !ok || r.Thrown != "" || len(r.Contents) != 1 || r.Contents[0].URI != uri || r.Contents[0].MIMEType != "text/markdown" || !strings.Contains(r.Contents[0].Text, want) {
			t.Errorf("read %s: %+v (want it to hold %q)", uri, r, want)
		}
	}
	if r := report.Reads["recall://trips/nowhere"]; !strings.Contains(r.Thrown, "not found") {
		t.Errorf("read of a missing entry: %+v", r)
	}
	checkValidityNPM(t, report.Calls[25].Structured, report.Calls[25].Text, report.Calls[26].Structured, report.Calls[28].Structured)
	checkSectionsNPM(t, report.Calls[30].Structured, report.Calls[30].Text, report.Calls[31].Structured)
	checkDuplicatesNPM(t, report.Calls[33].Text, report.Calls[33].Structured, report.Calls[34].Structured, report.Calls[35].Structured)
	return report
}

// checkSectionsNPM checks the section of a long note over MCP (calls 30
// and 31 of client.mjs): the section that matched, named in the text for
// the model too, and the whole note with whole_entries.
func checkSectionsNPM(t *testing.T, sec map[string]any, text string, whole map[string]any) {
	t.Helper()
	first := func(res map[string]any) map[string]any {
		items, _ := res["items"].([]any)
		if len(items) == 0 {
			return nil
		}
		return items[0].(map[string]any)
	}
	s, w := first(sec), first(whole)
	if s == nil || s["name"] != "npm guide" || s["section"] != "Install > On Linux" || !strings.HasPrefix(s["content"].(string), "## Install") {
		t.Errorf("section over MCP: %v", s)
	}
	if !strings.Contains(text, "npm guide § Install > On Linux") {
		t.Errorf("section in the text for the model: %q", text)
	}
	if w == nil || w["section"] != nil || !strings.HasPrefix(w["content"].(string), "Intro.") || w["tokens_est"].(float64) <= s["tokens_est"].(float64) {
		t.Errorf("whole_entries over MCP: %v", w)
	}
}
