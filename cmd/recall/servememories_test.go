package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// `recall serve --memory` through the command line: two memories of two
// backends, one token from a file and one from the environment, the admin
// token from $RECALL_TOKEN, a default memory; no token reaches the log.
func TestServeMemories(t *testing.T) {
	dir := t.TempDir()
	sample := copySample(t)
	tokFile := filepath.Join(dir, "alice.token")
	os.WriteFile(tokFile, []byte("alice-s3cret\n"), 0o600)
	env := map[string]string{"RECALL_TOKEN": "admin-s3cret", "BOB_TOKEN": "bob-s3cret"}
	var stderr syncBuffer
	root := newRootCmd(nil, io.Discard, &stderr, func(k string) string { return env[k] })
	root.SetArgs([]string{"serve", "--addr", "127.0.0.1:0", "--create",
		"--memory", "alice=" + sample, "--memory", "bob=" + filepath.Join(dir, "bob.db"),
		"--memory-token", "alice=@" + tokFile, "--memory-token", "bob=env:BOB_TOKEN", "--default-memory", "alice"})
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	code := make(chan int, 1)
	go func() { code <- execute(ctx, root) }()
	base := listenAddr(t, &stderr)

	req := func(method, path, token, body string) (int, string) {
		t.Helper()
		r, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		if body != "" {
			r.Header.Set("Content-Type", "application/json")
		}
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		r.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if c, b := req("POST", "/v1/m/alice/retrieve", "alice-s3cret", `{"query":"想去海边玩"}`); c != 200 || !strings.Contains(b, "trips") {
		t.Errorf("alice retrieve: %d %s", c, b)
	}
	if c, b := req("POST", "/v1/retrieve", "alice-s3cret", `{"query":"想去海边玩"}`); c != 200 || !strings.Contains(b, "trips") {
		t.Errorf("default memory retrieve: %d %s", c, b)
	}
	if c, _ := req("POST", "/v1/m/alice/retrieve", "bob-s3cret", `{"query":"x"}`); c != 404 {
		t.Errorf("bob's token on alice: %d, want 404", c)
	}
	if c, b := req("PUT", "/v1/m/bob/entries/notes/x", "bob-s3cret", `{"content":"bob's"}`); c != 201 {
		t.Errorf("bob PUT: %d %s", c, b)
	}
	if c, b := req("GET", "/v1/m/bob/entries/notes/x", "admin-s3cret", ""); c != 200 || !strings.Contains(b, "bob's") {
		t.Errorf("admin GET on bob: %d %s", c, b)
	}
	if c, b := req("POST", "/mcp/bob", "bob-s3cret", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`); c != 200 || !strings.Contains(b, "retrieve") {
		t.Errorf("bob MCP: %d %s", c, b)
	}
	stop()
	if c := <-code; c != 0 {
		t.Fatalf("serve exited %d:\n%s", c, stderr.String())
	}
	log := stderr.String()
	for _, want := range []string{"serving 2 memories", "memory alice: opened", "PUT /v1/m/bob/entries/notes/x 201", "stopped"} {
		if !strings.Contains(log, want) {
			t.Errorf("stderr lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "s3cret") {
		t.Errorf("a token reached the log:\n%s", log)
	}
	// Stopped means bob's bolt file is free, with the write in it.
	st := openBolt(t, filepath.Join(dir, "bob.db"))
	defer st.Close()
	if e, err := st.Get(context.Background(), "notes", "x"); err != nil || e.Content != "bob's" {
		t.Errorf("after shutdown: %+v %v", e, err)
	}
}

func TestServeMemoriesUsage(t *testing.T) {
	sample := copySample(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--store", sample, "serve", "--memory", "a=" + sample}, "--store and --memory"},
		{[]string{"--store", sample, "serve", "--memories", "m.yaml"}, "--store and --memory"},
		{[]string{"serve", "--memory-token", "a=env:X"}, "--memory-token needs --memory"},
		{[]string{"serve", "--idle-close", "1m"}, "--idle-close needs --memory"},
		{[]string{"serve", "--memory", "a=" + sample, "--addr", "0.0.0.0:0"}, "--token or $RECALL_TOKEN"},
	} {
		if msg := newCLI(t, nil).fails(exitUsage, c.args...); !strings.Contains(msg, c.want) {
			t.Errorf("%q: %s, want %q", c.args, msg, c.want)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--memory", "A=" + sample}, "lower-case"},
		{[]string{"serve", "--memory", "a=" + sample, "--memory-token", "a=literal-s3cret"}, "@FILE"},
		{[]string{"serve", "--memory", "a=" + filepath.Join(t.TempDir(), "typo.db")}, "store does not exist"},
		{[]string{"serve", "--memories", filepath.Join(t.TempDir(), "none.yaml")}, "memories file"},
	} {
		if msg := newCLI(t, nil).fails(1, c.args...); !strings.Contains(msg, c.want) || strings.Contains(msg, "s3cret") {
			t.Errorf("%q: %s, want %q", c.args, msg, c.want)
		}
	}
}

// The official TypeScript SDK's Streamable HTTP client on /mcp/alice of a
// server holding two memories: with alice's token, the same script and
// checks as on a single-memory server; with bob's, refused (404) before
// any tool runs.
func TestServeMemoriesWithNPMClient(t *testing.T) {
	dir, node := npmPackage(t, "npmclient", "@modelcontextprotocol/sdk")
	alice := copySample(t)
	want := newCLI(t, nil).ok("--store", alice, "retrieve", "想去海边玩", "--limit", "3", "--no-budget", "--json")
	env := map[string]string{"A": "alice-s3cret", "B": "bob-s3cret"}
	stderr := &syncBuffer{}
	root := newRootCmd(nil, io.Discard, stderr, func(k string) string { return env[k] })
	root.SetArgs([]string{"serve", "--addr", "127.0.0.1:0", "--create",
		"--memory", "alice=" + alice, "--memory-token", "alice=env:A",
		"--memory", "bob=" + filepath.Join(t.TempDir(), "bob.db"), "--memory-token", "bob=env:B"})
	ctx, stop := context.WithCancel(context.Background())
	code := make(chan int, 1)
	go func() { code <- execute(ctx, root) }()
	defer func() {
		stop()
		if c := <-code; c != 0 {
			t.Errorf("serve exited %d:\n%s", c, stderr)
		}
	}()
	base := listenAddr(t, stderr)

	cmd := exec.Command(node, "client.mjs", base+"/mcp/alice")
	cmd.Dir = dir
	cmd.Env = append(childEnv(t), "RECALL_TOKEN=alice-s3cret")
	checkNPMReport(t, runNode(t, cmd), want)

	cmd = exec.Command(node, "client.mjs", base+"/mcp/alice")
	cmd.Dir = dir
	cmd.Env = append(childEnv(t), "RECALL_TOKEN=bob-s3cret")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "404") {
		t.Errorf("bob's token on alice's MCP: %v\n%s", err, out)
	}
	if l := stderr.String(); !strings.Contains(l, "POST /mcp/alice 200 ") || !strings.Contains(l, "POST /mcp/alice 404 ") || strings.Contains(l, "memory bob: opened") {
		t.Errorf("server log (bob must never be opened):\n%s", l)
	}
}

// A memories file that gives tokens lets the server listen off loopback;
// one that gives none does not.
func TestServeMemoriesFileOffLoopback(t *testing.T) {
	dir := t.TempDir()
	sample := copySample(t)
	os.WriteFile(filepath.Join(dir, "a.token"), []byte("a-s3cret\n"), 0o600)
	with := filepath.Join(dir, "with.yaml")
	os.WriteFile(with, []byte("memories:\n  - name: a\n    store: "+sample+"\n    tokens: \"@a.token\"\n"), 0o600)
	without := filepath.Join(dir, "without.yaml")
	os.WriteFile(without, []byte("memories:\n  - name: a\n    store: "+sample+"\n"), 0o600)

	if msg := newCLI(t, nil).fails(1, "serve", "--addr", "0.0.0.0:0", "--memories", without); !strings.Contains(msg, "not a loopback address") {
		t.Errorf("no tokens off loopback: %s", msg)
	}
	var stderr syncBuffer
	root := newRootCmd(nil, io.Discard, &stderr, func(string) string { return "" })
	root.SetArgs([]string{"serve", "--addr", "0.0.0.0:0", "--memories", with})
	ctx, stop := context.WithCancel(context.Background())
	code := make(chan int, 1)
	go func() { code <- execute(ctx, root) }()
	base := strings.Replace(listenAddr(t, &stderr), "0.0.0.0", "127.0.0.1", 1)
	base = strings.Replace(base, "[::]", "127.0.0.1", 1)
	r, _ := http.NewRequest("GET", base+"/v1/m/a/categories", nil)
	r.Header.Set("Authorization", "Bearer a-s3cret")
	resp, err := http.DefaultClient.Do(r)
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("GET with the file's token: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	stop()
	if c := <-code; c != 0 {
		t.Errorf("serve exited %d:\n%s", c, stderr.String())
	}
}

// TestServeMemoriesCache: a folder memory of `recall serve --memory`
// keeps its index copy where the single-memory commands keep it: in
// $RECALL_CACHE_DIR, or with --cache-in-folder in <folder>/.recall and
// nothing in the cache directory.
func TestServeMemoriesCache(t *testing.T) {
	for _, inFolder := range []bool{false, true} {
		sample, cacheHome := settledSample(t), t.TempDir()
		env := map[string]string{"RECALL_CACHE_DIR": cacheHome}
		var stderr syncBuffer
		root := newRootCmd(nil, io.Discard, &stderr, func(k string) string { return env[k] })
		args := []string{"serve", "--addr", "127.0.0.1:0", "--memory", "alice=" + sample}
		if inFolder {
			args = append(args, "--cache-in-folder")
		}
		root.SetArgs(args)
		ctx, stop := context.WithCancel(context.Background())
		code := make(chan int, 1)
		go func() { code <- execute(ctx, root) }()
		base := listenAddr(t, &stderr)
		resp, err := http.Post(base+"/v1/m/alice/retrieve", "application/json", strings.NewReader(`{"query":"想去海边玩"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("retrieve: %d", resp.StatusCode)
		}
		stop()
		if c := <-code; c != 0 {
			t.Fatalf("serve exited %d:\n%s", c, stderr.String())
		}
		_, errFolder := os.Stat(filepath.Join(sample, ".recall", "index"))
		inCache, _ := os.ReadDir(cacheHome)
		switch {
		case inFolder && (errFolder != nil || len(inCache) != 0):
			t.Errorf("--cache-in-folder: the folder's copy: %v; the cache directory holds %v", errFolder, inCache)
		case !inFolder && (errFolder == nil || len(inCache) == 0):
			t.Errorf("$RECALL_CACHE_DIR: the folder holds a copy (%v); the cache directory holds %v", errFolder, inCache)
		}
	}
}
