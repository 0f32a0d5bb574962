package ollama

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/envconfig"

	"github.com/recallhq/recall/embed"
)

const (
	// DefaultModel is used when Config.Model is empty.
	DefaultModel = "nomic-embed-text"
	// DefaultBatchSize is used when Config.BatchSize is 0. Ollama embeds
	// the inputs of one request one after another, so large batches only
	// make single requests long.
	DefaultBatchSize = 32
	// DefaultTimeout bounds one HTTP attempt when Config.HTTPClient is nil.
	// It is generous because the first request loads the model and a
	// batch on a CPU can take a while.
	DefaultTimeout = 5 * time.Minute
	// defaultPort is Ollama's, used when Config.Host names none and no
	// scheme either.
	defaultPort = "11434"
)

const provider = "ollama"

// Config configures an Embedder. The zero value talks to the Ollama server
// $OLLAMA_HOST names (by default http://127.0.0.1:11434) with
// nomic-embed-text.
type Config struct {
	// Host is the server's address: "http://host:port", or "host:port" or
	// "host" (then http and port 11434 are assumed, as the ollama command
	// does). A path is kept, for servers behind a proxy. "" means
	// $OLLAMA_HOST, read the way the ollama command reads it.
	Host string
	// Model is the embedding model; "" means DefaultModel. It must have
	// been pulled on the server.
	Model string
	// Dimensions asks the server to shorten vectors to this length, for
	// models trained to allow it. 0 means the model's own length.
	Dimensions int
	// Truncate, when set, tells the server whether to cut inputs longer
	// than the model's context (true) or reject them with a 400 (false).
	// nil leaves the server's default, which is to cut.
	Truncate *bool
	// BatchSize is the most texts sent in one request; 0 means
	// DefaultBatchSize.
	BatchSize int
	// HTTPClient sends the requests; nil means a client with
	// DefaultTimeout.
	HTTPClient *http.Client
	// Retry is applied to each request (each batch).
	Retry embed.Retry
}

// Validate reports a field out of range or a host that does not parse,
// wrapping embed.ErrConfig. It does not read the environment; New does.
func (c Config) Validate() error {
	switch {
	case c.Dimensions < 0:
		return fmt.Errorf("%w: ollama: negative Dimensions %d", embed.ErrConfig, c.Dimensions)
	case c.BatchSize < 0:
		return fmt.Errorf("%w: ollama: negative BatchSize %d", embed.ErrConfig, c.BatchSize)
	}
	if c.Host != "" {
		if _, err := parseHost(c.Host); err != nil {
			return err
		}
	}
	return c.Retry.Validate()
}

// parseHost reads an explicit Config.Host with the defaults of
// envconfig.Host, which only reads the environment.
func parseHost(s string) (*url.URL, error) {
	bad := func() (*url.URL, error) {
		return nil, fmt.Errorf("%w: ollama: host %q is not host[:port] or an http(s) URL", embed.ErrConfig, s)
	}
	scheme, rest, hasScheme := strings.Cut(strings.TrimSpace(s), "://")
	port := defaultPort
	switch {
	case !hasScheme:
		scheme, rest = "http", scheme
	case scheme == "http":
		port = "80"
	case scheme == "https":
		port = "443"
	default:
		return bad()
	}
	u, err := url.Parse(scheme + "://" + rest)
	if err != nil || u.Hostname() == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return bad()
	}
	if u.Port() == "" {
		u.Host = net.JoinHostPort(u.Hostname(), port)
	}
	return u, nil
}

// Embedder embeds texts with Ollama's /api/embed. It is safe for
// concurrent use.
type Embedder struct {
	client   *api.Client
	model    string // as sent
	identity string // model with its tag, as cached
	dims     int
	truncate *bool
	batch    int
	retry    embed.Retry
	// dim is the vector length every response must have: the configured
	// one, or else the first one seen. 0 until known.
	dim atomic.Int64
}

var _ embed.Embedder = (*Embedder)(nil)

// New returns an Embedder for cfg, filling empty fields from the
// environment and the defaults above. It contacts nothing: a missing
// server or model shows up on the first Embed.
func New(cfg Config) (*Embedder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	base := envconfig.Host()
	if cfg.Host != "" {
		base, _ = parseHost(cfg.Host) // checked by Validate
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	hc := http.Client{Timeout: DefaultTimeout}
	if cfg.HTTPClient != nil {
		hc = *cfg.HTTPClient
	}
	// The api package turns failure statuses into errors without headers;
	// the transport hands Retry-After back through the request context.
	hc.Transport = headerTransport{base: hc.Transport}
	e := &Embedder{
		client:   api.NewClient(base, &hc),
		model:    cfg.Model,
		identity: withTag(cfg.Model),
		dims:     cfg.Dimensions,
		truncate: cfg.Truncate,
		batch:    cfg.BatchSize,
		retry:    cfg.Retry,
	}
	e.dim.Store(int64(cfg.Dimensions))
	return e, nil
}

// withTag adds ":latest" to a model name without a tag, since Ollama
// resolves "nomic-embed-text" and "nomic-embed-text:latest" to the same
// model and the cache should not tell them apart. A colon before the last
// slash belongs to a registry's port, not a tag.
func withTag(model string) string {
	name := model[strings.LastIndex(model, "/")+1:]
	if strings.Contains(name, ":") {
		return model
	}
	return model + ":latest"
}

// DefaultAlpha is the BM25 weight fusion gives this provider's cosine
// when none is configured (fused = α·bm25 + (1−α)·cos after min-max). It
// is high on purpose: the model behind the endpoint is unknown, and with
// the only real models that can be measured offline (a small distilled
// model2vec model, served over OpenAI's wire format), fusion at 0.5 lost
// up to 0.024 nDCG@10 to BM25 alone, at 0.9 at most 0.004 (within one
// query's noise on those sets); see docs/benchmarks.md. A strong model
// may earn more weight: lower it with Alpha (--alpha) after measuring
// with recall bench.
const DefaultAlpha = 0.9

// DefaultAlpha returns DefaultAlpha; retrieve picks it up when no α is
// configured.
func (e *Embedder) DefaultAlpha() float64 { return DefaultAlpha }

// Model returns "ollama:<model>:<tag>:<dimension>", without the dimension
// until it is configured or learnt from a response.
func (e *Embedder) Model() string {
	return embed.Identity(provider, e.identity, int(e.dim.Load()))
}

// Embed sends texts in batches of at most BatchSize, one batch after
// another, and returns their unit-length vectors in input order. It fails
// as a whole: if any batch fails, no vectors are returned.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	vecs, err := embed.Batches(ctx, texts, e.batch, e.retry, e.embedBatch)
	if err != nil {
		return nil, fmt.Errorf("ollama: %w", err)
	}
	return vecs, nil
}

// embedBatch makes one request.
func (e *Embedder) embedBatch(ctx context.Context, batch []string) ([][]float32, error) {
	var h http.Header
	resp, err := e.client.Embed(context.WithValue(ctx, headerKey{}, &h), &api.EmbedRequest{
		Model:      e.model,
		Input:      batch,
		Truncate:   e.truncate,
		Dimensions: e.dims,
	})
	if err != nil {
		return nil, classify(ctx, err, h)
	}
	return e.collect(resp.Embeddings, len(batch))
}

// collect checks a response's vectors, which Ollama lists in input order.
func (e *Embedder) collect(vecs [][]float32, n int) ([][]float32, error) {
	if len(vecs) != n {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", embed.ErrBadResponse, len(vecs), n)
	}
	dim := len(vecs[0])
	for i, v := range vecs {
		if len(v) != dim {
			return nil, fmt.Errorf("%w: vector %d has %d dimensions, vector 0 has %d", embed.ErrDimension, i, len(v), dim)
		}
		if err := embed.Normalize(v); err != nil {
			return nil, fmt.Errorf("vector %d: %w", i, err)
		}
	}
	// Only a fully valid response may fix the dimension.
	if !e.dim.CompareAndSwap(0, int64(dim)) {
		if want := e.dim.Load(); want != int64(dim) {
			return nil, fmt.Errorf("%w: got %d dimensions, want %d", embed.ErrDimension, dim, want)
		}
	}
	return vecs, nil
}

// classify maps the api package's errors to embed's.
func classify(ctx context.Context, err error, h http.Header) error {
	var (
		statusErr api.StatusError
		authErr   api.AuthorizationError
	)
	var ra time.Duration
	if d, ok := embed.ParseRetryAfter(h.Get("Retry-After"), time.Now()); ok {
		ra = d
	}
	switch {
	case errors.As(err, &authErr):
		msg := authErr.Status
		if authErr.SigninURL != "" {
			msg = "sign in at " + authErr.SigninURL
		}
		return embed.NewHTTPError(provider, authErr.StatusCode, msg, ra)
	case errors.As(err, &statusErr):
		return embed.NewHTTPError(provider, statusErr.StatusCode, statusErr.ErrorMessage, ra)
	}
	return embed.ClassifyTransport(ctx, err)
}

type headerKey struct{}

// headerTransport stores each response's headers where the request's
// context says.
type headerTransport struct{ base http.RoundTripper }

func (t headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(req)
	if err == nil {
		if h, ok := req.Context().Value(headerKey{}).(*http.Header); ok {
			*h = resp.Header
		}
	}
	return resp, err
}
