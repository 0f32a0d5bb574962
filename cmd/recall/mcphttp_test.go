package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// serveCLI runs `recall serve` in-process through the command line on a
// free loopback port, with args after "serve", and returns its base URL
// and its stderr; the server is stopped (as by a signal) at the end of
// the test, and must exit 0.
func serveCLI(t *testing.T, store string, args ...string) (string, *syncBuffer) {
	t.Helper()
	stderr := &syncBuffer{}
	root := newRootCmd(nil, io.Discard, stderr, func(string) string { return "" })
	root.SetArgs(append([]string{"--store", store, "serve", "--addr", "127.0.0.1:0"}, args...))
	ctx, stop := context.WithCancel(context.Background())
	code := make(chan int, 1)
	go func() { code <- execute(ctx, root) }()
	t.Cleanup(func() {
		stop()
		if c := <-code; c != 0 {
			t.Errorf("serve exited %d; stderr:\n%s", c, stderr)
		}
	})
	return listenAddr(t, stderr), stderr
}

// TestMCPHTTPWithNPMClient drives the /mcp endpoint of `recall serve`
// with the official TypeScript SDK's Streamable HTTP client: the same
// script, calls and checks as TestMCPWithNPMClient on stdio, through the
// bearer token.
func TestMCPHTTPWithNPMClient(t *testing.T) {
	dir, node := npmPackage(t, "npmclient", "@modelcontextprotocol/sdk")
	store := copySample(t)
	want := newCLI(t, nil).ok("--store", store, "retrieve", "想去海边玩", "--limit", "3", "--no-budget", "--json")
	base, log := serveCLI(t, store, "--token", "s3cret")

	cmd := exec.Command(node, "client.mjs", base+"/mcp")
	cmd.Dir = dir
	cmd.Env = append(childEnv(t), "RECALL_TOKEN=s3cret")
	report := checkNPMReport(t, runNode(t, cmd), want)
	if report.ProtocolVersion == "" {
		t.Error("the client negotiated no protocol version")
	}
	if l := log.String(); !strings.Contains(l, "POST /mcp 200 ") || strings.Contains(l, " 401 ") || strings.Contains(l, "s3cret") {
		t.Errorf("server log (requests answered, the token never written):\n%s", l)
	}

	// Without the token the client is refused before any tool runs.
	cmd = exec.Command(node, "client.mjs", base+"/mcp")
	cmd.Dir = dir
	cmd.Env = childEnv(t)
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "401") {
		t.Errorf("a client without the token: %v\n%s", err, out)
	}
}

// TestMCPHTTPWithInspector drives the /mcp endpoint of `recall serve`
// with the MCP Inspector's CLI (npm @modelcontextprotocol/inspector,
// --cli mode), as a person checking a server would: list the tools, call
// retrieve and add with arguments given as key=value, and be refused
// without the token.
func TestMCPHTTPWithInspector(t *testing.T) {
	dir, node := npmPackage(t, "inspector", "@modelcontextprotocol/inspector")
	store := copySample(t)
	want := newCLI(t, nil).ok("--store", store, "retrieve", "想去海边玩", "--limit", "2", "--json")
	base, _ := serveCLI(t, store, "--token", "s3cret")
	home := t.TempDir()
	inspect := func(token string, args ...string) (string, error) {
		args = append([]string{"node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js", "--cli", base + "/mcp", "--transport", "http"}, args...)
		if token != "" {
			args = append(args, "--header", "Authorization: Bearer "+token)
		}
		cmd := exec.Command(node, args...)
		cmd.Dir = dir
		// A fresh HOME: the Inspector keeps a catalog and secrets there.
		cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out) + string(ee.Stderr), err
		}
		return string(out), err
	}

	out, err := inspect("s3cret", "--method", "tools/list")
	if err != nil {
		t.Fatalf("tools/list: %v\n%s", err, out)
	}
	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("tools/list: %v\n%s", err, out)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, " "); got != "add append categories delete edit get list retrieve" {
		t.Errorf("tools: %s", got)
	}

	out, err = inspect("s3cret", "--method", "tools/call", "--tool-name", "retrieve", "--tool-arg", "query=想去海边玩", "limit=2")
	if err != nil {
		t.Fatalf("tools/call retrieve: %v\n%s", err, out)
	}
	var call struct {
		IsError           bool           `json:"isError"`
		StructuredContent map[string]any `json:"structuredContent"`
	}
	var cli map[string]any
	if err := json.Unmarshal([]byte(out), &call); err != nil || json.Unmarshal([]byte(want), &cli) != nil {
		t.Fatalf("tools/call retrieve: %v\n%s", err, out)
	}
	g, _ := json.Marshal(call.StructuredContent)
	w, _ := json.Marshal(cli)
	if call.IsError || string(g) != string(w) {
		t.Errorf("retrieve through the Inspector:\n%s\nwant (the CLI's)\n%s", g, w)
	}

	out, err = inspect("s3cret", "--method", "tools/call", "--tool-name", "add", "--tool-arg", "category=notes", "name=inspector", "content=written by the MCP Inspector")
	if err != nil || !strings.Contains(out, "added notes:inspector") {
		t.Fatalf("tools/call add: %v\n%s", err, out)
	}
	if got := newCLI(t, nil).ok("--store", store, "get", "notes", "inspector"); !strings.Contains(got, "written by the MCP Inspector") {
		t.Errorf("the Inspector's add, read back: %q", got)
	}

	if out, err := inspect("", "--method", "tools/list"); err == nil || strings.Contains(out, `"tools"`) {
		t.Errorf("the Inspector without the token: %v\n%s", err, out)
	}
}
