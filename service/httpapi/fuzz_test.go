package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	fsstore "github.com/recallhq/recall/store/fs"
)

// fuzzEndpoints are the requests that take a JSON body.
var fuzzEndpoints = []struct{ method, path string }{
	{"POST", "/v1/retrieve"},
	{"PUT", "/v1/entries/fz/x"},
	{"POST", "/v1/entries/fz/x/append"},
	{"POST", "/v1/entries/fz/x/edit"},
}

// FuzzRequestBodies sends arbitrary bytes as the body of each endpoint
// that decodes one, through the real handler over a folder store. The
// handler must never panic, never answer 5xx, and answer every 4xx with
// a JSON error object.
func FuzzRequestBodies(f *testing.F) {
	for _, s := range []string{
		`{"query":"coffee"}`,
		`{"query":"coffee","limit":3,"budget_tokens":0,"expand_links":false,"explain":true,"categories":["fz"],"tags":["a"],"min_score":-1}`,
		`{"content":"flat white, no sugar","tags":["a","b"]}`,
		`{"text":"more"}`,
		`{"old_text":"flat","new_text":"long"}`,
		`{"query":"\ud800"}`,
		`{"content":"x","tags":[""]}`,
		`{"content":"x","content":"y"}`,
		`{"Content":"x"}`, `{"query":"a","QUERY":"b"}`, `{"content":"x","tags":["a"],"tags":[]}`,
		`{"query":1e999}`,
		`{"limit":-1}`,
		`[]`, `null`, `"x"`, `{`, ``, `{"query":"a"} {"query":"b"}`,
		"{\"query\":\"\xff\"}",
	} {
		for i := range fuzzEndpoints {
			f.Add(uint8(i), []byte(s))
		}
	}
	st, err := fsstore.Open(filepath.Join(f.TempDir(), "m"), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	m := service.New(st, service.Options{})
	if _, err := m.Add(context.Background(), service.AddRequest{Category: "fz", Name: "x", Content: "flat white coffee"}); err != nil {
		f.Fatal(err)
	}
	h, err := httpapi.New(m, httpapi.Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		ep := fuzzEndpoints[int(which)%len(fuzzEndpoints)]
		req := httptest.NewRequest(ep.method, "http://127.0.0.1"+ep.path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s %q: %d %s", ep.method, ep.path, body, rec.Code, rec.Body)
		}
		if rec.Code >= 400 {
			var e struct {
				Error *string `json:"error"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == nil || *e.Error == "" {
				t.Fatalf("%s %s %q: %d with a body that is no JSON error: %q", ep.method, ep.path, body, rec.Code, rec.Body)
			}
		} else if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %s %q: %d with a body that is not JSON: %q", ep.method, ep.path, body, rec.Code, rec.Body)
		}
	})
}

// Junk bodies are refused with 400 and a JSON error, on every endpoint.
func TestJunkBodiesAre400(t *testing.T) {
	st, err := fsstore.Open(filepath.Join(t.TempDir(), "m"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h, err := httpapi.New(service.New(st, service.Options{}), httpapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range fuzzEndpoints {
		for _, body := range []string{`{`, `[]`, `"x"`, `{"nope":1}`, "\xff", `{"a":1} {"b":2}`} {
			req := httptest.NewRequest(ep.method, "http://127.0.0.1"+ep.path, bytes.NewReader([]byte(body)))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			var e struct {
				Error string `json:"error"`
			}
			if rec.Code != http.StatusBadRequest || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Error == "" {
				t.Errorf("%s %s %q: %d %q, want 400 with a JSON error", ep.method, ep.path, body, rec.Code, rec.Body)
			}
		}
	}
}
