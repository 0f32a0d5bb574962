package httpapi_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	fsstore "github.com/recallhq/recall/store/fs"
)

func newPathHandler(t *testing.T, opts httpapi.Options) http.Handler {
	t.Helper()
	st, err := fsstore.Open(filepath.Join(t.TempDir(), "m"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m := service.New(st, service.Options{})
	t.Cleanup(func() { m.Close() })
	h, err := httpapi.New(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// With Options.Path every route moves under it, /healthz too, and the
// headers that name paths (Location, Link) and the 404 hint use it; the
// old paths are 404.
func TestPath(t *testing.T) {
	h := newPathHandler(t, httpapi.Options{Path: "/v1/m/alice"})
	rec := send(h, "PUT", "/v1/m/alice/entries/projects%2Fharbor/notes", `{"content":"the sea"}`)
	if rec.Code != http.StatusCreated || rec.Header().Get("Location") != "/v1/m/alice/entries/projects%2Fharbor/notes" {
		t.Errorf("PUT: %d Location %q", rec.Code, rec.Header().Get("Location"))
	}
	send(h, "PUT", "/v1/m/alice/entries/trips/sanya", `{"content":"the beach"}`)
	rec = send(h, "GET", "/v1/m/alice/entries?limit=1", "")
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Link"), "</v1/m/alice/entries?cursor=") {
		t.Errorf("list: %d Link %q", rec.Code, rec.Header().Get("Link"))
	}
	if rec := send(h, "GET", "/v1/m/alice/healthz", ""); rec.Code != http.StatusOK {
		t.Errorf("healthz: %d %s", rec.Code, rec.Body)
	}
	if rec := send(h, "POST", "/v1/m/alice/retrieve", `{"query":"sea"}`); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "projects/harbor") {
		t.Errorf("retrieve: %d %s", rec.Code, rec.Body)
	}
	for _, p := range []string{"/v1/retrieve", "/healthz", "/v1/entries"} {
		if rec := send(h, "GET", p, ""); rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, rec.Code)
		}
	}
	rec = send(h, "GET", "/v1/m/alice/entries/projects/harbor/notes", "")
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "e.g. /v1/m/alice/entries/projects%2Fharbor/notes") {
		t.Errorf("unescaped category path: %d %s", rec.Code, rec.Body)
	}
	if rec := send(h, "DELETE", "/v1/m/alice/retrieve", ""); rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "POST" {
		t.Errorf("DELETE retrieve: %d Allow %q", rec.Code, rec.Header().Get("Allow"))
	}
	for _, bad := range []string{"v1", "/v1/", "/v1//m"} {
		if _, err := httpapi.New(nil, httpapi.Options{Path: bad}); err == nil {
			t.Errorf("Path %q: no error", bad)
		}
	}
}

// Routes lists what the handler serves: each one answers something other
// than the catch-all 404 and 405, and each path's 405 Allow list holds
// exactly the methods Routes gives it.
func TestRoutes(t *testing.T) {
	h := newPathHandler(t, httpapi.Options{})
	allow := map[string][]string{}
	for _, rt := range httpapi.Routes() {
		path := strings.NewReplacer("{category}", "trips", "{name}", "sanya").Replace(rt.Pattern)
		body := ""
		if rt.Method == "POST" || rt.Method == "PUT" {
			body = "{}"
		}
		rec := send(h, rt.Method, path, body)
		if rec.Code == http.StatusMethodNotAllowed || strings.Contains(rec.Body.String(), "no such endpoint") {
			t.Errorf("%s %s: %d %s", rt.Method, path, rec.Code, rec.Body)
		}
		allow[path] = append(allow[path], rt.Method)
	}
	for path, methods := range allow {
		rec := send(h, "PATCH", path, "")
		got := strings.Split(rec.Header().Get("Allow"), ", ")
		want := 0
		for _, m := range methods {
			want++
			if m == "GET" {
				want++ // HEAD
			}
		}
		if rec.Code != http.StatusMethodNotAllowed || len(got) != want {
			t.Errorf("PATCH %s: %d Allow %q, want the methods %v", path, rec.Code, got, methods)
		}
	}
}

// With Options.Authorized the handler checks nothing itself: a foreign
// Origin is served (the router in front has checked it).
func TestAuthorized(t *testing.T) {
	h := newPathHandler(t, httpapi.Options{Authorized: true})
	req := send(h, "GET", "/v1/categories", "", "Origin", "http://evil.example")
	if req.Code != http.StatusOK {
		t.Errorf("Authorized handler, foreign Origin: %d %s", req.Code, req.Body)
	}
	if _, err := httpapi.New(nil, httpapi.Options{Authorized: true, Token: "x"}); err == nil {
		t.Error("Authorized with a token: no error")
	}
	plain := newPathHandler(t, httpapi.Options{})
	if rec := send(plain, "GET", "/v1/categories", "", "Origin", "http://evil.example"); rec.Code != http.StatusForbidden {
		t.Errorf("default handler, foreign Origin: %d", rec.Code)
	}
}
