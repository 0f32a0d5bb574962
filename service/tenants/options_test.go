package tenants_test

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/service/tenants"
	"github.com/recallhq/recall/store/location"
)

func TestValidateName(t *testing.T) {
	for _, ok := range []string{"alice", "a", "team-7.notes_v2", strings.Repeat("x", 64)} {
		if err := tenants.ValidateName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "Alice", "-a", ".", "..", "a/b", "a b", "é", strings.Repeat("x", 65), "a%2Fb"} {
		if err := tenants.ValidateName(bad); !errors.Is(err, tenants.ErrInvalidName) || !strings.Contains(err.Error(), "lower-case") {
			t.Errorf("%q: %v, want ErrInvalidName saying what a name is", bad, err)
		}
	}
}

func TestParseFlags(t *testing.T) {
	m, err := tenants.ParseMemory("alice=postgres://u:pw@db/recall?schema=alice")
	if err != nil || m.Name != "alice" || m.Store != "postgres://u:pw@db/recall?schema=alice" {
		t.Errorf("ParseMemory: %+v %v", m, err)
	}
	if _, err := tenants.ParseMemory("postgres://u:pw@db/recall"); err == nil || strings.Contains(err.Error(), "pw") {
		t.Errorf("no name: %v (must not show the password)", err)
	}
	env := map[string]string{"BOB_TOKEN": " s3cret\n"}
	name, toks, err := tenants.ParseMemoryToken("bob=env:BOB_TOKEN", func(k string) string { return env[k] })
	if err != nil || name != "bob" || len(toks) != 1 || toks[0] != "s3cret" {
		t.Errorf("env: %q %q %v", name, toks, err)
	}
	p := filepath.Join(t.TempDir(), "tokens")
	os.WriteFile(p, []byte("# alice\nold-one\n\n  new-one  \n"), 0o600)
	if _, toks, err := tenants.ParseMemoryToken("alice=@"+p, nil); err != nil || strings.Join(toks, ",") != "old-one,new-one" {
		t.Errorf("file: %q %v", toks, err)
	}
	for _, bad := range []string{"alice=s3cret-literal", "alice=env:UNSET_VAR_XYZ", "alice=@/nonexistent/file", "Alice=@" + p, "alice"} {
		if _, _, err := tenants.ParseMemoryToken(bad, func(string) string { return "" }); err == nil || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%q: %v, want an error that shows no token", bad, err)
		}
	}
}

func TestNewErrors(t *testing.T) {
	a, b := newStore(t, "bolt"), newStore(t, "folder")
	cases := []struct {
		opts tenants.Options
		want string
	}{
		{tenants.Options{}, "no memory"},
		{tenants.Options{Memories: []tenants.Memory{{Name: "Alice", Store: a}}}, "lower-case"},
		{tenants.Options{Memories: []tenants.Memory{{Name: "a", Store: a}, {Name: "a", Store: b}}}, "given twice"},
		{tenants.Options{Memories: []tenants.Memory{{Name: "a", Store: a}, {Name: "b", Store: a}}}, "same store"},
		{tenants.Options{Memories: []tenants.Memory{{Name: "a", Store: a, Tokens: []string{"t"}}, {Name: "b", Store: b, Tokens: []string{"t"}}}}, "one token is given to memory a and to memory b"},
		{tenants.Options{Memories: []tenants.Memory{{Name: "a", Store: a, Tokens: []string{"t"}}}, AdminTokens: []string{"t"}}, "the admin"},
		{tenants.Options{Memories: []tenants.Memory{{Name: "a", Store: a, Tokens: []string{"t"}}, {Name: "b", Store: b}}}, "memory b has no token"},
		{tenants.Options{Memories: []tenants.Memory{{Name: "a", Store: filepath.Join(t.TempDir(), "typo.db")}}}, "store does not exist"},
		{tenants.Options{Memories: []tenants.Memory{{Name: "a", Store: a}}, Default: "b"}, `default memory "b"`},
		{tenants.Options{Memories: []tenants.Memory{{Name: "a", Store: a, Tokens: []string{" t"}}}}, "whitespace"},
	}
	for _, c := range cases {
		s, err := tenants.New(c.opts)
		if err == nil {
			s.Close()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.opts.Memories, err, c.want)
		}
	}
	if _, err := tenants.New(tenants.Options{Memories: []tenants.Memory{{Name: "a", Store: filepath.Join(t.TempDir(), "typo.db")}}}); !errors.Is(err, location.ErrNotExist) {
		t.Errorf("missing store: %v, want location.ErrNotExist", err)
	}
}

// Without any token the Server answers loopback clients only, as httpapi
// does: a foreign Host or Origin is 403 before any memory is looked up,
// the same for a memory that exists and one that does not.
func TestNoTokens(t *testing.T) {
	s, err := tenants.New(tenants.Options{Memories: []tenants.Memory{{Name: "a", Store: newStore(t, "folder")}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rec := do(s, "GET", "/v1/m/a/categories", "", ""); rec.Code != http.StatusOK {
		t.Errorf("loopback: %d %s", rec.Code, rec.Body)
	}
	if rec := do(s, "GET", "/v1/m/b/categories", "", ""); rec.Code != http.StatusNotFound {
		t.Errorf("unknown memory: %d %s", rec.Code, rec.Body)
	}
	var bodies []string
	for _, name := range []string{"a", "b"} {
		req, _ := http.NewRequest("GET", "http://evil.example/v1/m/"+name+"/categories", nil)
		rec := serve(s, req)
		if rec.Code != http.StatusForbidden {
			t.Errorf("foreign Host on %s: %d", name, rec.Code)
		}
		bodies = append(bodies, rec.Body.String())
		req, _ = http.NewRequest("GET", "http://localhost/v1/m/"+name+"/categories", nil)
		req.Header.Set("Origin", "http://evil.example")
		if rec := serve(s, req); rec.Code != http.StatusForbidden {
			t.Errorf("foreign Origin on %s: %d", name, rec.Code)
		}
	}
	if bodies[0] != bodies[1] {
		t.Errorf("foreign Host: %q vs %q", bodies[0], bodies[1])
	}
}

// Without a default memory the single-memory routes are 404 (saying where
// the memories are) and /healthz is the server's own; with one, they are
// that memory's, with its tokens (/healthz open, as on a single-memory
// server).
func TestDefaultMemory(t *testing.T) {
	mems := []tenants.Memory{
		{Name: "a", Store: newStore(t, "bolt"), Tokens: []string{"tok-a"}},
		{Name: "b", Store: newStore(t, "folder"), Tokens: []string{"tok-b"}},
	}
	s, err := tenants.New(tenants.Options{Memories: mems})
	if err != nil {
		t.Fatal(err)
	}
	if rec := do(s, "POST", "/v1/retrieve", `{"query":"sea"}`, "tok-a"); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "/v1/m/NAME/") {
		t.Errorf("no default, /v1/retrieve: %d %s", rec.Code, rec.Body)
	}
	if rec := do(s, "GET", "/healthz", "", ""); rec.Code != http.StatusOK || rec.Body.String() != "{\"status\":\"ok\"}\n" {
		t.Errorf("no default, /healthz: %d %s", rec.Code, rec.Body)
	}
	if rec := do(s, "GET", "/elsewhere", "", "tok-a"); rec.Code != http.StatusNotFound {
		t.Errorf("/elsewhere: %d", rec.Code)
	}
	s.Close()

	s, err = tenants.New(tenants.Options{Memories: mems, Default: "a"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rec := do(s, "POST", "/v1/retrieve", `{"query":"sea"}`, "tok-a"); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "bolt") {
		t.Errorf("default a, /v1/retrieve: %d %s", rec.Code, rec.Body)
	}
	if rec := do(s, "PUT", "/v1/entries/x/y", `{"content":"z"}`, "tok-a"); rec.Code != http.StatusCreated || rec.Header().Get("Location") != "/v1/entries/x/y" {
		t.Errorf("default a, PUT: %d %s", rec.Code, rec.Header())
	}
	rec := do(s, "POST", "/v1/retrieve", `{"query":"sea"}`, "tok-b")
	ref := do(s, "POST", "/v1/m/c/retrieve", `{"query":"sea"}`, "tok-b")
	if rec.Code != http.StatusNotFound || !bytes.Equal(rec.Body.Bytes(), ref.Body.Bytes()) {
		t.Errorf("b's token on the default memory a: %d %s", rec.Code, rec.Body)
	}
	if rec := do(s, "GET", "/healthz", "", ""); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "revision") {
		t.Errorf("default a, /healthz: %d %s", rec.Code, rec.Body)
	}
	if rec := do(s, "POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "tok-a"); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "retrieve") {
		t.Errorf("default a, /mcp: %d %s", rec.Code, rec.Body)
	}
}

func serve(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestParseFlagsTogether(t *testing.T) {
	env := func(k string) string { return map[string]string{"A1": "one", "A2": "two"}[k] }
	mems, err := tenants.ParseFlags(nil, []string{"a=x.db", "b=y"}, []string{"a=env:A1", "a=env:A2"}, env)
	if err != nil || len(mems) != 2 || strings.Join(mems[0].Tokens, ",") != "one,two" || len(mems[1].Tokens) != 0 {
		t.Errorf("%+v %v", mems, err)
	}
	if _, err := tenants.ParseFlags(nil, []string{"a=x.db"}, []string{"c=env:A1"}, env); err == nil || !strings.Contains(err.Error(), "memory c") {
		t.Errorf("token for an unknown memory: %v", err)
	}
	if _, err := tenants.ParseFlags(nil, []string{"a=x.db", "a=y.db"}, nil, env); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("twice: %v", err)
	}
}
