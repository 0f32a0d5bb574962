package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/embed"
)

const testKey = "sk-test-123"

// wireRequest is the request body as the API documents it. Decoding with
// DisallowUnknownFields catches any field we did not mean to send.
type wireRequest struct {
	Input          []string `json:"input"`
	Model          string   `json:"model"`
	EncodingFormat string   `json:"encoding_format"`
	Dimensions     *int     `json:"dimensions"`
}

// responder writes the answer to the n-th request (1-based).
type responder func(w http.ResponseWriter, r *http.Request, n int, req wireRequest)

// fakeAPI is an httptest server speaking /v1/embeddings.
type fakeAPI struct {
	*httptest.Server
	t       *testing.T
	respond responder

	mu   sync.Mutex
	reqs []wireRequest
}

func newFake(t *testing.T, respond responder) *fakeAPI {
	t.Helper()
	f := &fakeAPI{t: t, respond: respond}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	t := f.t
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		t.Errorf("request %s %s, want POST /v1/embeddings", r.Method, r.URL.Path)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization = %q", got)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		t.Errorf("reading body: %v", err)
		return
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Errorf("body is not a JSON object: %v: %s", err, body)
	}
	if in := strings.TrimSpace(string(raw["input"])); !strings.HasPrefix(in, "[") {
		t.Errorf("input is not an array: %s", in)
	}
	var req wireRequest
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		t.Errorf("decoding request: %v: %s", err, body)
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	n := len(f.reqs)
	f.mu.Unlock()
	f.respond(w, r, n, req)
}

func (f *fakeAPI) requests() []wireRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.reqs)
}

// rawVector is what the fake "model" returns for a text: deterministic,
// different per text, and not of unit length, so tests see both the order
// and the normalisation.
func rawVector(text string, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(len(text)+1) * float32(i+1)
		if i < len(text) {
			v[i] += float32(text[i])
		}
	}
	return v
}

func unit(v []float32) []float32 {
	v = slices.Clone(v)
	if err := embed.Normalize(v); err != nil {
		panic(err)
	}
	return v
}

type item struct {
	Object    string    `json:"object"`
	Index     int       `json:"index"`
	Embedding []float32 `json:"embedding"`
}

// writeList writes a 200 response in the API's shape, items in the order
// given.
func writeList(w http.ResponseWriter, model string, items []item) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Request-Id", "req_abc")
	json.NewEncoder(w).Encode(map[string]any{
		"object": "list",
		"data":   items,
		"model":  model,
		"usage":  map[string]int{"prompt_tokens": 8 * len(items), "total_tokens": 8 * len(items)},
	})
}

// ok answers with one vector per input of dim dimensions (or the
// requested ones), listed in reverse so that the client has to reorder.
func ok(dim int) responder {
	return func(w http.ResponseWriter, r *http.Request, n int, req wireRequest) {
		d := dim
		if req.Dimensions != nil {
			d = *req.Dimensions
		}
		items := make([]item, len(req.Input))
		for i, text := range req.Input {
			items[len(items)-1-i] = item{Object: "embedding", Index: i, Embedding: rawVector(text, d)}
		}
		writeList(w, req.Model, items)
	}
}

// apiError writes an error the way OpenAI does.
func apiError(status int, code, msg string, headers ...string) responder {
	return func(w http.ResponseWriter, r *http.Request, n int, req wireRequest) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":%q,"type":"invalid_request_error","param":null,"code":%q}}`, msg, code)
	}
}

// body writes status and a literal body.
func body(status int, s string) responder {
	return func(w http.ResponseWriter, r *http.Request, n int, req wireRequest) {
		w.WriteHeader(status)
		io.WriteString(w, s)
	}
}

// items answers with exactly these items, whatever was asked.
func items(its ...item) responder {
	return func(w http.ResponseWriter, r *http.Request, n int, req wireRequest) {
		writeList(w, req.Model, its)
	}
}

// seq answers request n with rs[n-1], and later ones with the last of rs.
func seq(rs ...responder) responder {
	return func(w http.ResponseWriter, r *http.Request, n int, req wireRequest) {
		rs[min(n, len(rs))-1](w, r, n, req)
	}
}

type sleepRecorder struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleepRecorder) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	return ctx.Err()
}

func newTestEmbedder(t *testing.T, url string, cfg Config) (*Embedder, *sleepRecorder) {
	t.Helper()
	rec := &sleepRecorder{}
	cfg.APIKey = testKey
	cfg.BaseURL = url + "/v1"
	cfg.Retry.Sleep = rec.sleep
	e, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return e, rec
}

func checkUnit(t *testing.T, vecs [][]float32) {
	t.Helper()
	for i, v := range vecs {
		var s float64
		for _, x := range v {
			s += float64(x) * float64(x)
		}
		if math.Abs(s-1) > 1e-5 {
			t.Errorf("vector %d has squared norm %v, want 1", i, s)
		}
	}
}

func TestEmbedBatchesAndReorders(t *testing.T) {
	f := newFake(t, ok(6))
	e, _ := newTestEmbedder(t, f.URL, Config{BatchSize: 2})
	if got, want := e.Model(), "openai:text-embedding-3-small"; got != want {
		t.Errorf("Model() before any call = %q, want %q", got, want)
	}
	texts := []string{"likes the sea", "海边玩", "beach", "a", "café au lait"}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if len(vecs) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(vecs), len(texts))
	}
	for i, text := range texts {
		if want := unit(rawVector(text, 6)); !slices.Equal(vecs[i], want) {
			t.Errorf("vector %d (%q) = %v, want %v", i, text, vecs[i], want)
		}
	}
	checkUnit(t, vecs)

	reqs := f.requests()
	var sizes []int
	var sent []string
	for _, r := range reqs {
		sizes = append(sizes, len(r.Input))
		sent = append(sent, r.Input...)
		if r.Model != DefaultModel || r.EncodingFormat != "float" || r.Dimensions != nil {
			t.Errorf("request model=%q encoding_format=%q dimensions=%v", r.Model, r.EncodingFormat, r.Dimensions)
		}
	}
	if !slices.Equal(sizes, []int{2, 2, 1}) {
		t.Errorf("batch sizes = %v, want [2 2 1]", sizes)
	}
	if !slices.Equal(sent, texts) {
		t.Errorf("texts sent = %q, want %q", sent, texts)
	}
	if got, want := e.Model(), "openai:text-embedding-3-small:6"; got != want {
		t.Errorf("Model() = %q, want %q", got, want)
	}
}

func TestEmbedSendsDimensionsAndModel(t *testing.T) {
	f := newFake(t, ok(1536))
	e, _ := newTestEmbedder(t, f.URL, Config{Model: "text-embedding-3-large", Dimensions: 256})
	if got, want := e.Model(), "openai:text-embedding-3-large:256"; got != want {
		t.Errorf("Model() = %q, want %q", got, want)
	}
	vecs, err := e.Embed(context.Background(), []string{"x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs[0]) != 256 {
		t.Errorf("got %d dimensions, want 256", len(vecs[0]))
	}
	r := f.requests()[0]
	if r.Model != "text-embedding-3-large" || r.Dimensions == nil || *r.Dimensions != 256 {
		t.Errorf("request model=%q dimensions=%v", r.Model, r.Dimensions)
	}
}

func TestEmbedEmptyInputSendsNothing(t *testing.T) {
	f := newFake(t, ok(4))
	e, _ := newTestEmbedder(t, f.URL, Config{})
	for _, in := range [][]string{nil, {}} {
		vecs, err := e.Embed(context.Background(), in)
		if vecs != nil || err != nil {
			t.Errorf("Embed(%v) = %v, %v; want nil, nil", in, vecs, err)
		}
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("%d requests for empty input", n)
	}
}

func TestEmbedFailures(t *testing.T) {
	rateLimited := apiError(429, "rate_limit_exceeded", "Rate limit reached for text-embedding-3-small", "Retry-After", "2")
	tests := []struct {
		name       string
		cfg        Config
		texts      []string
		respond    responder
		wantErr    []error // nil: success
		wantStatus int     // of the *embed.HTTPError, if any
		wantReqs   int
		wantWaits  []time.Duration // nil: not checked (backoff is random)
	}{
		{
			name:      "429 with Retry-After, then success",
			respond:   seq(rateLimited, ok(4)),
			wantReqs:  2,
			wantWaits: []time.Duration{2 * time.Second},
		},
		{
			name:      "429 with retry-after-ms, then success",
			respond:   seq(apiError(429, "rate_limit_exceeded", "slow down", "Retry-After", "1", "Retry-After-Ms", "250"), ok(4)),
			wantReqs:  2,
			wantWaits: []time.Duration{250 * time.Millisecond},
		},
		{
			name:       "429 forever",
			respond:    rateLimited,
			wantErr:    []error{embed.ErrRateLimited},
			wantStatus: 429,
			wantReqs:   embed.DefaultMaxAttempts,
			wantWaits:  []time.Duration{2 * time.Second, 2 * time.Second, 2 * time.Second},
		},
		{
			name:       "429 asking for more than MaxWait",
			cfg:        Config{Retry: embed.Retry{MaxWait: time.Second}},
			respond:    rateLimited,
			wantErr:    []error{embed.ErrRateLimited},
			wantStatus: 429,
			wantReqs:   1,
			wantWaits:  []time.Duration{},
		},
		{
			name:     "503 then success",
			respond:  seq(apiError(503, "", "The server is overloaded"), ok(4)),
			wantReqs: 2,
		},
		{
			name:       "500 forever",
			respond:    apiError(500, "", "The server had an error"),
			wantErr:    []error{embed.ErrServer},
			wantStatus: 500,
			wantReqs:   embed.DefaultMaxAttempts,
		},
		{
			name:       "502 html from a proxy",
			cfg:        Config{Retry: embed.Retry{MaxAttempts: 2}},
			respond:    body(502, "<html><body>Bad Gateway</body></html>"),
			wantErr:    []error{embed.ErrServer},
			wantStatus: 502,
			wantReqs:   2,
		},
		{
			name:       "401 is not retried",
			respond:    apiError(401, "invalid_api_key", "Incorrect API key provided"),
			wantErr:    []error{embed.ErrUnauthorized},
			wantStatus: 401,
			wantReqs:   1,
		},
		{
			name:       "403 is not retried",
			respond:    apiError(403, "unsupported_country_region_territory", "Country not supported"),
			wantErr:    []error{embed.ErrUnauthorized},
			wantStatus: 403,
			wantReqs:   1,
		},
		{
			name:       "400 is not retried and matches no sentinel",
			respond:    apiError(400, "", "This model's maximum context length is 8192 tokens"),
			wantStatus: 400,
			wantReqs:   1,
		},
		{
			name:     "malformed JSON",
			respond:  body(200, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.1,`),
			wantErr:  []error{embed.ErrBadResponse},
			wantReqs: 1,
		},
		{
			name:     "not JSON at all",
			respond:  body(200, `<html>captive portal</html>`),
			wantErr:  []error{embed.ErrBadResponse},
			wantReqs: 1,
		},
		{
			name:     "fewer vectors than inputs",
			texts:    []string{"a", "b"},
			respond:  items(item{Object: "embedding", Index: 0, Embedding: []float32{1, 0}}),
			wantErr:  []error{embed.ErrBadResponse},
			wantReqs: 1,
		},
		{
			name:  "more vectors than inputs",
			texts: []string{"a"},
			respond: items(item{Object: "embedding", Index: 0, Embedding: []float32{1, 0}},
				item{Object: "embedding", Index: 1, Embedding: []float32{0, 1}}),
			wantErr:  []error{embed.ErrBadResponse},
			wantReqs: 1,
		},
		{
			name:  "index out of range",
			texts: []string{"a", "b"},
			respond: items(item{Object: "embedding", Index: 0, Embedding: []float32{1, 0}},
				item{Object: "embedding", Index: 2, Embedding: []float32{0, 1}}),
			wantErr:  []error{embed.ErrBadResponse},
			wantReqs: 1,
		},
		{
			name:  "duplicate index",
			texts: []string{"a", "b"},
			respond: items(item{Object: "embedding", Index: 1, Embedding: []float32{1, 0}},
				item{Object: "embedding", Index: 1, Embedding: []float32{0, 1}}),
			wantErr:  []error{embed.ErrBadResponse},
			wantReqs: 1,
		},
		{
			name:  "dimensions disagree within a response",
			texts: []string{"a", "b"},
			respond: items(item{Object: "embedding", Index: 0, Embedding: []float32{1, 0}},
				item{Object: "embedding", Index: 1, Embedding: []float32{0, 1, 0}}),
			wantErr:  []error{embed.ErrDimension},
			wantReqs: 1,
		},
		{
			name:     "zero vector",
			texts:    []string{"a"},
			respond:  items(item{Object: "embedding", Index: 0, Embedding: []float32{0, 0, 0}}),
			wantErr:  []error{embed.ErrDimension},
			wantReqs: 1,
		},
		{
			name:     "empty vector",
			texts:    []string{"a"},
			respond:  items(item{Object: "embedding", Index: 0, Embedding: []float32{}}),
			wantErr:  []error{embed.ErrDimension},
			wantReqs: 1,
		},
		{
			name:     "configured dimensions not honoured",
			cfg:      Config{Dimensions: 3},
			texts:    []string{"a"},
			respond:  items(item{Object: "embedding", Index: 0, Embedding: []float32{1, 2, 3, 4}}),
			wantErr:  []error{embed.ErrDimension},
			wantReqs: 1,
		},
		{
			name:     "dimension changes between batches",
			cfg:      Config{BatchSize: 1},
			texts:    []string{"a", "b"},
			respond:  seq(ok(4), ok(5)),
			wantErr:  []error{embed.ErrDimension},
			wantReqs: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, tt.respond)
			e, rec := newTestEmbedder(t, f.URL, tt.cfg)
			texts := tt.texts
			if texts == nil {
				texts = []string{"alpha", "beta"}
			}
			vecs, err := e.Embed(context.Background(), texts)
			if n := len(f.requests()); n != tt.wantReqs {
				t.Errorf("%d requests, want %d", n, tt.wantReqs)
			}
			if tt.wantWaits != nil && !slices.Equal(rec.waits, tt.wantWaits) {
				t.Errorf("waits = %v, want %v", rec.waits, tt.wantWaits)
			}
			if tt.wantErr == nil && tt.wantStatus == 0 {
				if err != nil {
					t.Fatalf("Embed: %v", err)
				}
				if len(vecs) != len(texts) {
					t.Fatalf("%d vectors for %d texts", len(vecs), len(texts))
				}
				checkUnit(t, vecs)
				return
			}
			if err == nil {
				t.Fatalf("Embed succeeded, want an error")
			}
			if vecs != nil {
				t.Errorf("Embed returned vectors with its error")
			}
			if !strings.HasPrefix(err.Error(), "openai: ") {
				t.Errorf("error %q does not name the provider", err)
			}
			for _, want := range tt.wantErr {
				if !errors.Is(err, want) {
					t.Errorf("error %q is not %v", err, want)
				}
			}
			var he *embed.HTTPError
			if errors.As(err, &he) != (tt.wantStatus != 0) || (he != nil && (he.StatusCode != tt.wantStatus || he.Provider != "openai")) {
				t.Errorf("errors.As(*embed.HTTPError) = %+v, want status %d", he, tt.wantStatus)
			}
			if he != nil && he.Message == "" {
				t.Errorf("HTTPError has no message: %v", err)
			}
			// No go-openai type may escape.
			for _, e := range chain(err) {
				if typ := fmt.Sprintf("%T", e); strings.HasPrefix(strings.TrimLeft(typ, "*"), "openai.") {
					t.Errorf("go-openai error type %s escaped in %v", typ, err)
				}
			}
		})
	}
}

// chain lists err and everything it wraps.
func chain(err error) []error {
	if err == nil {
		return nil
	}
	out := []error{err}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		out = append(out, chain(u.Unwrap())...)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			out = append(out, chain(e)...)
		}
	}
	return out
}

func TestEmbedRateLimitCarriesRetryAfter(t *testing.T) {
	f := newFake(t, apiError(429, "rate_limit_exceeded", "slow down", "Retry-After", "120"))
	e, _ := newTestEmbedder(t, f.URL, Config{})
	_, err := e.Embed(context.Background(), []string{"a"})
	var he *embed.HTTPError
	if !errors.As(err, &he) || he.RetryAfter != 120*time.Second || he.Message != "slow down" {
		t.Fatalf("error = %v (%+v), want an HTTPError asking for 2m0s", err, he)
	}
}

func TestEmbedDimensionFixedAcrossCalls(t *testing.T) {
	f := newFake(t, seq(ok(4), ok(5)))
	e, _ := newTestEmbedder(t, f.URL, Config{})
	if _, err := e.Embed(context.Background(), []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Embed(context.Background(), []string{"b"}); !errors.Is(err, embed.ErrDimension) {
		t.Fatalf("second call with 5 dimensions after 4: %v, want ErrDimension", err)
	}
	if got, want := e.Model(), "openai:text-embedding-3-small:4"; got != want {
		t.Errorf("Model() = %q, want %q", got, want)
	}
}

func TestEmbedContextCanceledMidRequest(t *testing.T) {
	arrived := make(chan struct{})
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, req wireRequest) {
		close(arrived)
		<-r.Context().Done() // never answers; returns when the client hangs up
	})
	e, rec := newTestEmbedder(t, f.URL, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-arrived
		cancel()
	}()
	done := make(chan error, 1)
	go func() {
		_, err := e.Embed(ctx, []string{"a"})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Embed = %v, want context.Canceled", err)
		}
		if errors.Is(err, embed.ErrUnreachable) {
			t.Errorf("a cancellation is reported as ErrUnreachable: %v", err)
		}
	case <-time.After(30 * time.Second): // hang guard, not a timing assertion
		t.Fatal("Embed did not return after its context was canceled")
	}
	if n := len(f.requests()); n != 1 || len(rec.waits) != 0 {
		t.Errorf("%d requests and waits %v after a cancellation, want 1 and none", n, rec.waits)
	}
}

func TestEmbedConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	e, rec := newTestEmbedder(t, url, Config{})
	vecs, err := e.Embed(context.Background(), []string{"a"})
	if err == nil || vecs != nil {
		t.Fatalf("Embed against a closed server = %v, %v", vecs, err)
	}
	if !errors.Is(err, embed.ErrUnreachable) {
		t.Errorf("error %v is not ErrUnreachable", err)
	}
	if len(rec.waits) != embed.DefaultMaxAttempts-1 {
		t.Errorf("waited %d times, want %d (connection failures are retried)", len(rec.waits), embed.DefaultMaxAttempts-1)
	}
}

func TestEmbedConcurrentUse(t *testing.T) {
	f := newFake(t, ok(8))
	e, _ := newTestEmbedder(t, f.URL, Config{BatchSize: 3})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			texts := []string{fmt.Sprint("g", g), "shared", "x", "y"}
			vecs, err := e.Embed(context.Background(), texts)
			if err != nil {
				t.Error(err)
				return
			}
			for i, text := range texts {
				if !slices.Equal(vecs[i], unit(rawVector(text, 8))) {
					t.Errorf("goroutine %d: vector %d is not the one for %q", g, i, text)
				}
			}
			_ = e.Model()
		})
	}
	wg.Wait()
	if got := e.Model(); got != "openai:text-embedding-3-small:8" {
		t.Errorf("Model() = %q", got)
	}
}

func TestNewReadsEnvironment(t *testing.T) {
	var gotAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		var req wireRequest
		json.NewDecoder(r.Body).Decode(&req)
		ok(3)(w, r, 1, req)
	}))
	defer srv.Close()
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	e, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Embed(context.Background(), []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if gotAuth != "Bearer sk-from-env" {
		t.Errorf("Authorization = %q, want the key from $OPENAI_API_KEY", gotAuth)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	tests := []struct {
		name string
		cfg  Config
	}{
		{"no key for api.openai.com", Config{}},
		{"batch too large", Config{APIKey: "k", BatchSize: MaxBatchSize + 1}},
		{"negative batch", Config{APIKey: "k", BatchSize: -1}},
		{"negative dimensions", Config{APIKey: "k", Dimensions: -5}},
		{"base URL without scheme", Config{APIKey: "k", BaseURL: "localhost:8080/v1"}},
		{"negative retry", Config{APIKey: "k", Retry: embed.Retry{MaxAttempts: -1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.cfg); !errors.Is(err, embed.ErrConfig) {
				t.Errorf("New(%+v) = %v, want ErrConfig", tt.cfg, err)
			}
		})
	}
	// A compatible local server may need no key.
	if _, err := New(Config{BaseURL: "http://127.0.0.1:8080/v1"}); err != nil {
		t.Errorf("New without key for a local server: %v", err)
	}
}
