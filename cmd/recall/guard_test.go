package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/service/httpapi"
)

// SPEC §9, issue 9: without a token, only loopback Hosts and no foreign
// Origin (no DNS rebinding, no cross-site writes), and JSON bodies only.
func TestServeRefusesForeignHostOriginAndNonJSON(t *testing.T) {
	srv := newTestServer(t, openFS(t, copySample(t), nil), "")
	cases := []struct {
		name    string
		method  string
		path    string
		body    string
		headers []string
		status  int
		mention string
	}{
		{"rebinding PUT", "PUT", "/v1/entries/pwn/x", `{"content":"injected"}`, []string{"Host", "evil.example:7411", "Origin", "http://evil.example"}, 403, "Host"},
		{"rebinding DELETE", "DELETE", "/v1/entries/trips/三亚之行", ``, []string{"Host", "evil.example"}, 403, "Host"},
		{"foreign origin", "POST", "/v1/retrieve", `{"query":"海边"}`, []string{"Origin", "http://evil.example"}, 403, "web page"},
		{"null origin", "POST", "/v1/retrieve", `{"query":"海边"}`, []string{"Origin", "null"}, 403, "web page"},
		{"text/plain", "POST", "/v1/retrieve", `{"query":"海边"}`, []string{"Content-Type", "text/plain"}, 415, "application/json"},
		{"form", "PUT", "/v1/entries/pwn/x", `{"content":"x"}`, []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "application/json"},
		{"localhost host", "POST", "/v1/retrieve", `{"query":"海边"}`, []string{"Host", "localhost:7411", "Origin", "http://localhost:7411"}, 200, ""},
		{"localhost, another port", "POST", "/v1/retrieve", `{"query":"海边"}`, []string{"Host", "localhost:7411", "Origin", "http://localhost:3000"}, 403, "web page"},
		{"ipv6 loopback", "GET", "/v1/categories", ``, []string{"Host", "[::1]:7411"}, 200, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, b := srv.do(t, tc.method, tc.path, tc.body, tc.headers...)
			if resp.StatusCode != tc.status || !strings.Contains(string(b), tc.mention) {
				t.Errorf("%d %s, want %d mentioning %q", resp.StatusCode, b, tc.status, tc.mention)
			}
		})
	}
	if resp, _ := srv.do(t, "GET", "/v1/entries/pwn/x", ""); resp.StatusCode != 404 {
		t.Errorf("a refused write landed: %d", resp.StatusCode)
	}
}

func TestServeAllowHost(t *testing.T) {
	st := openFS(t, copySample(t), nil)
	a := &app{getenv: func(string) string { return "" }}
	m, err := a.newMemory(st, &engineFlags{analysis: analyzerFlags{segmenter: "off"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := httpapi.New(m, httpapi.Options{AllowHosts: []string{"recall.lan"}})
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]int{"recall.lan:7411": 200, "RECALL.LAN": 200, "other.lan": 403} {
		req, _ := http.NewRequest("GET", "http://"+host+"/v1/categories", nil)
		rec := newRecorder()
		h.ServeHTTP(rec, req)
		if rec.status != want {
			t.Errorf("Host %s: %d, want %d", host, rec.status, want)
		}
	}
	if _, err := httpapi.New(m, httpapi.Options{Token: " s3cret"}); err == nil {
		t.Error("a token with surrounding whitespace was accepted")
	}
}

type recorder struct {
	h      http.Header
	status int
}

func newRecorder() *recorder                          { return &recorder{h: http.Header{}} }
func (r *recorder) Header() http.Header               { return r.h }
func (r *recorder) Write(b []byte) (int, error)       { return len(b), nil }
func (r *recorder) WriteHeader(status int)            { r.status = status }
func (r *recorder) Flush()                            {}
func (r *recorder) ReadFrom(io.Reader) (int64, error) { return 0, nil }

// A folder store whose root vanished is reported, not answered from: 503,
// and /healthz fails.
func TestServeStoreGone(t *testing.T) {
	dir := copySample(t)
	srv := newTestServer(t, openFS(t, dir, nil), "")
	srv.want(t, 200, "GET", "/healthz", "")
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	srv.want(t, 503, "GET", "/healthz", "")
	srv.want(t, 503, "POST", "/v1/retrieve", `{"query": "海边"}`)
	srv.want(t, 503, "GET", "/v1/entries", "")
}

// Issue 9: one bad frame never ends `recall mcp`: each gets a JSON-RPC
// error (or is dropped with a stderr line) and the next request is served.
func TestMCPSurvivesBadFrames(t *testing.T) {
	cmd := exec.Command(recallBinary(t), "--store", copySample(t), "mcp")
	cmd.Env = childEnv(t)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(s string) {
		if _, err := io.WriteString(stdin, s+"\n"); err != nil {
			t.Fatalf("write %.40q: %v (stderr %s)", s, err, stderr)
		}
	}
	next := func() map[string]any {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the server ended; stderr:\n%s", stderr)
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("not JSON: %q", l)
			}
			return m
		case <-time.After(20 * time.Second):
			t.Fatalf("no answer; stderr:\n%s", stderr)
		}
		return nil
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if m := next(); m["id"] != float64(1) || m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	bad := []struct {
		frame string
		code  float64
	}{
		{`{"jsonrpc":"2.0","id":2,"method":`, -32700},
		{`not json at all`, -32700},
		{`[{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`, -32600},
		{`{"jsonrpc":"1.0","id":4,"method":"tools/list"}`, -32600},
		{`{"id":5,"method":"tools/list"}`, -32600},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, -32600},
		{`{"jsonrpc":"2.0","id":6,"method":7}`, -32600},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"retrieve","arguments":{"query":"` + strings.Repeat("x", 4<<20+70<<10) + `"}}}`, -32600},
	}
	for i, b := range bad {
		send(b.frame)
		m := next()
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != b.code {
			t.Errorf("bad frame %d: %v, want error %v", i, m, b.code)
		}
		send(`{"jsonrpc":"2.0","id":100,"method":"tools/call","params":{"name":"retrieve","arguments":{"query":"海边","limit":1}}}`)
		if m := next(); m["id"] != float64(100) || m["result"] == nil {
			t.Fatalf("after bad frame %d: %v", i, m)
		}
	}
	// Arguments JSON cannot hold as text are refused, not mangled.
	send(`{"jsonrpc":"2.0","id":101,"method":"tools/call","params":{"name":"add","arguments":{"category":"notes","name":"x","content":"bad \ud800 text"}}}`)
	if m := next(); !strings.Contains(toJSON(m), "unpaired UTF-16 surrogate") || !strings.Contains(toJSON(m), `"isError":true`) {
		t.Errorf("lone surrogate in add: %v", m)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v; stderr:\n%s", err, stderr)
	}
	if !strings.Contains(stderr.String(), "frame 3 dropped") {
		t.Errorf("stderr does not report the dropped frames:\n%s", stderr)
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// /healthz counts the entries the store could not read (issue 9: servers
// report store errors honestly).
func TestServeHealthzCountsUnreadable(t *testing.T) {
	dir := copySample(t)
	if err := os.WriteFile(dir+"/notes/broken.md", []byte("body \xff") /* not UTF-8; broken front matter is read since issue 24 */, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, openFS(t, dir, nil), "")
	b := srv.want(t, 200, "GET", "/healthz", "")
	if !strings.Contains(string(b), `"unreadable":1`) {
		t.Errorf("healthz: %s", b)
	}
}
