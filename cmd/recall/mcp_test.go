package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/recallhq/recall/service"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/index/gse"
	"github.com/recallhq/recall/internal/cachetest"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service/mcptools"
)

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	code := cachetest.Run(m)
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// recallBinary builds the recall command once per test run, for the tests
// that need a second process (an MCP host's subprocess, a server to send
// SIGTERM to, a CLI competing for a bolt file).
func recallBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "recall-bin-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "recall")
		if runtime.GOOS == "windows" {
			binPath += ".exe"
		}
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// childEnv is a clean environment for a recall subprocess: nothing from
// the machine's own RECALL_* or embedder settings leaks in.
func childEnv(t testing.TB) []string {
	return []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
}

// syncBuffer collects a subprocess's stderr while tests read it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// mcpProcess is `recall mcp` running as a host runs it, with the SDK's
// client on the other end of its stdio.
type mcpProcess struct {
	cs     *mcp.ClientSession
	cmd    *exec.Cmd
	stderr *syncBuffer
}

func startMCP(t *testing.T, storePath string, args ...string) *mcpProcess {
	t.Helper()
	cmd := exec.Command(recallBinary(t), append([]string{"--store", storePath, "mcp"}, args...)...)
	cmd.Env = childEnv(t)
	p := &mcpProcess{cmd: cmd, stderr: &syncBuffer{}}
	cmd.Stderr = p.stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "recall-test", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to recall mcp: %v; stderr:\n%s", err, p.stderr)
	}
	p.cs = cs
	t.Cleanup(func() { cs.Close() })
	return p
}

// stop closes the session as a host does (closing stdin) and checks that
// the server exits cleanly.
func (p *mcpProcess) stop(t *testing.T) {
	t.Helper()
	if err := p.cs.Close(); err != nil {
		t.Errorf("closing the session: %v; stderr:\n%s", err, p.stderr)
	}
	if st := p.cmd.ProcessState; st == nil || !st.Success() {
		t.Errorf("recall mcp did not exit cleanly: %v; stderr:\n%s", st, p.stderr)
	}
}

// call calls a tool; a protocol error fails the test, a tool error does not.
func (p *mcpProcess) call(t *testing.T, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := p.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v; stderr:\n%s", name, args, err, p.stderr)
	}
	return res
}

// ok calls a tool that must succeed and decodes its structured content.
func (p *mcpProcess) ok(t *testing.T, name string, args, out any) string {
	t.Helper()
	res := p.call(t, name, args)
	if res.IsError {
		t.Fatalf("%s %v: tool error %q", name, args, toolText(res))
	}
	if out != nil {
		raw, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s: structured content %s: %v", name, raw, err)
		}
	}
	return toolText(res)
}

// fails calls a tool that must fail with a tool error mentioning each of
// want, and returns the error text.
func (p *mcpProcess) fails(t *testing.T, name string, args any, want ...string) string {
	t.Helper()
	res := p.call(t, name, args)
	text := toolText(res)
	if !res.IsError {
		t.Fatalf("%s %v succeeded: %q", name, args, text)
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s %v: error %q does not mention %q", name, args, text, w)
		}
	}
	return text
}

func toolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestMCPOverStdio drives `recall mcp` as a subprocess with the SDK's own
// client, on both backends: handshake, tool list, every tool, error cases,
// and a clean exit when the host hangs up.
func TestMCPOverStdio(t *testing.T) {
	stores := sampleStores(t)
	for _, backend := range []string{"fs", "bolt"} {
		t.Run(backend, func(t *testing.T) {
			path := stores[backend]
			// Computed before the server holds the store: a bolt file has
			// one process at a time.
			want, _ := resultJSON(t, newCLI(t, nil), "--store", path, "retrieve", "想去海边玩")

			p := startMCP(t, path)
			init := p.cs.InitializeResult()
			if init.ServerInfo.Name != "recall" || !strings.Contains(init.Instructions, "retrieve") {
				t.Errorf("handshake: server %+v, instructions %q", init.ServerInfo, init.Instructions)
			}
			checkToolList(t, p)

			// retrieve: the structured result is the CLI's, the text shows
			// the same evidence.
			var got retrieve.Result
			text := p.ok(t, "retrieve", map[string]any{"query": "想去海边玩"}, &got)
			if !reflect.DeepEqual(&got, want) {
				t.Errorf("structured result differs from `recall retrieve --json`:\n got %+v\nwant %+v", got, *want)
			}
			checkRenderedResult(t, text, want, retrieve.DefaultBudget)

			// add, then the write is visible to retrieve, get and list.
			note := map[string]any{"category": "notes", "name": "mcp test", "content": "A zebra crossing near [[people:小雨]]'s place.", "tags": []string{"t1"}}
			var wr service.Change
			if text := p.ok(t, "add", note, &wr); wr.Status != "added" || text != "added notes:mcp test" {
				t.Errorf("add: %+v, text %q", wr, text)
			}
			if p.ok(t, "add", note, &wr); wr.Status != "updated" {
				t.Errorf("second add: status %q, want updated", wr.Status)
			}
			p.ok(t, "retrieve", map[string]any{"query": "zebra crossing", "budget_tokens": 0}, &got)
			if len(got.Items) < 2 || got.Items[0].Name != "mcp test" || got.Items[1].Name != "小雨" || got.Items[1].Source != retrieve.SourceLink {
				t.Errorf("retrieve after add: %+v", got.Items)
			}
			var e service.Entry
			text = p.ok(t, "get", map[string]any{"category": "notes", "name": "mcp test"}, &e)
			if e.Content != note["content"] || fmt.Sprint(e.Meta["tags"]) != "[t1]" || e.Meta["created"] == nil {
				t.Errorf("get: %+v", e)
			}
			if !strings.HasPrefix(text, "notes:mcp test (tags: t1; created ") || !strings.HasSuffix(text, "\n"+e.Content) {
				t.Errorf("get text: %q", text)
			}
			var l service.ListPage
			text = p.ok(t, "list", map[string]any{"category": "notes"}, &l)
			if !slices.ContainsFunc(l.Entries, func(it service.ListItem) bool { return it.Name == "mcp test" }) || l.Total != len(l.Entries) {
				t.Errorf("list notes: %+v", l)
			}
			if !strings.Contains(text, "notes:mcp test (") || !strings.Contains(text, "tags: t1") {
				t.Errorf("list text: %q", text)
			}
			p.ok(t, "list", map[string]any{"limit": 3}, &l)
			if len(l.Entries) != 3 || l.NextCursor == "" || l.Total <= 3 {
				t.Errorf("list with limit 3: %d entries, total %d, next %q", len(l.Entries), l.Total, l.NextCursor)
			}
			first := l.Entries
			var l2 service.ListPage
			p.ok(t, "list", map[string]any{"limit": 3, "cursor": l.NextCursor}, &l2)
			if len(l2.Entries) == 0 || l2.Entries[0].Category+l2.Entries[0].Name <= first[2].Category+first[2].Name {
				t.Errorf("second page %+v after %+v", l2.Entries, first)
			}

			// delete, and the entry is gone everywhere.
			if text := p.ok(t, "delete", map[string]any{"category": "notes", "name": "mcp test"}, &wr); wr.Status != "deleted" || text != "deleted notes:mcp test" {
				t.Errorf("delete: %+v %q", wr, text)
			}
			p.fails(t, "get", map[string]any{"category": "notes", "name": "mcp test"}, "notes:mcp test", "not found")
			p.fails(t, "delete", map[string]any{"category": "notes", "name": "mcp test"}, "not found")
			p.ok(t, "retrieve", map[string]any{"query": "zebra crossing"}, &got)
			if len(got.Items) > 0 && got.Items[0].Name == "mcp test" {
				t.Error("retrieve still finds the deleted entry")
			}

			checkToolErrors(t, p)
			if backend == "bolt" {
				checkBoltLockedWhileServing(t, p, path)
			}
			p.stop(t)
			if !strings.Contains(p.stderr.String(), "recall mcp: serving "+path) {
				t.Errorf("stderr does not say what is served:\n%s", p.stderr)
			}
		})
	}
}

func checkToolList(t *testing.T, p *mcpProcess) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	lt, err := p.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
		if len(tool.Description) < 100 {
			t.Errorf("tool %s: description too thin for a model: %q", tool.Name, tool.Description)
		}
		schema, _ := tool.InputSchema.(map[string]any)
		if schema["type"] != "object" || schema["properties"] == nil {
			t.Errorf("tool %s: input schema %v", tool.Name, tool.InputSchema)
		}
		if tool.OutputSchema == nil {
			t.Errorf("tool %s has no output schema", tool.Name)
		}
		// Plain JSON types only: a ["null", "integer"] union makes real
		// clients (the MCP Inspector) send numbers as strings.
		for name, prop := range schema["properties"].(map[string]any) {
			if typ, ok := prop.(map[string]any)["type"].(string); !ok || typ == "null" {
				t.Errorf("tool %s: property %s has type %v, want one plain JSON type", tool.Name, name, prop.(map[string]any)["type"])
			}
		}
		if tool.Name == "retrieve" {
			props := schema["properties"].(map[string]any)
			budget := props["budget_tokens"].(map[string]any)
			if budget["default"] != float64(retrieve.DefaultBudget) || !strings.Contains(fmt.Sprint(budget["description"]), "0 means no cap") {
				t.Errorf("retrieve budget_tokens schema: %v", budget)
			}
			if req := fmt.Sprint(schema["required"]); req != "[query]" {
				t.Errorf("retrieve requires %s, want [query]", req)
			}
		}
	}
	slices.Sort(names)
	if got := strings.Join(names, " "); got != "add append categories delete edit get list retrieve" {
		t.Errorf("tools: %s", got)
	}
}

// checkRenderedResult checks the compact text a model reads against the
// structured result it renders.
func checkRenderedResult(t *testing.T, text string, res *retrieve.Result, budget int) {
	t.Helper()
	if len(res.Items) == 0 {
		t.Fatal("the query found nothing; the test needs items")
	}
	first := res.Items[0]
	head := fmt.Sprintf("[hit] %s:%s (bm25 %.2f; matched %s)\n%s", first.Category, first.Name, *first.BM25Score,
		strings.Join(first.MatchedTerms, ", "), strings.TrimRight(first.Content, "\n"))
	if !strings.HasPrefix(text, head) {
		t.Errorf("text does not start with the first hit\n got %q\nwant %q", text[:min(len(text), len(head)+40)], head)
	}
	for _, it := range res.Items {
		var line string
		if it.Source == retrieve.SourceLink {
			line = fmt.Sprintf("\n[link via %s:%s] %s:%s\n", it.Via.Category, it.Via.Name, it.Category, it.Name)
		} else {
			line = fmt.Sprintf("[hit] %s:%s (", it.Category, it.Name)
		}
		if !strings.Contains(text, line) {
			t.Errorf("text has no line %q", line)
		}
	}
	summary := fmt.Sprintf("%d items, %d/%d tokens.\n", len(res.Items), res.BudgetUsed, budget)
	if !strings.Contains(text, summary) {
		t.Errorf("text has no summary %q:\n%s", summary, text)
	}
}

func checkToolErrors(t *testing.T, p *mcpProcess) {
	t.Helper()
	cases := []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"add", map[string]any{"category": "notes", "name": "a/b", "content": "x"}, []string{"name", "'/'"}},
		{"add", map[string]any{"category": ".hidden", "name": "a", "content": "x"}, []string{"category", "'.'"}},
		{"add", map[string]any{"category": "notes", "name": "a", "content": "x", "tags": []string{""}}, []string{"tags"}},
		{"add", map[string]any{"category": "notes", "name": "a"}, []string{"content"}},
		{"get", map[string]any{"category": "notes", "name": "a:b"}, []string{"name", "':'"}},
		{"retrieve", map[string]any{}, []string{"query"}},
		{"retrieve", map[string]any{"query": "  "}, []string{"query must not be empty"}},
		{"retrieve", map[string]any{"query": "x", "limit": 0}, []string{"limit"}},
		{"retrieve", map[string]any{"query": "x", "budget_tokens": -1}, []string{"budget_tokens"}},
		{"retrieve", map[string]any{"query": "x", "limt": 3}, []string{"limt"}},
		{"list", map[string]any{"limit": 0}, []string{"limit"}},
		{"list", map[string]any{"category": "a|b"}, []string{"category", "'|'"}},
	}
	for _, c := range cases {
		p.fails(t, c.tool, c.args, c.want...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := p.cs.CallTool(ctx, &mcp.CallToolParams{Name: "forget_everything"}); err == nil {
		t.Error("calling an unknown tool is not a protocol error")
	}
}

// checkBoltLockedWhileServing: a second process on the bolt file the
// server holds gets the clear "locked" error, not a hang.
func checkBoltLockedWhileServing(t *testing.T, p *mcpProcess, path string) {
	t.Helper()
	cmd := exec.Command(recallBinary(t), "--store", path, "add", "notes", "second", "--content", "x")
	cmd.Env = childEnv(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if err == nil || !strings.Contains(stderr.String(), "locked by another process") {
		t.Errorf("second process on the served bolt file: %v, stderr %q", err, stderr.String())
	}
}

// TestMCPSeesOutsideEdits: with an fs store, files written by hand and
// entries added by another recall process while `recall mcp` runs are
// found by its next retrieves, without a restart.
func TestMCPSeesOutsideEdits(t *testing.T) {
	dir := copySample(t)
	p := startMCP(t, dir)
	var res retrieve.Result
	p.ok(t, "retrieve", map[string]any{"query": "quokka"}, &res) // builds the index
	if len(res.Items) != 0 {
		t.Fatalf("the sample already mentions quokkas: %+v", res.Items)
	}

	if err := os.WriteFile(filepath.Join(dir, "notes", "by hand.md"), []byte("A quokka smiled at me on Rottnest."), 0o644); err != nil {
		t.Fatal(err)
	}
	waitForHit(t, p, "quokka", "by hand")

	cmd := exec.Command(recallBinary(t), "--store", dir, "add", "notes", "from the cli", "--content", "The wombat dug a tunnel.")
	cmd.Env = childEnv(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("recall add beside the server: %v\n%s", err, out)
	}
	waitForHit(t, p, "wombat", "from the cli")
	p.stop(t)
	if !strings.Contains(p.stderr.String(), "store changed outside the server") {
		t.Errorf("the server did not log the outside change:\n%s", p.stderr)
	}
}

// waitForHit polls retrieve until name is the first hit for query. The
// watch needs about a second at most; the deadline only absorbs a loaded
// machine.
func waitForHit(t *testing.T, p *mcpProcess, query, name string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var res retrieve.Result
		p.ok(t, "retrieve", map[string]any{"query": query}, &res)
		if len(res.Items) > 0 && res.Items[0].Name == name {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("retrieve %q still does not find %q: %+v; stderr:\n%s", query, name, res.Items, p.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestMCPStdoutIsProtocolOnly runs the command in-process with its stdout
// recorded: every line it wrote must be a JSON-RPC message, and its
// diagnostics must have gone to stderr.
func TestMCPStdoutIsProtocolOnly(t *testing.T) {
	dir := copySample(t)
	inR, inW := io.Pipe()   // client → server stdin
	outR, outW := io.Pipe() // server stdout → client
	var stdout, stderr syncBuffer
	root := newRootCmd(inR, io.MultiWriter(&stdout, outW), &stderr, func(k string) string {
		if k == "HOME" {
			return t.TempDir()
		}
		return ""
	})
	root.SetArgs([]string{"--store", dir, "mcp"})
	code := make(chan int, 1)
	go func() {
		code <- execute(context.Background(), root)
		outW.Close()
	}()

	client := mcp.NewClient(&mcp.Implementation{Name: "recall-test", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "retrieve", Arguments: map[string]any{"query": "咖啡"}})
	if err != nil || res.IsError {
		t.Fatalf("retrieve: %v %v", err, res)
	}
	cs.Close() // closes stdin: the server's session ends
	if c := <-code; c != 0 {
		t.Fatalf("recall mcp exited %d; stderr:\n%s", c, stderr.String())
	}

	lines := 0
	sc := bufio.NewScanner(strings.NewReader(stdout.String()))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		lines++
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Errorf("stdout line %d is not a JSON-RPC message: %q", lines, sc.Text())
		}
	}
	if lines < 2 { // the initialize and retrieve responses at least
		t.Errorf("stdout holds %d messages", lines)
	}
	if !strings.Contains(stderr.String(), "recall mcp: serving") {
		t.Errorf("diagnostics did not go to stderr: %q", stderr.String())
	}
}

// TestREADMEMCPConfig checks the MCP host configuration the README tells
// users to paste: valid JSON, and a command line recall understands.
func TestREADMEMCPConfig(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	i := strings.Index(text, "```json\n{\n  \"mcpServers\"")
	if i < 0 {
		t.Fatal("README has no MCP configuration snippet")
	}
	block := text[i+len("```json\n"):]
	block = block[:strings.Index(block, "```")]
	var cfg struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(block), &cfg); err != nil {
		t.Fatalf("README's MCP snippet is not valid JSON: %v\n%s", err, block)
	}
	srv, ok := cfg.MCPServers["recall"]
	if !ok || srv.Command != "recall" {
		t.Fatalf("README's MCP snippet: %+v", cfg)
	}
	root := newRootCmd(nil, io.Discard, io.Discard, func(string) string { return "" })
	cmd, rest, err := root.Find(srv.Args)
	if err != nil || cmd.Name() != "mcp" {
		t.Fatalf("args %q do not name the mcp command: %v %v", srv.Args, cmd.Name(), err)
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Errorf("args %q: %v", srv.Args, err)
	}
}

// TestServersStartLazily: opening a server's memory, and the MCP
// handshake, load no CJK dictionary even with segmentation on; that waits
// for the index build after the handshake, or the first retrieve. The
// dictionary stays loaded once any test loaded it, so the check runs in a
// fresh process: this test binary, running only this test.
func TestServersStartLazily(t *testing.T) {
	const child = "RECALL_TEST_LAZY_CHILD"
	if os.Getenv(child) == "" {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestServersStartLazily$", "-test.count", "1", "-test.v")
		cmd.Env = append(os.Environ(), child+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("--- PASS: TestServersStartLazily")) {
			t.Fatalf("the check in a fresh process: %v\n%s", err, out)
		}
		return
	}
	if gse.Loaded() {
		t.Fatal("the gse dictionary is loaded in a fresh process before anything asked for it")
	}
	a := &app{getenv: func(string) string { return "" }}
	st := openFS(t, copySample(t), nil)
	m, err := a.newMemory(st, &engineFlags{analysis: analyzerFlags{segmenter: "on"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	srv := mcptools.NewServer(m, mcptools.Options{})
	ct, stt := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), stt, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if gse.Loaded() {
		t.Error("the gse dictionary was loaded before the first retrieve")
	}
}
