package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
)

// testServer is the HTTP API over a store, on a real loopback listener.
type testServer struct {
	url    string
	m      *service.Memory
	client *http.Client
	token  string
	log    *syncBuffer // the server's diagnostics
}

// newTestServer serves st the way `recall serve` does (same memory, same
// handler), minus flags and signals. It closes st at the end of the test.
func newTestServer(t testing.TB, st store.Store, token string) *testServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	a := &app{getenv: func(string) string { return "" }, stderr: io.Discard}
	logs := &syncBuffer{}
	m, err := a.newMemory(st, &engineFlags{analysis: analyzerFlags{segmenter: "off"}}, log.New(logs, "", 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	// Tests start from a warm server: the start-up build is done.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if h, err := m.Health(ctx); err != nil || h.Indexed || time.Now().After(deadline) {
			break
		}
	}
	h, err := httpapi.New(m, httpapi.Options{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(func() {
		hs.Close()
		cancel()
		m.Close()
		st.Close()
	})
	return &testServer{url: hs.URL, m: m, client: hs.Client(), token: token, log: logs}
}

func openFS(t testing.TB, dir string, opts *fsstore.Options) *fsstore.Store {
	t.Helper()
	st, err := fsstore.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func openBolt(t testing.TB, path string) *boltstore.Store {
	t.Helper()
	st, err := boltstore.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func openBackend(t testing.TB, backend, path string) store.Store {
	if backend == "bolt" {
		return openBolt(t, path)
	}
	return openFS(t, path, nil)
}

// do sends one request and returns the response with its body read.
func (s *testServer) do(t testing.TB, method, path, body string, header ...string) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	if method == "POST" || method == "PUT" || method == "PATCH" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1] // what a rebinding page's request carries
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// want sends a request that must answer status, and returns the body.
func (s *testServer) want(t testing.TB, status int, method, path, body string) []byte {
	t.Helper()
	resp, b := s.do(t, method, path, body)
	if resp.StatusCode != status {
		t.Fatalf("%s %s %s: status %d, want %d; body %s", method, path, body, resp.StatusCode, status, b)
	}
	return b
}

func (s *testServer) retrieve(t testing.TB, body string) *retrieve.Result {
	t.Helper()
	var res retrieve.Result
	if err := json.Unmarshal(s.want(t, http.StatusOK, "POST", "/v1/retrieve", body), &res); err != nil {
		t.Fatal(err)
	}
	return &res
}

// TestServeRetrieveMatchesCLI: the HTTP retrieve answer is byte for byte
// what `recall retrieve --json` prints, for each option, on both backends.
func TestServeRetrieveMatchesCLI(t *testing.T) {
	cases := []struct {
		body string
		args []string
	}{
		{`{"query": "想去海边玩"}`, []string{"想去海边玩"}},
		{`{"query": "coffee", "expand_links": false, "limit": 3, "budget_tokens": 0}`, []string{"--no-links", "--limit", "3", "--no-budget", "coffee"}},
		{`{"query": "周末安排", "budget_tokens": 150, "explain": true}`, []string{"--budget", "150", "--explain", "周末安排"}},
		{`{"query": "peanut allergy <sauce> & more", "limit": 2, "expand_links": true}`, []string{"--limit", "2", "peanut allergy <sauce> & more"}},
		{`{"query": "？！..."}`, []string{"？！..."}},
		{`{"query": "海边", "categories": ["trips", "ideas"], "tags": ["海边", "plan"], "limit": 2, "explain": true}`,
			[]string{"--category", "trips", "--category", "ideas", "--tag", "海边", "--tag", "plan", "--limit", "2", "--explain", "海边"}},
		{`{"query": "海边", "min_score": -1}`, []string{"--min-score", "-1", "海边"}},
		// Time: a phrase read from now, a timeline of an explicit range.
		{`{"query": "海边 last week", "now": "2025-06-04T09:00:00+08:00"}`, []string{"--now", "2025-06-04T09:00:00+08:00", "海边 last week"}},
		{`{"query": "", "after": "2024-01-01", "before": "2099-01-01", "now": "2025-06-04T09:00:00+08:00", "limit": 3}`,
			[]string{"--after", "2024-01-01", "--before", "2099-01-01", "--now", "2025-06-04T09:00:00+08:00", "--limit", "3"}},
		{`{"query": "海边 last week", "no_time": true}`, []string{"--no-time", "海边 last week"}},
	}
	stores := sampleStores(t)
	for _, backend := range []string{"fs", "bolt"} {
		t.Run(backend, func(t *testing.T) {
			path := stores[backend]
			c := newCLI(t, nil)
			wants := make([]string, len(cases))
			for i, tc := range cases { // before the server holds a bolt file
				wants[i] = c.ok(append([]string{"--store", path, "retrieve", "--json"}, tc.args...)...)
			}
			srv := newTestServer(t, openBackend(t, backend, path), "")
			for i, tc := range cases {
				resp, got := srv.do(t, "POST", "/v1/retrieve", tc.body)
				if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
					t.Fatalf("%s: status %d, content type %q: %s", tc.body, resp.StatusCode, resp.Header.Get("Content-Type"), got)
				}
				if string(got) != wants[i] {
					t.Errorf("%s: HTTP and CLI differ\n--- HTTP:\n%s\n--- CLI:\n%s", tc.body, got, wants[i])
				}
			}
		})
	}
}

// PUT takes a date; GET and retrieve show it; a bad date is a 400 that
// names the field.
func TestServeDates(t *testing.T) {
	srv := newTestServer(t, openFS(t, filepath.Join(t.TempDir(), "memory"), nil), "")
	srv.want(t, http.StatusCreated, "PUT", "/v1/entries/diary/beach", `{"content": "Swam at the beach.", "date": "2025-05-28"}`)
	if b := srv.want(t, http.StatusOK, "GET", "/v1/entries/diary/beach", ""); !strings.Contains(string(b), `"date":"2025-05-28"`) {
		t.Errorf("GET: %s", b)
	}
	res := srv.retrieve(t, `{"query": "beach last week", "now": "2025-06-04T09:00:00+08:00"}`)
	if len(res.Items) != 1 || res.Items[0].Date != "2025-05-28" || res.TimeRange == nil || res.TimeRange.Text != "last week" {
		t.Errorf("retrieve: %+v %+v", res.Items, res.TimeRange)
	}
	if res := srv.retrieve(t, `{"query": "beach", "before": "2025-05-28", "now": "2025-06-04T09:00:00+08:00"}`); len(res.Items) != 0 {
		t.Errorf("before is exclusive: %+v", res.Items)
	}
	for body, msg := range map[string]string{
		`{"content": "x", "date": "yesterday"}`: `date invalid date`,
	} {
		resp, b := srv.do(t, "PUT", "/v1/entries/diary/bad", body)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), msg) {
			t.Errorf("PUT %s: %d %s", body, resp.StatusCode, b)
		}
	}
	for body, msg := range map[string]string{
		`{"query": "x", "after": "2025-13-01"}`:                         `month 13 is not 01-12`,
		`{"query": "x", "now": "tomorrow"}`:                             `now \"tomorrow\" is not an RFC 3339 time`,
		`{"query": "x", "after": "2025-06-02", "before": "2025-06-01"}`: `must be later than after`,
		`{"query": ""}`: `query must not be empty`,
	} {
		resp, b := srv.do(t, "POST", "/v1/retrieve", body)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), msg) {
			t.Errorf("POST %s: %d %s", body, resp.StatusCode, b)
		}
	}
}

func TestServeEntries(t *testing.T) {
	for _, backend := range []string{"fs", "bolt"} {
		t.Run(backend, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "memory")
			if backend == "bolt" {
				path += ".db"
			}
			srv := newTestServer(t, openBackend(t, backend, path), "")
			const entry = "/v1/entries/trips/%E4%B8%89%E4%BA%9A%E4%B9%8B%E8%A1%8C" // trips/三亚之行

			resp, b := srv.do(t, "PUT", entry, `{"content": "住在海边，和[[people:小雨]]一起。", "tags": ["travel", "travel", "sea"]}`)
			if resp.StatusCode != http.StatusCreated || string(b) != `{"category":"trips","name":"三亚之行","status":"added"}`+"\n" || resp.Header.Get("Location") != entry {
				t.Fatalf("PUT new: %d %s, Location %q", resp.StatusCode, b, resp.Header.Get("Location"))
			}
			getEntry := func() (e service.Entry) {
				if err := json.Unmarshal(srv.want(t, 200, "GET", entry, ""), &e); err != nil {
					t.Fatal(err)
				}
				return e
			}
			e := getEntry()
			created := e.Meta["created"]
			if e.Content != "住在海边，和[[people:小雨]]一起。" || fmt.Sprint(e.Meta["tags"]) != "[travel sea]" || created == nil {
				t.Fatalf("GET after PUT: %+v", e)
			}

			// An update without tags keeps them and the creation time.
			if b := srv.want(t, 200, "PUT", entry, `{"content": "改了：住在亚龙湾。"}`); !strings.Contains(string(b), `"status":"updated"`) {
				t.Errorf("PUT existing: %s", b)
			}
			e = getEntry()
			if e.Content != "改了：住在亚龙湾。" || fmt.Sprint(e.Meta["tags"]) != "[travel sea]" || e.Meta["created"] != created {
				t.Errorf("GET after update: %+v", e)
			}
			// An empty list clears the tags.
			srv.want(t, 200, "PUT", entry, `{"content": "改了：住在亚龙湾。", "tags": []}`)
			e = getEntry()
			if _, ok := e.Meta["tags"]; ok {
				t.Errorf("tags survived an empty list: %+v", e.Meta)
			}
			// The write reached the index without a rebuild.
			if res := srv.retrieve(t, `{"query": "亚龙湾"}`); len(res.Items) != 1 || res.Items[0].Name != "三亚之行" {
				t.Errorf("retrieve after PUT: %+v", res.Items)
			}

			srv.want(t, 201, "PUT", "/v1/entries/people/Emma%20Liu", `{"content": "Designer."}`)
			var items []service.ListItem
			json.Unmarshal(srv.want(t, 200, "GET", "/v1/entries", ""), &items)
			if len(items) != 2 || items[0].Name != "Emma Liu" || items[1].Name != "三亚之行" {
				t.Errorf("GET /v1/entries: %+v", items)
			}
			json.Unmarshal(srv.want(t, 200, "GET", "/v1/entries?category=people", ""), &items)
			if len(items) != 1 || items[0].Category != "people" || items[0].TokensEst != service.TokensEst(store.Entry{Name: "Emma Liu", Content: "Designer."}) {
				t.Errorf("GET /v1/entries?category=people: %+v", items)
			}

			if resp, b := srv.do(t, "DELETE", entry, ""); resp.StatusCode != http.StatusNoContent || len(b) != 0 {
				t.Errorf("DELETE: %d %q", resp.StatusCode, b)
			}
			srv.want(t, 404, "GET", entry, "")
			srv.want(t, 404, "DELETE", entry, "")
			if res := srv.retrieve(t, `{"query": "亚龙湾"}`); len(res.Items) != 0 {
				t.Errorf("retrieve after DELETE: %+v", res.Items)
			}
			if b := srv.want(t, 200, "GET", "/healthz", ""); !strings.HasPrefix(string(b), `{"status":"ok","revision":`) || !strings.Contains(string(b), `"unreadable":0}`) {
				t.Errorf("healthz: %s", b)
			}
		})
	}
}

func TestServeErrors(t *testing.T) {
	srv := newTestServer(t, openFS(t, copySample(t), nil), "")
	huge := `{"content": "` + strings.Repeat("a", httpapi.MaxBodyBytes) + `"}`
	cases := []struct {
		method, path, body string
		status             int
		field              string
		mention            string
	}{
		{"POST", "/v1/retrieve", `{"query": "x"`, 400, "", "not valid JSON"},
		{"POST", "/v1/retrieve", `{"query": "x",}`, 400, "", "not valid JSON at byte"},
		{"POST", "/v1/retrieve", ``, 400, "", "empty"},
		{"POST", "/v1/retrieve", `[1]`, 400, "", "want an object"},
		{"POST", "/v1/retrieve", `{"query": "x", "limt": 3}`, 400, "limt", "limt is not a known field (known: query, limit, budget_tokens, expand_links, explain, categories, tags, min_score, after, before, now, no_time, include_superseded, include_expired, whole_entries, keep_duplicates)"},
		{"POST", "/v1/retrieve", `{"query": "x\ud800"}`, 400, "", "unpaired UTF-16 surrogate"},
		{"POST", "/v1/retrieve", `{"query": "x\udc00\ud83d\ude00"}`, 400, "", "unpaired UTF-16 surrogate"},
		{"PUT", "/v1/entries/trips/x", `{"content": "bad \ud800 text"}`, 400, "", "unpaired UTF-16 surrogate"},
		{"POST", "/v1/retrieve", `{"query": "` + strings.Repeat("a", 8193) + `"}`, 400, "query", "limit is 8192"},
		{"POST", "/v1/retrieve", `{"query": "` + manyTerms(300) + `"}`, 400, "query", "300 distinct terms, the limit is 256"},
		{"POST", "/v1/retrieve", `{"query": "x", "min_score": 2}`, 400, "min_score", "between -1 and 1"},
		{"POST", "/v1/retrieve", `{"query": "x", "categories": ["a:b"]}`, 400, "categories", "':'"},
		{"POST", "/v1/entries/trips/nope/append", `{"text": "x"}`, 404, "", "not found"},
		{"POST", "/v1/entries/trips/三亚之行/append", `{}`, 400, "text", "required"},
		{"POST", "/v1/entries/trips/三亚之行/edit", `{"old_text": "no such text", "new_text": "y"}`, 422, "old_text", "does not occur"},
		{"POST", "/v1/entries/trips/三亚之行/edit", `{"old_text": "", "new_text": "y"}`, 400, "old_text", "must not be empty"},
		{"GET", "/v1/entries?limit=0", ``, 400, "limit", "between 1 and 10000"},
		{"GET", "/v1/entries?cursor=zz", ``, 400, "cursor", "not a cursor"},
		{"POST", "/v1/retrieve", `{"query": 5}`, 400, "query", "query must be a string, got a JSON number"},
		{"POST", "/v1/retrieve", `{"query": "x", "expand_links": "no"}`, 400, "expand_links", "true or false"},
		{"POST", "/v1/retrieve", `{}`, 400, "query", "must not be empty"},
		{"POST", "/v1/retrieve", `{"query": "x", "limit": 0}`, 400, "limit", "between 1 and 1000"},
		{"POST", "/v1/retrieve", `{"query": "x", "limit": 1001}`, 400, "limit", "between 1 and 1000"},
		{"POST", "/v1/retrieve", `{"query": "x", "budget_tokens": -5}`, 400, "budget_tokens", "0 (no cap) or more"},
		{"POST", "/v1/retrieve", `{"query": "x"} {"query": "y"}`, 400, "", "more than one JSON value"},
		{"POST", "/v1/retrieve", "{\"query\": \"caf\xe9\"}", 400, "", "not valid UTF-8"},
		{"PUT", "/v1/entries/trips/a%2Fb", `{"content": "x"}`, 400, "name", `invalid name "a/b"`},
		{"PUT", "/v1/entries/.trips/x", `{"content": "x"}`, 400, "category", "must not start with '.'"},
		{"PUT", "/v1/entries/trips/a%3Ab", `{"content": "x"}`, 400, "name", "':'"},
		{"PUT", "/v1/entries/trips/%FF", `{"content": "x"}`, 400, "name", "not valid UTF-8"},
		{"PUT", "/v1/entries/trips/x", `{}`, 400, "content", "content is required"},
		{"PUT", "/v1/entries/trips/x", `{"content": "x", "tags": [""]}`, 400, "tags", `invalid tags: tag "" must not be empty`},
		{"PUT", "/v1/entries/trips/x", `{"content": "x", "tags": ["ok", "\u001b[2J"]}`, 400, "tags", `invalid tags: tag "\x1b[2J" contains control character U+001B`},
		{"PUT", "/v1/entries/trips/x", `{"content": "x", "tags": [1]}`, 400, "tags", "a list of strings"},
		{"PUT", "/v1/entries/trips/x", `{"content": "x", "meta": {}}`, 400, "meta", "known: content, tags"},
		{"PUT", "/v1/entries/trips/x", huge, 413, "", "larger than"},
		{"GET", "/v1/entries/trips/nope", ``, 404, "", "trips:nope: entry not found"},
		{"DELETE", "/v1/entries/trips/nope", ``, 404, "", "not found"},
		{"GET", "/v1/entries?category=a:b", ``, 400, "category", "':'"},
		{"GET", "/v1/entries?lim=3", ``, 400, "lim", "unknown query parameter"},
		{"GET", "/v1/retrieve", ``, 405, "", "allowed: POST"},
		{"PATCH", "/v1/entries/trips/x", `{}`, 405, "", "allowed: GET, HEAD, PUT, DELETE"},
		{"POST", "/v1/entries", `{}`, 405, "", "allowed: GET, HEAD"},
		{"GET", "/v2/anything", ``, 404, "", "no such endpoint"},
		{"GET", "/v1/entries/trips", ``, 404, "", "no such endpoint"},
	}
	for _, tc := range cases {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			resp, b := srv.do(t, tc.method, tc.path, tc.body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, b)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("content type %q", ct)
			}
			var e struct {
				Error string `json:"error"`
				Field string `json:"field"`
			}
			if err := json.Unmarshal(b, &e); err != nil {
				t.Fatalf("error body is not JSON: %q", b)
			}
			if e.Field != tc.field || !strings.Contains(e.Error, tc.mention) {
				t.Errorf("error %q (field %q), want field %q and a mention of %q", e.Error, e.Field, tc.field, tc.mention)
			}
			if tc.status == 405 && resp.Header.Get("Allow") == "" {
				t.Error("405 without an Allow header")
			}
		})
	}
	// None of the rejected writes landed.
	if _, err := srv.m.Store().Get(context.Background(), "trips", "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a rejected PUT wrote trips:x: %v", err)
	}
}

func TestServeAuth(t *testing.T) {
	srv := newTestServer(t, openFS(t, copySample(t), nil), "")
	secured := newTestServer(t, openFS(t, copySample(t), nil), "s3cret")
	secured.token = "" // the requests below set the header themselves
	cases := []struct {
		path, auth string
		status     int
	}{
		{"/v1/entries?category=trips", "", 401},
		{"/v1/entries?category=trips", "Bearer wrong", 401},
		{"/v1/entries?category=trips", "Bearer s3cre", 401},
		{"/v1/entries?category=trips", "Basic czNjcmV0", 401},
		{"/v1/entries?category=trips", "Bearer s3cret", 200},
		{"/v1/entries?category=trips", "bearer s3cret", 200},
		{"/nope", "", 401}, // unknown paths reveal nothing without the token either
		{"/healthz", "", 200},
	}
	for _, tc := range cases {
		resp, b := secured.do(t, "GET", tc.path, "", "Authorization", tc.auth)
		if resp.StatusCode != tc.status {
			t.Errorf("GET %s with %q: %d, want %d: %s", tc.path, tc.auth, resp.StatusCode, tc.status, b)
		}
		if tc.status == 401 && (resp.Header.Get("WWW-Authenticate") == "" || !strings.Contains(string(b), `"error"`)) {
			t.Errorf("401 without WWW-Authenticate or JSON error: %v %s", resp.Header, b)
		}
	}
	// Without a token nothing is asked for.
	if resp, _ := srv.do(t, "GET", "/v1/entries", ""); resp.StatusCode != 200 {
		t.Errorf("tokenless server: %d", resp.StatusCode)
	}
}

func TestServeRefusesOpenBindWithoutToken(t *testing.T) {
	dir := copySample(t)
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		msg := newCLI(t, nil).fails(exitUsage, "--store", dir, "serve", "--addr", addr)
		if !strings.Contains(msg, "--token or $RECALL_TOKEN") {
			t.Errorf("serve --addr %s without a token: %s", addr, msg)
		}
	}
}

// listenAddr waits for the server's "listening on" line and returns the
// URL it names.
func listenAddr(t *testing.T, stderr *syncBuffer) string {
	t.Helper()
	re := regexp.MustCompile(`listening on (http://\S+),`)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server never said where it listens; stderr:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestServeCommand runs `recall serve` in-process, through the command
// line, and stops it the way a signal does (by ending its context).
func TestServeCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	var stderr syncBuffer
	root := newRootCmd(nil, io.Discard, &stderr, func(k string) string {
		if k == "RECALL_STORE" {
			return db
		}
		return ""
	})
	root.SetArgs([]string{"serve", "--addr", "127.0.0.1:0", "--create"}) // a new store: --create
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	code := make(chan int, 1)
	go func() { code <- execute(ctx, root) }()
	base := listenAddr(t, &stderr)

	put, _ := http.NewRequest("PUT", base+"/v1/entries/notes/x", strings.NewReader(`{"content": "kept"}`))
	put.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(put)
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("PUT: %v %v", resp, err)
	}
	resp.Body.Close()
	// While the server runs, the bolt file is its own.
	if _, err := boltstore.Open(db, &boltstore.Options{Timeout: 50 * time.Millisecond}); !errors.Is(err, store.ErrLocked) {
		t.Errorf("opening the served bolt file: %v, want ErrLocked", err)
	}

	stop()
	if c := <-code; c != 0 {
		t.Fatalf("serve exited %d; stderr:\n%s", c, stderr.String())
	}
	log := stderr.String()
	for _, want := range []string{"recall serve: listening on http://127.0.0.1:", "serving " + db + " (bolt)", "recall serve: PUT /v1/entries/notes/x 201 ", "shutting down", "stopped"} {
		if !strings.Contains(log, want) {
			t.Errorf("stderr lacks %q:\n%s", want, log)
		}
	}
	// Stopped means the file is free again, with the write in it.
	st := openBolt(t, db)
	defer st.Close()
	if e, err := st.Get(context.Background(), "notes", "x"); err != nil || e.Content != "kept" {
		t.Errorf("after shutdown: %+v %v", e, err)
	}
}

// TestServeSIGTERMKeepsAnsweredWrites sends SIGTERM to a real `recall
// serve` process while clients write, and checks that every write that got
// a 2xx answer is in the store afterwards, and that the process exited 0.
func TestServeSIGTERMKeepsAnsweredWrites(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM on Windows")
	}
	for _, backend := range []string{"fs", "bolt"} {
		t.Run(backend, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "memory")
			if backend == "bolt" {
				path += ".db"
			}
			cmd := exec.Command(recallBinary(t), "--store", path, "serve", "--addr", "127.0.0.1:0", "--quiet", "--create")
			cmd.Env = childEnv(t)
			stderr := &syncBuffer{}
			cmd.Stderr = stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			base := listenAddr(t, stderr)

			const writers = 8
			var (
				mu     sync.Mutex
				acked  []string
				signal sync.Once
				wg     sync.WaitGroup
			)
			client := &http.Client{Timeout: 30 * time.Second}
			for w := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for j := 0; ; j++ {
						name := fmt.Sprintf("w%d-%d", w, j)
						req, _ := http.NewRequest("PUT", base+"/v1/entries/acked/"+name, strings.NewReader(`{"content": "content of `+name+`"}`))
						req.Header.Set("Content-Type", "application/json")
						resp, err := client.Do(req)
						if err != nil {
							return // the server is gone
						}
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if resp.StatusCode/100 != 2 {
							return
						}
						mu.Lock()
						acked = append(acked, name)
						n := len(acked)
						mu.Unlock()
						if n >= 40 {
							signal.Do(func() { cmd.Process.Signal(syscall.SIGTERM) })
						}
					}
				}()
			}
			wg.Wait()
			if err := cmd.Wait(); err != nil {
				t.Fatalf("recall serve after SIGTERM: %v; stderr:\n%s", err, stderr)
			}
			if log := stderr.String(); !strings.Contains(log, "shutting down") || strings.Contains(log, "PUT /v1") {
				t.Errorf("stderr (quiet):\n%s", log)
			}

			st := openBackend(t, backend, path)
			defer st.Close()
			for _, name := range acked {
				e, err := st.Get(context.Background(), "acked", name)
				if err != nil || e.Content != "content of "+name {
					t.Errorf("answered write %s: %+v %v", name, e, err)
				}
			}
			t.Logf("%d answered writes, all on disk", len(acked))
		})
	}
}

// TestServeConcurrentClients: many clients add and retrieve at once
// against one store. Each client must read its own writes through
// retrieve at once (the index is patched by every write), a hot entry that
// everyone rewrites must never come back torn, and at the end every write
// must be there. Run with -race.
func TestServeConcurrentClients(t *testing.T) {
	const clients, rounds = 12, 10
	for _, backend := range []string{"fs", "bolt"} {
		t.Run(backend, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "memory")
			if backend == "bolt" {
				path += ".db"
			}
			srv := newTestServer(t, openBackend(t, backend, path), "")
			// Warm the index so retrieves race with writes, not with the
			// first build.
			srv.retrieve(t, `{"query": "warm"}`)

			var wg sync.WaitGroup
			errs := make(chan error, clients*rounds*4)
			for c := range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for r := range rounds {
						if err := clientRound(srv, c, r); err != nil {
							errs <- err
							return
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}

			var items []service.ListItem
			json.Unmarshal(srv.want(t, 200, "GET", "/v1/entries?category=load", ""), &items)
			if len(items) != clients*rounds+1 {
				t.Errorf("%d entries at the end, want %d", len(items), clients*rounds+1)
			}
			// The server's own writes are not mistaken for outside edits
			// (which would cost a full rebuild each).
			if strings.Contains(srv.log.String(), "changed outside") {
				t.Errorf("the watch took the server's own writes for outside edits:\n%s", srv.log)
			}
			for c := range clients {
				for r := range rounds {
					word := fmt.Sprintf("uniq%dx%d", c, r)
					res := srv.retrieve(t, `{"query": "`+word+`", "expand_links": false}`)
					if len(res.Items) != 1 || res.Items[0].Content != ownContent(c, r) {
						t.Errorf("%s at the end: %+v", word, res.Items)
					}
				}
			}
		})
	}
}

func ownContent(c, r int) string {
	return fmt.Sprintf("uniq%dx%d written by client %d in round %d", c, r, c, r)
}

// sharedContent is one token repeated: a torn read would mix two tokens.
func sharedContent(c, r int) string {
	return strings.Repeat(fmt.Sprintf("v%dr%d ", c, r), 40) + "hotword"
}

func clientRound(srv *testServer, c, r int) error {
	do := func(method, path, body string) (int, []byte, error) {
		req, _ := http.NewRequest(method, srv.url+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := srv.client.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, b, err
	}
	name := fmt.Sprintf("c%d-r%d", c, r)
	body, _ := json.Marshal(map[string]string{"content": ownContent(c, r)})
	if code, b, err := do("PUT", "/v1/entries/load/"+name, string(body)); err != nil || code != http.StatusCreated {
		return fmt.Errorf("PUT %s: %d %s %v", name, code, b, err)
	}
	var res retrieve.Result
	code, b, err := do("POST", "/v1/retrieve", fmt.Sprintf(`{"query": "uniq%dx%d"}`, c, r))
	if err != nil || code != 200 || json.Unmarshal(b, &res) != nil {
		return fmt.Errorf("retrieve own write %s: %d %s %v", name, code, b, err)
	}
	if len(res.Items) == 0 || res.Items[0].Name != name || res.Items[0].Content != ownContent(c, r) {
		return fmt.Errorf("client %d does not read its own write %s: %+v", c, name, res.Items)
	}

	body, _ = json.Marshal(map[string]string{"content": sharedContent(c, r)})
	if code, b, err := do("PUT", "/v1/entries/load/shared", string(body)); err != nil || code/100 != 2 {
		return fmt.Errorf("PUT shared: %d %s %v", code, b, err)
	}
	code, b, err = do("POST", "/v1/retrieve", `{"query": "hotword", "limit": 1}`)
	if err != nil || code != 200 || json.Unmarshal(b, &res) != nil || len(res.Items) != 1 {
		return fmt.Errorf("retrieve shared: %d %s %v", code, b, err)
	}
	words := strings.Fields(res.Items[0].Content)
	if len(words) != 41 || slices.ContainsFunc(words[:40], func(w string) bool { return w != words[0] }) {
		return fmt.Errorf("torn read of the shared entry: %q", res.Items[0].Content)
	}
	return nil
}

// TestServeSeesOutsideEdits: a running server over an fs store answers
// from edits made behind its back (by hand, by another Store) without a
// restart; once with file system events alone, once with the stat scan
// alone. The revision moving is the mechanism; the deadline is generous
// for a loaded machine, the watch needs about a second.
func TestServeSeesOutsideEdits(t *testing.T) {
	modes := []struct {
		name string
		opts fsstore.WatchOptions
	}{
		{"events only", fsstore.WatchOptions{ScanInterval: -1}},
		{"scan only", fsstore.WatchOptions{NoEvents: true, ScanInterval: 200 * time.Millisecond}},
	}
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			if !mode.opts.NoEvents {
				if w, err := fsnotify.NewWatcher(); err != nil {
					t.Skipf("no file system events here: %v", err)
				} else {
					w.Close()
				}
			}
			dir := copySample(t)
			st := openFS(t, dir, &fsstore.Options{Watch: mode.opts})
			srv := newTestServer(t, st, "")
			ctx := context.Background()
			if res := srv.retrieve(t, `{"query": "quokka"}`); len(res.Items) != 0 {
				t.Fatalf("the sample already mentions quokkas: %+v", res.Items)
			}
			rev0, _ := st.Revision(ctx)

			path := filepath.Join(dir, "notes", "by hand.md")
			if err := os.WriteFile(path, []byte("A quokka smiled at me."), 0o644); err != nil {
				t.Fatal(err)
			}
			waitServeHit(t, srv, "quokka", "by hand")
			if rev, _ := st.Revision(ctx); rev <= rev0 {
				t.Errorf("found without the revision moving (%d → %d)", rev0, rev)
			}

			other := openFS(t, dir, nil)
			if err := other.Put(ctx, store.Entry{Category: "people", Name: "Wombat Wu", Content: "Digs tunnels."}); err != nil {
				t.Fatal(err)
			}
			other.Close()
			waitServeHit(t, srv, "tunnels", "Wombat Wu")

			if err := os.WriteFile(path, []byte("A kangaroo, not a quokka after all."), 0o644); err != nil {
				t.Fatal(err)
			}
			waitServeHit(t, srv, "kangaroo", "by hand")

			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			waitServe(t, srv, "kangaroo", func(res *retrieve.Result) bool { return len(res.Items) == 0 })
		})
	}
}

func waitServeHit(t *testing.T, srv *testServer, query, name string) {
	t.Helper()
	waitServe(t, srv, query, func(res *retrieve.Result) bool {
		return len(res.Items) > 0 && res.Items[0].Name == name
	})
}

func waitServe(t *testing.T, srv *testServer, query string, done func(*retrieve.Result) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		res := srv.retrieve(t, `{"query": "`+query+`"}`)
		if done(res) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("retrieve %q: still %+v after 10 s", query, res.Items)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// With an embedder, the server embeds what has no vector in the background
// (a bolt file it holds is out of reach of `recall embed`), and entries
// added through it too: fused retrieves soon cover them.
func TestServeFillsVectorsInBackground(t *testing.T) {
	st := openBolt(t, filepath.Join(t.TempDir(), "m.db"))
	if err := st.Put(context.Background(), store.Entry{Category: "prefs", Name: "coffee", Content: "Flat white, no sugar."}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := &app{getenv: func(string) string { return "" }, stderr: io.Discard}
	// The SPEC tokenizer: under stemming the two entries no longer tie on
	// BM25, and min-max fusion would give the lower one 0 and drop it.
	f := &engineFlags{analysis: analyzerFlags{analyzer: "spec", segmenter: "off"}}
	f.embedder.kind = "hash"
	m, err := a.newMemory(st, f, log.New(io.Discard, "", 0))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Start(ctx); err != nil { // what serve runs at start
		t.Fatal(err)
	}
	if _, err := m.Add(ctx, service.AddRequest{Category: "trips", Name: "kayak", Content: "Kayaking in Halong Bay"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, _, err := m.Retrieve(ctx, service.RetrieveParams{Query: "kayaking coffee"})
		if err != nil {
			t.Fatal(err)
		}
		withCos := 0
		for _, it := range res.Items {
			if it.CosScore != nil {
				withCos++
			}
		}
		if res.EmbeddingUsed && withCos == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("vectors never filled: embedding_used %v, %d items with cos_score", res.EmbeddingUsed, withCos)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// manyTerms is a query of n distinct words.
func manyTerms(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "w%d ", i)
	}
	return b.String()
}
