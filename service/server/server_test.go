package server_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/server"
	"github.com/recallhq/recall/service/tenants"
	"github.com/recallhq/recall/store/bolt"
)

// syncBuffer is a log both the server and the test touch.
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

func get(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Serve answers the API, the page and MCP behind the token until its
// context is done, then closes the memory and its store: the bolt file
// can be opened again at once.
func TestServe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	st, err := bolt.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := service.New(st, service.Options{})
	if _, err := m.Add(context.Background(), service.AddRequest{Category: "notes", Name: "a", Content: "the sea"}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- server.Serve(ctx, m, server.Options{Listener: ln, Token: "s3cret", Desc: "a test store", Log: &logs})
	}()
	base := "http://" + ln.Addr().String()
	if code, _ := get(t, base+"/v1/entries/notes/a", ""); code != http.StatusUnauthorized {
		t.Errorf("no token: status %d, want 401", code)
	}
	if code, body := get(t, base+"/v1/entries/notes/a", "s3cret"); code != 200 || !strings.Contains(body, "the sea") {
		t.Errorf("GET entry: %d %s", code, body)
	}
	if code, body := get(t, base+"/", ""); code != 200 || !strings.Contains(body, "<html") {
		t.Errorf("page: %d %.80s", code, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	for _, want := range []string{"recall serve: listening on http://" + ln.Addr().String() + ", serving a test store\n", "GET /v1/entries/notes/a", "recall serve: stopped\n"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
	st2, err := bolt.Open(path, nil) // the lock is released
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	st2.Close()
}

// Quiet drops the request lines; a bad Addr is reported, prefixed.
func TestServeQuietAndListenError(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "m.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	err = server.Serve(context.Background(), service.New(st, service.Options{}), server.Options{Addr: "127.0.0.1:notaport"})
	if err == nil || !strings.HasPrefix(err.Error(), "serve: listen tcp") {
		t.Fatalf("bad addr: %v", err)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	st, err = bolt.Open(filepath.Join(t.TempDir(), "n.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- server.Serve(ctx, service.New(st, service.Options{}), server.Options{Listener: ln, Quiet: true, Log: &logs})
	}()
	if code, _ := get(t, "http://"+ln.Addr().String()+"/healthz", ""); code != 200 {
		t.Errorf("healthz: %d", code)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), "/healthz") {
		t.Errorf("quiet server logged a request:\n%s", logs.String())
	}
}

// ServeMemories serves each memory at its own routes with its own token;
// Options.Token is one more admin token.
func TestServeMemories(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- server.ServeMemories(ctx, tenants.Options{Create: true, Memories: []tenants.Memory{
			{Name: "alice", Store: filepath.Join(dir, "alice.db"), Tokens: []string{"a-token"}},
			{Name: "bob", Store: filepath.Join(dir, "bob.db"), Tokens: []string{"b-token"}},
		}}, server.Options{Listener: ln, Token: "admin", Log: &logs})
	}()
	base := "http://" + ln.Addr().String()
	for _, c := range []struct {
		path, token string
		want        int
	}{
		{"/v1/m/alice/categories", "a-token", 200},
		{"/v1/m/bob/categories", "a-token", 404}, // another memory's token: not served to it
		{"/v1/m/bob/categories", "admin", 200},
	} {
		code, body := get(t, base+c.path, c.token)
		if code != c.want {
			t.Errorf("GET %s with %s: %d %s, want %d", c.path, c.token, code, body, c.want)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if want := "serving 2 memories at /v1/m/NAME/ and /mcp/NAME"; !strings.Contains(logs.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, logs.String())
	}
}

// Off loopback, memories without any token are refused before any store
// is opened; an admin token or a memory's own token lets them be served.
func TestServeMemoriesOffLoopback(t *testing.T) {
	dir := t.TempDir()
	mems := []tenants.Memory{{Name: "alice", Store: filepath.Join(dir, "alice.db")}}
	err := server.ServeMemories(context.Background(), tenants.Options{Create: true, Memories: mems}, server.Options{Addr: "0.0.0.0:0"})
	if want := "--addr 0.0.0.0:0 is not a loopback address: give the memories tokens"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("no token off loopback: %v, want %q...", err, want)
	}
	if _, err := os.Stat(mems[0].Store); !os.IsNotExist(err) {
		t.Errorf("the refused server created the store: %v", err)
	}
	for _, o := range []server.Options{{Token: "admin"}, {}} {
		mems := []tenants.Memory{{Name: "alice", Store: filepath.Join(dir, "alice.db"), Tokens: []string{"a"}}}
		if o.Token != "" {
			mems[0].Tokens = nil
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // stop at once: only the check is wanted
		o.Addr = "0.0.0.0:0"
		if err := server.ServeMemories(ctx, tenants.Options{Create: true, Memories: mems}, o); err != nil {
			t.Errorf("with a token (%+v): %v", o, err)
		}
	}
}
