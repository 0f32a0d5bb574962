package tenants_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	"github.com/recallhq/recall/service/mcptools"
	"github.com/recallhq/recall/service/tenants"
	"github.com/recallhq/recall/store/location"
)

// newStore makes an empty store of a backend and returns its location:
// a folder, a bolt file, or a schema of the test PostgreSQL database
// (dropped at the end).
func newStore(t *testing.T, backend string) string {
	t.Helper()
	var loc string
	switch backend {
	case "folder":
		loc = filepath.Join(t.TempDir(), "memory")
	case "bolt":
		loc = filepath.Join(t.TempDir(), "memory.db")
	case "postgres":
		url := os.Getenv("RECALL_TEST_POSTGRES_URL")
		if url == "" {
			if os.Getenv("CI") == "true" {
				t.Fatal("CI=true: the PostgreSQL tests must run")
			}
			return ""
		}
		var b [6]byte
		_, _ = rand.Read(b[:])
		schema := "tenants_" + hex.EncodeToString(b[:])
		sep := "?"
		if strings.Contains(url, "?") {
			sep = "&"
		}
		loc = url + sep + "schema=" + schema
		t.Cleanup(func() {
			ctx := context.Background()
			c, err := pgx.Connect(ctx, url)
			if err == nil {
				_, _ = c.Exec(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE")
				c.Close(ctx)
			}
		})
	}
	st, _, err := location.Open(context.Background(), loc, &location.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	m := service.New(st, service.Options{})
	if _, err := m.Add(context.Background(), service.AddRequest{Category: "trips", Name: "sanya", Content: "the sea at Sanya, " + backend}); err != nil {
		t.Fatal(err)
	}
	m.Close()
	st.Close()
	return loc
}

func writeToken(t *testing.T, tok string) string {
	p := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(p, []byte("# rotated monthly\n"+tok+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return "@" + p
}

// probe is one request of the isolation table.
type probe struct {
	method, path string // path as served by a single-memory handler
	body         string
}

// probes are every route of httpapi.Routes (so a new route is covered
// without touching this test) and the MCP endpoint, each with every
// method; bodies are valid for the route's own method.
func probes() []probe {
	routes := append(httpapi.Routes(), httpapi.Route{Method: "POST", Pattern: "/mcp"})
	var ps []probe
	for _, rt := range routes {
		path := strings.NewReplacer("{category}", "trips", "{name}", "sanya").Replace(rt.Pattern)
		body := ""
		switch {
		case rt.Pattern == "/mcp":
			body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"retrieve","arguments":{"query":"sea"}}}`
		case strings.HasSuffix(path, "/append"):
			body = `{"text":"More sea."}`
		case strings.HasSuffix(path, "/edit"):
			body = `{"old_text":"sea","new_text":"ocean"}`
		case strings.HasSuffix(path, "/retrieve"):
			body = `{"query":"sea"}`
		case rt.Method == "PUT":
			body = `{"content":"the sea at Sanya, again"}`
		}
		for _, method := range []string{"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"} {
			ps = append(ps, probe{method, path, body})
		}
	}
	return ps
}

// under is p's path on memory name of a tenants.Server.
func (p probe) under(name string) string {
	switch {
	case p.path == "/mcp":
		return "/mcp/" + name
	case p.path == "/healthz":
		return "/v1/m/" + name + "/healthz"
	}
	return "/v1/m/" + name + strings.TrimPrefix(p.path, "/v1")
}

func do(h http.Handler, method, path, body, token string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "http://localhost"+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if strings.HasPrefix(path, "/mcp") {
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// Every route × every method × {own token, another memory's token, an
// admin token, none}, on memories of every backend: the own and the admin
// token get exactly what a single-memory server over a twin store
// answers (the same requests in the same order, so the two stores move
// alike), another memory's token gets 404 with the very body an unknown
// memory gets, no token gets 401; and no write reached another memory.
func TestIsolation(t *testing.T) {
	backends := []string{"folder", "bolt", "postgres"}
	var mems []tenants.Memory
	twins := map[string]http.Handler{}
	for _, b := range backends {
		loc := newStore(t, b)
		if loc == "" {
			t.Logf("no PostgreSQL (RECALL_TEST_POSTGRES_URL): the %s memory is left out", b)
			continue
		}
		name := b + "-mem"
		tokens, err := tenants.ReadTokens(writeToken(t, "tok-"+name), nil)
		if err != nil {
			t.Fatal(err)
		}
		mems = append(mems, tenants.Memory{Name: name, Store: loc, Tokens: tokens})

		// The twin: a single-memory handler over a store of the same
		// backend and content.
		tloc := newStore(t, b)
		st, _, err := location.Open(context.Background(), tloc, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := service.New(st, service.Options{})
		t.Cleanup(func() { m.Close(); st.Close() })
		h, err := httpapi.New(m, httpapi.Options{Token: "twin"})
		if err != nil {
			t.Fatal(err)
		}
		h.Handle("/mcp", mcptools.NewHTTPHandler(m, mcptools.Options{}))
		twins[name] = h
	}
	s, err := tenants.New(tenants.Options{Memories: mems, AdminTokens: []string{"tok-admin"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })

	unknown := func(p probe, token string) *httptest.ResponseRecorder {
		return do(s, p.method, p.under("nobody"), p.body, token)
	}
	n := 0
	for i, mem := range mems {
		other := mems[(i+1)%len(mems)]
		if len(mems) == 1 {
			other = tenants.Memory{Name: "x", Tokens: []string{"tok-admin"}}
		}
		for _, who := range []string{"own", "admin"} {
			tok := "tok-" + mem.Name
			if who == "admin" {
				tok = "tok-admin"
			}
			for _, p := range probes() {
				got := do(s, p.method, p.under(mem.Name), p.body, tok)
				want := do(twins[mem.Name], p.method, p.path, p.body, "twin")
				if got.Code != want.Code {
					t.Errorf("%s token: %s %s: %d %s, a single-memory server answers %d %s", who, p.method, p.under(mem.Name), got.Code, got.Body, want.Code, want.Body)
				}
				n++
			}
		}
		for _, p := range probes() {
			path := p.under(mem.Name)
			rec := do(s, p.method, path, p.body, "tok-"+other.Name)
			ref := unknown(p, "tok-"+other.Name)
			if rec.Code != http.StatusNotFound || ref.Code != http.StatusNotFound || !bytes.Equal(rec.Body.Bytes(), ref.Body.Bytes()) || !sameHeaders(rec, ref) {
				t.Errorf("%s's token on %s %s: %d %q %v, an unknown memory: %d %q %v; want the same 404", other.Name, p.method, path, rec.Code, rec.Body, rec.Header(), ref.Code, ref.Body, ref.Header())
			}
			if ref := unknown(p, "tok-admin"); !bytes.Equal(rec.Body.Bytes(), ref.Body.Bytes()) || ref.Code != http.StatusNotFound {
				t.Errorf("admin on an unknown memory, %s: %d %q", p.method, ref.Code, ref.Body)
			}
			for _, bad := range []string{"", "tok-wrong"} {
				rec := do(s, p.method, path, p.body, bad)
				ref := unknown(p, bad)
				if rec.Code != http.StatusUnauthorized || ref.Code != http.StatusUnauthorized || !bytes.Equal(rec.Body.Bytes(), ref.Body.Bytes()) || rec.Header().Get("WWW-Authenticate") == "" {
					t.Errorf("token %q on %s %s: %d %s (unknown memory: %d), want 401", bad, p.method, path, rec.Code, rec.Body, ref.Code)
				}
			}
			n += 4
		}
	}
	t.Logf("%d requests checked on %d memories", n, len(mems))

	// Each memory holds only what was written to it: its own content,
	// edited and appended to, never another backend's.
	for _, mem := range mems {
		s.Close()
		st, _, err := location.Open(context.Background(), mem.Store, nil)
		if err != nil {
			t.Fatal(err)
		}
		e, err := st.Get(context.Background(), "trips", "sanya")
		st.Close()
		backend := strings.TrimSuffix(mem.Name, "-mem")
		if err == nil {
			for _, b := range backends {
				if b != backend && strings.Contains(e.Content, ", "+b) {
					t.Errorf("memory %s holds %q, written for %s", mem.Name, e.Content, b)
				}
			}
		}
	}
}

// sameHeaders compares the headers a client could tell two answers apart
// by.
func sameHeaders(a, b *httptest.ResponseRecorder) bool {
	for _, k := range []string{"Content-Type", "Content-Length", "Allow", "WWW-Authenticate", "Location"} {
		if a.Header().Get(k) != b.Header().Get(k) {
			return false
		}
	}
	return len(a.Header()) == len(b.Header())
}

func ExampleNew() {
	dir, _ := os.MkdirTemp("", "tenants")
	defer os.RemoveAll(dir)
	for _, name := range []string{"alice", "bob"} {
		st, _, _ := location.Open(context.Background(), filepath.Join(dir, name+".db"), &location.Options{Create: true})
		service.New(st, service.Options{}).Add(context.Background(), service.AddRequest{Category: "notes", Name: "coffee", Content: name + " takes a flat white"})
		st.Close()
	}
	s, err := tenants.New(tenants.Options{
		Memories: []tenants.Memory{
			{Name: "alice", Store: filepath.Join(dir, "alice.db"), Tokens: []string{"alice-secret"}},
			{Name: "bob", Store: filepath.Join(dir, "bob.db"), Tokens: []string{"bob-secret"}},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	get := func(path, token string) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		defer res.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(res.Body)
		fmt.Println(res.StatusCode, strings.Contains(b.String(), "flat white"))
	}
	get("/v1/m/alice/entries/notes/coffee", "alice-secret")
	get("/v1/m/bob/entries/notes/coffee", "alice-secret")
	get("/v1/m/carol/entries/notes/coffee", "alice-secret")
	// Output:
	// 200 true
	// 404 false
	// 404 false
}
