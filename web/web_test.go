package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/internal/sample"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	fsstore "github.com/recallhq/recall/store/fs"
)

// copyMemory copies the sample memory into a temporary folder.
func copyMemory(t testing.TB) string {
	t.Helper()
	return sample.Copy(t)
}

func TestPage(t *testing.T) {
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-API", "1")
		w.WriteHeader(http.StatusTeapot)
	})
	h := Page(api, Options{Embedder: `hash-v2 <512>`, Alpha: 0.9})
	tests := []struct {
		method, path string
		status       int
		api          bool
		ctype        string
	}{
		{"GET", "/", 200, false, "text/html; charset=utf-8"},
		{"HEAD", "/", 200, false, "text/html; charset=utf-8"},
		{"GET", "/assets/api.js", 200, false, "text/javascript; charset=utf-8"},
		{"GET", "/assets/app.js", 200, false, "text/javascript; charset=utf-8"},
		{"GET", "/assets/app.css", 200, false, "text/css; charset=utf-8"},
		{"POST", "/", 418, true, ""},             // not a page request: the API's
		{"PUT", "/assets/app.js", 418, true, ""}, // the page never takes writes
		{"GET", "/assets/nope.js", 418, true, ""},
		{"GET", "/v1/entries", 418, true, ""},
		{"GET", "/healthz", 418, true, ""},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.path, nil))
		if rec.Code != tt.status || (rec.Header().Get("X-API") == "1") != tt.api {
			t.Errorf("%s %s: status %d, api %v; want %d, %v", tt.method, tt.path, rec.Code, rec.Header().Get("X-API") == "1", tt.status, tt.api)
			continue
		}
		if tt.api {
			continue
		}
		if got := rec.Header().Get("Content-Type"); got != tt.ctype {
			t.Errorf("%s %s: Content-Type %q, want %q", tt.method, tt.path, got, tt.ctype)
		}
		for _, k := range []string{"Content-Security-Policy", "ETag", "X-Content-Type-Options", "X-Frame-Options"} {
			if rec.Header().Get(k) == "" {
				t.Errorf("%s %s: no %s header", tt.method, tt.path, k)
			}
		}
	}

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	body := rec.Body.String()
	if !strings.Contains(body, `<meta name="recall-embedder" content="hash-v2 &lt;512&gt;">`) || !strings.Contains(body, `content="0.9"`) {
		t.Errorf("index.html does not carry the options, escaped:\n%s", body[:min(len(body), 600)])
	}
	// Nothing is loaded from elsewhere.
	for _, name := range []string{"assets/index.html", "assets/app.js", "assets/api.js", "assets/app.css"} {
		b, _ := assets.ReadFile(name)
		for _, bad := range []string{"http://", "https://", "//cdn", "@import", "fonts.g"} {
			if strings.Contains(string(b), bad) && !(bad == "http://" && strings.Contains(string(b), "http://www.w3.org/2000/svg")) {
				t.Errorf("%s mentions %q: the page must work offline", name, bad)
			}
		}
	}

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/assets/app.js", nil))
	req := httptest.NewRequest("GET", "/assets/app.js", nil)
	req.Header.Set("If-None-Match", rec.Header().Get("ETag"))
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("GET with a matching If-None-Match: %d, want 304", rec.Code)
	}
}

func TestLinks(t *testing.T) {
	ctx := context.Background()
	st, err := fsstore.Open(copyMemory(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	eng := retrieve.New(st, retrieve.Options{})
	// One unresolved link, one repeated, one to itself.
	err = eng.Put(ctx, store.Entry{Category: "trips", Name: "draft", Content: "See [[trips:青岛计划]], [[people:nobody]], [[trips:青岛计划]] and [[draft]]."})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /v1/links/{category}/{name}", Links(eng))

	get := func(category, name string) (int, LinksResult, string) {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/links/"+url.PathEscape(category)+"/"+url.PathEscape(name), nil))
		body, _ := io.ReadAll(rec.Body)
		var res LinksResult
		if rec.Code == 200 {
			if err := json.Unmarshal(body, &res); err != nil {
				t.Fatalf("GET links %s:%s: %v\n%s", category, name, err, body)
			}
		}
		return rec.Code, res, string(body)
	}

	code, res, body := get("trips", "青岛计划")
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	var out []string
	for _, l := range res.Links {
		out = append(out, l.Category+":"+l.Name+map[bool]string{true: "", false: "?"}[l.Resolved])
	}
	if want := []string{"work:release-calendar", "people:小雨"}; !slices.Equal(out, want) {
		t.Errorf("links = %v, want %v", out, want)
	}
	if res.Links[0].Label != "上线截止日期" || res.Links[0].Raw != "[[work:release-calendar|上线截止日期]]" {
		t.Errorf("first link = %+v", res.Links[0])
	}
	var back []string
	for _, b := range res.Backlinks {
		back = append(back, b.Category+":"+b.Name)
	}
	if want := []string{"people:小雨", "preferences:喜欢海边", "trips:draft"}; !slices.Equal(back, want) {
		t.Errorf("backlinks = %v, want %v", back, want)
	}

	_, res, _ = get("trips", "draft")
	out = out[:0]
	for _, l := range res.Links {
		out = append(out, l.Raw+map[bool]string{true: "", false: "?"}[l.Resolved])
	}
	// [[draft]] in trips:draft is the entry itself (SPEC §7 step 3): no link.
	if want := []string{"[[trips:青岛计划]]", "[[people:nobody]]?"}; !slices.Equal(out, want) {
		t.Errorf("draft links = %v, want %v", out, want)
	}
	if len(res.Backlinks) != 0 {
		t.Errorf("a link to itself is not a backlink: %v", res.Backlinks)
	}

	// A delete through the engine is seen by the next answer.
	if err := eng.Delete(ctx, "trips", "draft"); err != nil {
		t.Fatal(err)
	}
	_, res, _ = get("trips", "青岛计划")
	if len(res.Backlinks) != 2 {
		t.Errorf("after the delete, backlinks = %v", res.Backlinks)
	}

	for _, tt := range []struct {
		category, name string
		status         int
		want           string
	}{
		{"trips", "nope", 404, "not found"},
		{"trips", "a:b", 400, `"field":"name"`},
		{"a|b", "x", 400, `"field":"category"`},
	} {
		code, _, body := get(tt.category, tt.name)
		if code != tt.status || !strings.Contains(body, tt.want) {
			t.Errorf("GET links %s:%s = %d %s, want %d with %s", tt.category, tt.name, code, body, tt.status, tt.want)
		}
	}
}
