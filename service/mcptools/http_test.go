package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	"github.com/recallhq/recall/store"
	fsstore "github.com/recallhq/recall/store/fs"
)

// serveHTTP mounts NewHTTPHandler at /mcp of an httpapi.Handler, as
// `recall serve` does, on a real loopback listener, and returns its URL.
func serveHTTP(t testing.TB, m *service.Memory, opts httpapi.Options) string {
	t.Helper()
	api, err := httpapi.New(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	api.Handle("/mcp", NewHTTPHandler(m, Options{}))
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// connectHTTP connects the SDK's own Streamable HTTP client to url,
// speaking protocol version (""; the client's newest).
func connectHTTP(t testing.TB, url string, client *http.Client, version string) (*mcp.ClientSession, error) {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client, MaxRetries: -1}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// toolsJSON is every tool as the client lists it, as JSON.
func toolsJSON(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.Tools)
	return string(b)
}

// Over HTTP the server offers what it offers on stdio: the same
// instructions, the same tools with the same schemas, the same answers;
// for every protocol version a client may speak.
func TestHTTPServesTheSameServer(t *testing.T) {
	m := newMemory(t)
	url := serveHTTP(t, m, httpapi.Options{})
	local := connect(t, m)
	wantTools := toolsJSON(t, local)
	callTool(t, local, "add", map[string]any{"category": "people", "name": "Emma", "content": "Designer in Lisbon.", "tags": []string{"friend"}})
	args := map[string]any{"query": "designer", "limit": 1}
	want := callTool(t, local, "retrieve", args)

	for _, v := range []string{"", "2025-11-25", "2025-06-18", "2025-03-26"} {
		cs, err := connectHTTP(t, url, nil, v)
		if err != nil {
			t.Fatalf("version %q: connect: %v", v, err)
		}
		if got := cs.InitializeResult().Instructions; got != Instructions {
			t.Errorf("version %q: instructions %q", v, got)
		}
		if got := toolsJSON(t, cs); got != wantTools {
			t.Errorf("version %q: tools differ from stdio's:\n%s\nwant\n%s", v, got, wantTools)
		}
		got := callTool(t, cs, "retrieve", args)
		if text(got) != text(want) || !reflect.DeepEqual(got.StructuredContent, want.StructuredContent) {
			t.Errorf("version %q: retrieve answered %q, want %q", v, text(got), text(want))
		}
	}
}

// headers is an http.RoundTripper that sends every request with a Host
// and headers of its choosing.
type headers struct {
	host string
	h    http.Header
}

func (hd headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range hd.h {
		r.Header[k] = v
	}
	if hd.host != "" {
		r.Host = hd.host
	}
	return http.DefaultTransport.RoundTrip(r)
}

func clientWith(host string, kv ...string) *http.Client {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return &http.Client{Transport: headers{host: host, h: h}}
}

// post sends one JSON-RPC message to url as a client of protocol
// version 2025-06-18 would (no session: the server is stateless).
func post(t testing.TB, ctx context.Context, client *http.Client, url string, body io.Reader) (*http.Response, []byte, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "POST", url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// /mcp has the JSON API's protection: with a token, nothing without it;
// without one, only loopback (or allowed) Hosts and the server's own
// Origin. The SDK's client is refused with the status, and so is a bare
// POST.
func TestHTTPRefusals(t *testing.T) {
	m := newMemory(t)
	withToken := serveHTTP(t, m, httpapi.Options{Token: "s3cret"})
	open := serveHTTP(t, m, httpapi.Options{AllowHosts: []string{"recall.lan"}})
	port := open[strings.LastIndex(open, ":")+1 : strings.LastIndex(open, "/")]
	for _, c := range []struct {
		name   string
		url    string
		client *http.Client
		status int // 0: served
		msg    string
	}{
		{"no token", withToken, nil, 401, "bearer token"},
		{"wrong token", withToken, clientWith("", "Authorization", "Bearer nope"), 401, "bearer token"},
		{"the token", withToken, clientWith("", "Authorization", "Bearer s3cret"), 0, ""},
		{"the token, any Host", withToken, clientWith("recall.example.com", "Authorization", "Bearer s3cret"), 0, ""},
		{"loopback", open, nil, 0, ""},
		{"foreign Host", open, clientWith("evil.example:" + port), 403, "Host"},
		{"allowed Host", open, clientWith("recall.lan:" + port), 0, ""},
		{"foreign Origin", open, clientWith("", "Origin", "http://evil.example"), 403, "Origin"},
		{"loopback Origin, other port", open, clientWith("", "Origin", "http://localhost:1"), 403, "Origin"},
		{"opaque Origin", open, clientWith("", "Origin", "null"), 403, "Origin"},
		{"own Origin", open, clientWith("", "Origin", "http://127.0.0.1:"+port), 0, ""},
	} {
		_, err := connectHTTP(t, c.url, c.client, "")
		if c.status == 0 {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), http.StatusText(c.status)) {
			t.Errorf("%s: the SDK client connected or failed otherwise: %v", c.name, err)
		}
		resp, body, err := post(t, context.Background(), c.client, c.url, strings.NewReader(initialize))
		switch {
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.status == 0 && (resp.StatusCode != 200 || !strings.Contains(string(body), `"serverInfo"`)):
			t.Errorf("%s: %d %s", c.name, resp.StatusCode, body)
		case c.status != 0 && (resp.StatusCode != c.status || !strings.Contains(string(body), c.msg)):
			t.Errorf("%s: %d %s, want %d naming %s", c.name, resp.StatusCode, body, c.status, c.msg)
		case c.status == 401 && resp.Header.Get("WWW-Authenticate") == "":
			t.Errorf("%s: 401 without WWW-Authenticate", c.name)
		}
	}
}

// A body is bounded like a stdio frame: an add of the largest entry (1
// MiB), every character escaped as a Python client sends it, fits; one
// byte over the bound is 413 and nothing is written.
func TestHTTPBodyBound(t *testing.T) {
	m := newMemory(t)
	url := serveHTTP(t, m, httpapi.Options{})
	call := func(content string) string {
		return `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"category":"notes","name":"big","content":"` + content + `"}}}`
	}
	big := strings.Repeat(`\u00e9`, store.MaxContentBytes/2) // é: 2 bytes stored, 6 sent
	resp, body, err := post(t, context.Background(), nil, url, strings.NewReader(call(big)))
	if err != nil || resp.StatusCode != 200 || !strings.Contains(string(body), "added notes:big") {
		t.Fatalf("largest add (%d bytes): %v %v %.300s", len(call(big)), err, resp, body)
	}
	if e, err := m.Get(context.Background(), "notes", "big"); err != nil || len(e.Content) != store.MaxContentBytes {
		t.Fatalf("largest add stored %d bytes, %v", len(e.Content), err)
	}
	m.Delete(context.Background(), "notes", "big")

	over := call(strings.Repeat("a", MaxHTTPBodyBytes))
	over = over[:MaxHTTPBodyBytes+1]
	resp, body, err = post(t, context.Background(), nil, url, strings.NewReader(over))
	if err != nil || resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("body over the bound: %v %v %.300s", err, resp, body)
	}
	if _, err := m.Get(context.Background(), "notes", "big"); err == nil {
		t.Error("an oversized body was written")
	}
}

// slowStore is a real folder store whose Revision, which every retrieve
// reads first, blocks once armed until the caller's context ends, and
// says so: a retrieve that takes as long as its client waits.
type slowStore struct {
	store.Store
	armed     atomic.Bool
	entered   chan struct{}
	cancelled chan error
	release   chan struct{}
}

func (s *slowStore) Revision(ctx context.Context) (uint64, error) {
	if s.armed.CompareAndSwap(true, false) {
		close(s.entered)
		select {
		case <-ctx.Done():
			s.cancelled <- context.Cause(ctx)
			return 0, ctx.Err()
		case <-s.release: // the test failed: let the server stop
			return s.Store.Revision(ctx)
		}
	}
	return s.Store.Revision(ctx)
}

// A retrieve whose client goes away (its HTTP request ends) is cancelled,
// for old protocol versions (a bare POST of 2025-06-18, as the TypeScript
// SDK sends) and for the SDK client's newest alike.
func TestHTTPClientGoneCancelsRetrieve(t *testing.T) {
	fs, err := fsstore.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	st := &slowStore{Store: fs}
	m := service.New(st, service.Options{})
	t.Cleanup(func() { m.Close(); fs.Close() })
	url := serveHTTP(t, m, httpapi.Options{})
	st.release = make(chan struct{})
	t.Cleanup(func() { close(st.release) }) // before the server's Close
	const call = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"retrieve","arguments":{"query":"anything"}}}`
	if resp, body, err := post(t, context.Background(), nil, url, strings.NewReader(call)); err != nil || resp.StatusCode != 200 {
		t.Fatalf("warm-up retrieve: %v %v %s", err, resp, body)
	}
	cs, err := connectHTTP(t, url, nil, "")
	if err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name string
		send func(ctx context.Context) error
	}{
		{"POST of 2025-06-18", func(ctx context.Context) error {
			_, _, err := post(t, ctx, nil, url, strings.NewReader(call))
			return err
		}},
		{"SDK client", func(ctx context.Context) error {
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "retrieve", Arguments: map[string]any{"query": "anything"}})
			return err
		}},
	} {
		st.entered, st.cancelled = make(chan struct{}), make(chan error, 1)
		st.armed.Store(true)
		ctx, cancel := context.WithCancel(context.Background())
		sent := make(chan error, 1)
		go func() { sent <- c.send(ctx) }()
		select {
		case <-st.entered:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the retrieve never reached the store", c.name)
		}
		cancel() // the client goes away
		select {
		case <-st.cancelled:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the retrieve went on after its client went away", c.name)
		}
		if err := <-sent; err == nil {
			t.Errorf("%s: the cancelled call answered", c.name)
		}
	}
	// The server serves on.
	if res := callTool(t, cs, "retrieve", map[string]any{"query": "anything"}); res.IsError {
		t.Errorf("after the cancelled calls: %s", text(res))
	}
}

// The handler is stateless: GET (a standalone SSE stream) and DELETE (end
// a session) are 405, no answer names a session, and no session outlives
// its request: after many clients came and went, the goroutines are those
// before.
func TestHTTPNoSessionOutlivesItsRequest(t *testing.T) {
	m := newMemory(t)
	url := serveHTTP(t, m, httpapi.Options{})
	for _, method := range []string{"GET", "DELETE"} {
		req, _ := http.NewRequest(method, url, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", "made-up")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
			t.Errorf("%s: %d, Allow %q", method, resp.StatusCode, resp.Header.Get("Allow"))
		}
	}
	resp, _, err := post(t, context.Background(), nil, url, strings.NewReader(initialize))
	if err != nil || resp.Header.Get("Mcp-Session-Id") != "" {
		t.Errorf("initialize: %v, session %q", err, resp.Header.Get("Mcp-Session-Id"))
	}

	tr := &http.Transport{}
	client := &http.Client{Transport: tr}
	cycle := func(n int) {
		for i := range n {
			cs, err := connectHTTP(t, url, client, []string{"", "2025-06-18"}[i%2])
			if err != nil {
				t.Fatal(err)
			}
			callTool(t, cs, "retrieve", map[string]any{"query": "x"})
			cs.Close()
		}
		tr.CloseIdleConnections()
	}
	cycle(2)
	before := runtime.NumGoroutine()
	cycle(50)
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before+2 {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines after 50 clients, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Many clients at once, each writing and reading its own entries while
// the others do, in a random order of calls, with mixed protocol
// versions: every client reads back what it wrote (run with -race).
func TestHTTPConcurrentClients(t *testing.T) {
	m := newMemory(t)
	url := serveHTTP(t, m, httpapi.Options{Token: "s3cret"})
	client := clientWith("", "Authorization", "Bearer s3cret")
	const clients, rounds = 12, 6
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	var wg sync.WaitGroup
	errs := make(chan error, clients*rounds)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(seed), uint64(c)))
			cs, err := connectHTTP(t, url, client, []string{"", "2025-11-25", "2025-06-18", "2025-03-26"}[c%4])
			if err != nil {
				errs <- err
				return
			}
			word := fmt.Sprintf("zebra%dquux", c)
			for r := range rounds {
				name := fmt.Sprintf("c%d-r%d", c, r)
				do := func(tool string, args map[string]any, want string) {
					res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
					switch {
					case err != nil:
						errs <- fmt.Errorf("client %d %s: %v", c, tool, err)
					case res.IsError || !strings.Contains(text(res), want):
						errs <- fmt.Errorf("client %d %s %v: %q, want %q", c, tool, args, text(res), want)
					}
				}
				do("add", map[string]any{"category": "load", "name": name, "content": word + " round " + fmt.Sprint(r)}, "added load:"+name)
				steps := []func(){
					func() { do("get", map[string]any{"category": "load", "name": name}, word+" round") },
					func() {
						do("retrieve", map[string]any{"query": word, "limit": 20, "expand_links": false}, "load:"+name)
					},
					func() { do("append", map[string]any{"category": "load", "name": name, "text": "more"}, "load:"+name) },
					func() { do("list", map[string]any{"category": "load", "limit": 5}, "load") },
				}
				rng.Shuffle(len(steps), func(i, j int) { steps[i], steps[j] = steps[j], steps[i] })
				for _, s := range steps {
					s()
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	page, err := m.List(context.Background(), service.ListRequest{Category: "load"})
	if err != nil || page.Total != clients*rounds {
		t.Errorf("load holds %d entries (%v), want %d", page.Total, err, clients*rounds)
	}
}

// listenSpy is an http.RoundTripper that watches the answers to
// subscriptions/listen: whether the acknowledgement arrives while the
// stream is open (flushed through httpapi's writer, not held until it
// ends), and when the stream ends.
type listenSpy struct {
	acked, ended chan string // the client's name
	name         string
}

func (s listenSpy) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && bytes.Contains(body, []byte(`"subscriptions/listen"`)) {
		resp.Body = &spyBody{ReadCloser: resp.Body, s: s}
	}
	return resp, err
}

type spyBody struct {
	io.ReadCloser
	s         listenSpy
	seen      []byte
	ack, done bool
}

func (b *spyBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.seen = append(b.seen, p[:n]...)
	if !b.ack && bytes.Contains(b.seen, []byte("notifications/subscriptions/acknowledged")) {
		b.ack = true
		b.s.acked <- b.s.name
	}
	if err != nil && !b.done {
		b.done = true
		b.s.ended <- b.s.name + ": " + string(b.seen)
	}
	return n, err
}

// A client of protocol 2026-07-28 that wants tool-list notifications
// opens a subscriptions/listen stream: served through httpapi, its
// acknowledgement arrives at once; at most MaxStreams are open together
// (one more is refused, and its client still works), each ends after
// StreamTimeout.
func TestHTTPListenStreamsBounded(t *testing.T) {
	m := newMemory(t)
	api, err := httpapi.New(m, httpapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const timeout = 5 * time.Second
	api.Handle("/mcp", NewHTTPHandler(m, Options{MaxStreams: 2, StreamTimeout: timeout}))
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	acked, ended := make(chan string, 10), make(chan string, 10)
	listen := func(name string) *mcp.ClientSession {
		tr := &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", MaxRetries: -1,
			HTTPClient: &http.Client{Transport: listenSpy{acked: acked, ended: ended, name: name}}}
		c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, &mcp.ClientOptions{
			ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {}})
		cs, err := c.Connect(context.Background(), tr, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	wait := func(ch chan string, what string) string {
		t.Helper()
		select {
		case s := <-ch:
			return s
		case <-time.After(timeout + 20*time.Second):
			t.Fatalf("no stream %s", what)
			return ""
		}
	}
	start := time.Now()
	listen("a")
	listen("b")
	got := []string{wait(acked, "acknowledged"), wait(acked, "acknowledged")}
	if d := time.Since(start); d >= timeout {
		t.Errorf("the acknowledgements came after %v, when the streams ended: not flushed", d)
	}
	if slices.Sort(got); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("acknowledged: %v", got)
	}
	c := listen("c") // one too many
	if s := wait(ended, "refused"); !strings.HasPrefix(s, "c: ") || !strings.Contains(s, "at most 2 listen streams") {
		t.Errorf("the third stream: %s", s)
	}
	if res := callTool(t, c, "categories", map[string]any{}); res.IsError {
		t.Errorf("the refused client's call: %s", text(res))
	}
	for range 2 {
		if s := wait(ended, "ended"); !strings.HasPrefix(s, "a: ") && !strings.HasPrefix(s, "b: ") {
			t.Errorf("ended: %s", s)
		}
	}
	if d := time.Since(start); d < timeout {
		t.Errorf("the streams ended after %v, before StreamTimeout", d)
	}
	listen("d") // a slot is free again
	if s := wait(acked, "acknowledged"); s != "d" {
		t.Errorf("after the timeout: %s", s)
	}
}
