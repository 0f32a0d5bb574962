package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	fsstore "github.com/recallhq/recall/store/fs"
)

func newHandler(t *testing.T) (*service.Memory, http.Handler) {
	t.Helper()
	st, err := fsstore.Open(filepath.Join(t.TempDir(), "m"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m := service.New(st, service.Options{})
	t.Cleanup(func() { m.Close() })
	h, err := httpapi.New(m, httpapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m, h
}

func send(h http.Handler, method, path, body string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "http://localhost"+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// PUT with If-None-Match: * creates only: over an existing entry it is
// 412 and writes nothing. Without it, an update's answer is as before.
func TestPutIfNoneMatch(t *testing.T) {
	m, h := newHandler(t)
	if rec := send(h, "PUT", "/v1/entries/trips/sanya", `{"content":"the sea"}`, "If-None-Match", "*"); rec.Code != http.StatusCreated {
		t.Fatalf("If-None-Match: * on a new entry: %d %s", rec.Code, rec.Body)
	}
	rec := send(h, "PUT", "/v1/entries/trips/sanya", `{"content":"gone"}`, "If-None-Match", "*")
	var e httpapi.Error
	if rec.Code != http.StatusPreconditionFailed || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Field != "If-None-Match" || !strings.Contains(e.Message, "already exists") {
		t.Errorf("If-None-Match: * on an existing entry: %d %s, want 412 naming If-None-Match", rec.Code, rec.Body)
	}
	if got, err := m.Get(context.Background(), "trips", "sanya"); err != nil || got.Content != "the sea" {
		t.Errorf("after a refused PUT: %q, %v", got.Content, err)
	}
	if rec := send(h, "PUT", "/v1/entries/trips/sanya", `{"content":"x"}`, "If-None-Match", `"abc"`); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "If-None-Match") {
		t.Errorf("If-None-Match with an entity tag: %d %s, want 400", rec.Code, rec.Body)
	}
	rec = send(h, "PUT", "/v1/entries/trips/sanya", `{"content":"the sea, again"}`)
	if rec.Code != http.StatusOK || rec.Body.String() != `{"category":"trips","name":"sanya","status":"updated"}`+"\n" {
		t.Errorf("a plain update: %d %q", rec.Code, rec.Body)
	}
}

// A category path sent with its "/" unescaped matches no endpoint; the
// 404 says to escape it as %2F, and the escaped path works.
func TestUnescapedSlashInCategory(t *testing.T) {
	_, h := newHandler(t)
	for path, want := range map[string]string{
		"/v1/entries/projects/harbor/notes":        "/v1/entries/projects%2Fharbor/notes",
		"/v1/entries/a/b/c/notes":                  "/v1/entries/a%2Fb%2Fc/notes",
		"/v1/entries/projects/harbor/notes/append": "/v1/entries/projects%2Fharbor/notes/append",
		"/v1/entries/projects/harbor/notes/edit":   "/v1/entries/projects%2Fharbor/notes/edit",
	} {
		rec := send(h, "GET", path, "")
		var e httpapi.Error
		if rec.Code != http.StatusNotFound || json.Unmarshal(rec.Body.Bytes(), &e) != nil || !strings.Contains(e.Message, "%2F") || !strings.Contains(e.Message, want) {
			t.Errorf("GET %s: %d %s, want 404 suggesting %s", path, rec.Code, rec.Body, want)
		}
	}
	if rec := send(h, "GET", "/v1/nothing/here", ""); rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), "%2F") {
		t.Errorf("an unknown endpoint: %d %s", rec.Code, rec.Body)
	}
	if rec := send(h, "PUT", "/v1/entries/projects%2Fharbor/notes", `{"content":"x"}`); rec.Code != http.StatusCreated {
		t.Fatalf("PUT with %%2F: %d %s", rec.Code, rec.Body)
	}
	if rec := send(h, "GET", "/v1/entries/projects%2Fharbor/notes", ""); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"category":"projects/harbor"`) {
		t.Errorf("GET with %%2F: %d %s", rec.Code, rec.Body)
	}
}

// A key twice, or a case variant of a field's name, is refused with 400
// naming the key (encoding/json would let one win silently), as JSONL
// import and the MCP tools refuse them.
func TestBodyKeysOneRule(t *testing.T) {
	_, h := newHandler(t)
	for _, c := range []struct{ method, path, body, field string }{
		{"PUT", "/v1/entries/trips/sanya", `{"content":"a","content":"b"}`, "content"},
		{"PUT", "/v1/entries/trips/sanya", `{"content":"a","Content":"b"}`, "Content"},
		{"PUT", "/v1/entries/trips/sanya", `{"CONTENT":"a"}`, "CONTENT"},
		{"POST", "/v1/retrieve", `{"query":"a","Query":"b"}`, "Query"},
		{"POST", "/v1/retrieve", `{"query":"a","limit":1,"limit":1000}`, "limit"},
	} {
		rec := send(h, c.method, c.path, c.body)
		var e httpapi.Error
		if rec.Code != http.StatusBadRequest || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Field != c.field {
			t.Errorf("%s %s %s: %d %s, want 400 naming %s", c.method, c.path, c.body, rec.Code, rec.Body, c.field)
		}
	}
	if rec := send(h, "GET", "/v1/entries/trips/sanya", ""); rec.Code != http.StatusNotFound {
		t.Errorf("a refused PUT wrote the entry: %d %s", rec.Code, rec.Body)
	}
}

// Without a token, a page may call the API only from the server's own
// origin: a loopback name on the port the request was sent to. Another
// port on localhost is another site (any local dev server), refused
// unless given in AllowOrigins; an AllowHosts name is trusted on every
// port.
func TestOriginPort(t *testing.T) {
	st, err := fsstore.Open(filepath.Join(t.TempDir(), "m"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := service.New(st, service.Options{})
	defer m.Close()
	h, err := httpapi.New(m, httpapi.Options{AllowHosts: []string{"recall.lan"}, AllowOrigins: []string{"http://localhost:3000"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		host, origin string
		want         int
	}{
		{"localhost:7411", "http://localhost:7411", 200},
		{"127.0.0.1:7411", "http://localhost:7411", 200},
		{"localhost:7411", "http://LOCALHOST:7411/", 200},
		{"localhost:7411", "http://localhost:8080", 403},
		{"localhost:7411", "http://127.0.0.1:5173", 403},
		{"localhost:7411", "http://localhost", 403},
		{"localhost", "http://localhost", 200},
		{"localhost", "http://localhost:80", 200},
		{"localhost:7411", "https://localhost:7411", 200},
		{"localhost:7411", "http://localhost:3000", 200},  // allowed
		{"localhost:7411", "https://localhost:3000", 403}, // another scheme, another origin
		{"localhost:7411", "http://recall.lan:8443", 200},
		{"localhost:7411", "null", 403},
		{"localhost:7411", "http://evil.example:7411", 403},
	} {
		req := httptest.NewRequest("GET", "http://"+c.host+"/v1/categories", nil)
		req.Header.Set("Origin", c.origin)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != c.want || (c.want == 403 && !strings.Contains(rec.Body.String(), `"field":"Origin"`)) {
			t.Errorf("Host %s, Origin %s: %d %s, want %d", c.host, c.origin, rec.Code, rec.Body, c.want)
		}
	}
	if _, err := httpapi.New(m, httpapi.Options{AllowOrigins: []string{"localhost:3000"}}); err == nil {
		t.Error("an allowed origin without a scheme was accepted")
	}
}
