package ollama

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

// wireRequest is the /api/embed request body. Decoding with
// DisallowUnknownFields catches any field we did not mean to send.
type wireRequest struct {
	Model      string         `json:"model"`
	Input      []string       `json:"input"`
	Truncate   *bool          `json:"truncate"`
	Dimensions *int           `json:"dimensions"`
	KeepAlive  any            `json:"keep_alive"`
	Options    map[string]any `json:"options"`
}

// responder writes the answer to the n-th request (1-based).
type responder func(w http.ResponseWriter, r *http.Request, n int, req wireRequest)

type fakeServer struct {
	*httptest.Server
	t       *testing.T
	respond responder

	mu   sync.Mutex
	reqs []wireRequest
	raw  []map[string]json.RawMessage
}

func newFake(t *testing.T, respond responder) *fakeServer {
	t.Helper()
	f := &fakeServer{t: t, respond: respond}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	t := f.t
	if r.Method != http.MethodPost || r.URL.Path != "/api/embed" {
		t.Errorf("request %s %s, want POST /api/embed", r.Method, r.URL.Path)
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
	f.raw = append(f.raw, raw)
	n := len(f.reqs)
	f.mu.Unlock()
	f.respond(w, r, n, req)
}

func (f *fakeServer) requests() []wireRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.reqs)
}

// rawVector is what the fake "model" returns for a text: deterministic,
// different per text, not of unit length.
func rawVector(text string, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(len(text)+1) * float32(i+1)
		if i < len(text) {
			v[i] -= float32(text[i]) / 4
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

func writeEmbeddings(w http.ResponseWriter, model string, vecs [][]float32) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	json.NewEncoder(w).Encode(map[string]any{
		"model":             model,
		"embeddings":        vecs,
		"total_duration":    14143917,
		"load_duration":     1019500,
		"prompt_eval_count": 8 * len(vecs),
	})
}

// ok answers with one vector per input, of dim dimensions or the
// requested ones.
func ok(dim int) responder {
	return func(w http.ResponseWriter, r *http.Request, n int, req wireRequest) {
		d := dim
		if req.Dimensions != nil {
			d = *req.Dimensions
		}
		vecs := make([][]float32, len(req.Input))
		for i, text := range req.Input {
			vecs[i] = rawVector(text, d)
		}
		writeEmbeddings(w, req.Model, vecs)
	}
}

func vectors(vecs ...[]float32) responder {
	return func(w http.ResponseWriter, r *http.Request, n int, req wireRequest) {
		writeEmbeddings(w, req.Model, vecs)
	}
}

// apiError writes an error the way Ollama does: {"error": "..."}.
func apiError(status int, msg string, headers ...string) responder {
	return func(w http.ResponseWriter, r *http.Request, n int, req wireRequest) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":%q}`, msg)
	}
}

func body(status int, s string) responder {
	return func(w http.ResponseWriter, r *http.Request, n int, req wireRequest) {
		w.WriteHeader(status)
		io.WriteString(w, s)
	}
}

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

func newTestEmbedder(t *testing.T, host string, cfg Config) (*Embedder, *sleepRecorder) {
	t.Helper()
	rec := &sleepRecorder{}
	cfg.Host = host
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

func TestEmbedBatches(t *testing.T) {
	f := newFake(t, ok(5))
	e, _ := newTestEmbedder(t, f.URL, Config{BatchSize: 3})
	if got, want := e.Model(), "ollama:nomic-embed-text:latest"; got != want {
		t.Errorf("Model() before any call = %q, want %q", got, want)
	}
	texts := []string{"likes the sea", "海边玩", "beach", "a", "café", "z", "last one"}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if len(vecs) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(vecs), len(texts))
	}
	for i, text := range texts {
		if want := unit(rawVector(text, 5)); !slices.Equal(vecs[i], want) {
			t.Errorf("vector %d (%q) = %v, want %v", i, text, vecs[i], want)
		}
	}
	checkUnit(t, vecs)

	var sizes []int
	var sent []string
	for _, r := range f.requests() {
		sizes = append(sizes, len(r.Input))
		sent = append(sent, r.Input...)
		if r.Model != DefaultModel || r.Truncate != nil || r.Dimensions != nil || r.KeepAlive != nil {
			t.Errorf("request model=%q truncate=%v dimensions=%v keep_alive=%v", r.Model, r.Truncate, r.Dimensions, r.KeepAlive)
		}
	}
	if !slices.Equal(sizes, []int{3, 3, 1}) {
		t.Errorf("batch sizes = %v, want [3 3 1]", sizes)
	}
	if !slices.Equal(sent, texts) {
		t.Errorf("texts sent = %q, want %q", sent, texts)
	}
	if got, want := e.Model(), "ollama:nomic-embed-text:latest:5"; got != want {
		t.Errorf("Model() = %q, want %q", got, want)
	}
}

func TestEmbedSendsOptions(t *testing.T) {
	f := newFake(t, ok(768))
	no := false
	e, _ := newTestEmbedder(t, f.URL, Config{Model: "mxbai-embed-large:335m", Dimensions: 64, Truncate: &no})
	if got, want := e.Model(), "ollama:mxbai-embed-large:335m:64"; got != want {
		t.Errorf("Model() = %q, want %q", got, want)
	}
	vecs, err := e.Embed(context.Background(), []string{"x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs[0]) != 64 {
		t.Errorf("got %d dimensions, want 64", len(vecs[0]))
	}
	r := f.requests()[0]
	if r.Model != "mxbai-embed-large:335m" || r.Dimensions == nil || *r.Dimensions != 64 || r.Truncate == nil || *r.Truncate {
		t.Errorf("request model=%q dimensions=%v truncate=%v", r.Model, r.Dimensions, r.Truncate)
	}
}

func TestModelIdentity(t *testing.T) {
	tests := []struct{ model, want string }{
		{"nomic-embed-text", "ollama:nomic-embed-text:latest"},
		{"nomic-embed-text:latest", "ollama:nomic-embed-text:latest"},
		{"nomic-embed-text:v1.5", "ollama:nomic-embed-text:v1.5"},
		{"hf.co/user/model", "ollama:hf.co/user/model:latest"},
		{"registry.local:5000/team/model", "ollama:registry.local:5000/team/model:latest"},
		{"registry.local:5000/team/model:q8", "ollama:registry.local:5000/team/model:q8"},
	}
	for _, tt := range tests {
		e, err := New(Config{Host: "127.0.0.1:1", Model: tt.model})
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Model(); got != tt.want {
			t.Errorf("Model(%q) = %q, want %q", tt.model, got, tt.want)
		}
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
	busy := apiError(429, "too many requests", "Retry-After", "3")
	tests := []struct {
		name       string
		cfg        Config
		texts      []string
		respond    responder
		wantErr    []error // nil: success
		wantStatus int
		wantReqs   int
		wantWaits  []time.Duration // nil: not checked (backoff is random)
	}{
		{
			name:      "429 with Retry-After, then success",
			respond:   seq(busy, ok(4)),
			wantReqs:  2,
			wantWaits: []time.Duration{3 * time.Second},
		},
		{
			name:     "429 with an HTTP-date Retry-After far in the past",
			respond:  seq(apiError(429, "slow down", "Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT"), ok(4)),
			wantReqs: 2,
		},
		{
			name:       "429 forever",
			respond:    busy,
			wantErr:    []error{embed.ErrRateLimited},
			wantStatus: 429,
			wantReqs:   embed.DefaultMaxAttempts,
			wantWaits:  []time.Duration{3 * time.Second, 3 * time.Second, 3 * time.Second},
		},
		{
			name:     "503 server busy, then success",
			respond:  seq(apiError(503, "server busy, please try again.  maximum pending requests exceeded"), ok(4)),
			wantReqs: 2,
		},
		{
			name:       "500 forever",
			cfg:        Config{Retry: embed.Retry{MaxAttempts: 3}},
			respond:    apiError(500, "llama runner process has terminated: signal: killed"),
			wantErr:    []error{embed.ErrServer},
			wantStatus: 500,
			wantReqs:   3,
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
			respond:    apiError(401, "unauthorized"),
			wantErr:    []error{embed.ErrUnauthorized},
			wantStatus: 401,
			wantReqs:   1,
		},
		{
			name:       "403 is not retried",
			respond:    apiError(403, "forbidden"),
			wantErr:    []error{embed.ErrUnauthorized},
			wantStatus: 403,
			wantReqs:   1,
		},
		{
			name:       "model not pulled",
			respond:    apiError(404, `model "nomic-embed-text" not found, try pulling it first`),
			wantStatus: 404,
			wantReqs:   1,
		},
		{
			name:       "model cannot embed",
			respond:    apiError(400, `"llama3.2" does not support embeddings`),
			wantStatus: 400,
			wantReqs:   1,
		},
		{
			name:     "malformed JSON",
			respond:  body(200, `{"model":"nomic-embed-text","embeddings":[[0.1,`),
			wantErr:  []error{embed.ErrBadResponse},
			wantReqs: 1,
		},
		{
			name:     "embeddings of the wrong type",
			respond:  body(200, `{"model":"nomic-embed-text","embeddings":"none"}`),
			wantErr:  []error{embed.ErrBadResponse},
			wantReqs: 1,
		},
		{
			name:     "empty body",
			respond:  body(200, ``),
			wantErr:  []error{embed.ErrBadResponse},
			wantReqs: 1,
		},
		{
			name:     "fewer vectors than inputs",
			texts:    []string{"a", "b"},
			respond:  vectors([]float32{1, 0}),
			wantErr:  []error{embed.ErrBadResponse},
			wantReqs: 1,
		},
		{
			name:     "more vectors than inputs",
			texts:    []string{"a"},
			respond:  vectors([]float32{1, 0}, []float32{0, 1}),
			wantErr:  []error{embed.ErrBadResponse},
			wantReqs: 1,
		},
		{
			name:     "dimensions disagree within a response",
			texts:    []string{"a", "b"},
			respond:  vectors([]float32{1, 0}, []float32{0, 1, 0}),
			wantErr:  []error{embed.ErrDimension},
			wantReqs: 1,
		},
		{
			name:     "zero vector",
			texts:    []string{"a"},
			respond:  vectors([]float32{0, 0, 0, 0}),
			wantErr:  []error{embed.ErrDimension},
			wantReqs: 1,
		},
		{
			name:     "configured dimensions not honoured",
			cfg:      Config{Dimensions: 3},
			texts:    []string{"a"},
			respond:  vectors([]float32{1, 2, 3, 4}),
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
			if !strings.HasPrefix(err.Error(), "ollama: ") {
				t.Errorf("error %q does not name the provider", err)
			}
			for _, want := range tt.wantErr {
				if !errors.Is(err, want) {
					t.Errorf("error %q is not %v", err, want)
				}
			}
			var he *embed.HTTPError
			if errors.As(err, &he) != (tt.wantStatus != 0) || (he != nil && (he.StatusCode != tt.wantStatus || he.Provider != "ollama")) {
				t.Errorf("errors.As(*embed.HTTPError) = %+v, want status %d", he, tt.wantStatus)
			}
			for _, e := range chain(err) {
				if typ := fmt.Sprintf("%T", e); strings.HasPrefix(strings.TrimLeft(typ, "*"), "api.") {
					t.Errorf("api package error type %s escaped in %v", typ, err)
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

func TestEmbedNotPulledKeepsServerMessage(t *testing.T) {
	f := newFake(t, apiError(404, `model "nomic-embed-text" not found, try pulling it first`))
	e, _ := newTestEmbedder(t, f.URL, Config{})
	_, err := e.Embed(context.Background(), []string{"a"})
	if err == nil || !strings.Contains(err.Error(), "try pulling it first") {
		t.Errorf("error %v does not pass on the server's advice", err)
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

func TestEmbedDeadlineExceeded(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, req wireRequest) {
		<-r.Context().Done()
	})
	e, _ := newTestEmbedder(t, f.URL, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := e.Embed(ctx, []string{"a"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Embed = %v, want context.DeadlineExceeded", err)
	}
}

func TestEmbedConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	host := srv.URL
	srv.Close()
	e, rec := newTestEmbedder(t, host, Config{})
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

func TestEmbedKeepsCallersHTTPClient(t *testing.T) {
	var viaCaller int
	f := newFake(t, seq(apiError(429, "slow", "Retry-After", "1"), ok(3)))
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		viaCaller++
		return http.DefaultTransport.RoundTrip(r)
	})}
	e, rec := newTestEmbedder(t, f.URL, Config{HTTPClient: hc})
	if _, err := e.Embed(context.Background(), []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if viaCaller != 2 {
		t.Errorf("%d requests went through the caller's transport, want 2", viaCaller)
	}
	if !slices.Equal(rec.waits, []time.Duration{time.Second}) {
		t.Errorf("waits = %v, want [1s]: Retry-After lost with a caller's client", rec.waits)
	}
	if _, ok := hc.Transport.(roundTripFunc); !ok {
		t.Error("New modified the caller's http.Client")
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

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
}

func TestHost(t *testing.T) {
	tests := []struct {
		env, host string // OLLAMA_HOST, Config.Host
		want      string // "" wants ErrConfig
	}{
		{"", "", "http://127.0.0.1:11434"},
		{"0.0.0.0", "", "http://0.0.0.0:11434"},
		{"example.com:8080", "", "http://example.com:8080"},
		{"https://ollama.example.com", "", "https://ollama.example.com:443"},
		{"example.com:8080", "http://10.0.0.2:11434", "http://10.0.0.2:11434"},
		{"", "localhost", "http://localhost:11434"},
		{"", "gpu-box:9000", "http://gpu-box:9000"},
		{"", "http://gpu-box", "http://gpu-box:80"},
		{"", "https://proxy.example.com/ollama", "https://proxy.example.com:443/ollama"},
		{"", "[::1]:11434", "http://[::1]:11434"},
		{"", "ftp://gpu-box", ""},
		{"", "http://", ""},
		{"", "http://user:pw@gpu-box", ""},
	}
	for _, tt := range tests {
		t.Run(tt.env+"|"+tt.host, func(t *testing.T) {
			t.Setenv("OLLAMA_HOST", tt.env)
			var got string
			e, err := New(Config{Host: tt.host, HTTPClient: &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
				got = r.URL.Scheme + "://" + r.URL.Host + strings.TrimSuffix(r.URL.Path, "/api/embed")
				return nil, errors.New("not sent")
			})}, Retry: embed.Retry{MaxAttempts: 1}})
			if tt.want == "" {
				if !errors.Is(err, embed.ErrConfig) {
					t.Fatalf("New = %v, want ErrConfig", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			e.Embed(context.Background(), []string{"a"})
			if got != tt.want {
				t.Errorf("request went to %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	for _, cfg := range []Config{
		{BatchSize: -1},
		{Dimensions: -1},
		{Retry: embed.Retry{MaxWait: -time.Second}},
	} {
		if _, err := New(cfg); !errors.Is(err, embed.ErrConfig) {
			t.Errorf("New(%+v) = %v, want ErrConfig", cfg, err)
		}
	}
}
