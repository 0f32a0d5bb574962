package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/recallhq/recall/embed"
)

const (
	// DefaultModel is used when Config.Model is empty.
	DefaultModel = "text-embedding-3-small"
	// DefaultBatchSize is used when Config.BatchSize is 0.
	DefaultBatchSize = 256
	// MaxBatchSize is the API's limit on inputs per request.
	MaxBatchSize = 2048
	// DefaultBaseURL is used when neither Config.BaseURL nor
	// $OPENAI_BASE_URL is set.
	DefaultBaseURL = "https://api.openai.com/v1"
	// DefaultTimeout bounds one HTTP attempt when Config.HTTPClient is nil.
	DefaultTimeout = time.Minute
)

// provider names this backend in errors and in Model.
const provider = "openai"

// Config configures an Embedder. The zero value talks to api.openai.com
// with the key in $OPENAI_API_KEY.
type Config struct {
	// APIKey is sent as a bearer token. "" means $OPENAI_API_KEY. It may
	// stay empty for a compatible server that needs none, but not for the
	// default base URL.
	APIKey string
	// BaseURL is the API root, up to and including /v1. "" means
	// $OPENAI_BASE_URL, else DefaultBaseURL.
	BaseURL string
	// Model is the embedding model; "" means DefaultModel.
	Model string
	// Dimensions asks the service to shorten vectors to this length (only
	// text-embedding-3 and later support it). 0 means the model's own
	// length, learnt from the first response.
	Dimensions int
	// BatchSize is the most texts sent in one request: 0 means
	// DefaultBatchSize, at most MaxBatchSize.
	BatchSize int
	// HTTPClient sends the requests; nil means a client with
	// DefaultTimeout.
	HTTPClient *http.Client
	// Retry is applied to each request (each batch).
	Retry embed.Retry
}

// Validate reports a field out of range, wrapping embed.ErrConfig. It does
// not read the environment; New does.
func (c Config) Validate() error {
	switch {
	case c.Dimensions < 0:
		return fmt.Errorf("%w: openai: negative Dimensions %d", embed.ErrConfig, c.Dimensions)
	case c.BatchSize < 0 || c.BatchSize > MaxBatchSize:
		return fmt.Errorf("%w: openai: BatchSize %d not in [1, %d]", embed.ErrConfig, c.BatchSize, MaxBatchSize)
	}
	if c.BaseURL != "" {
		if err := checkURL(c.BaseURL); err != nil {
			return err
		}
	}
	return c.Retry.Validate()
}

func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%w: openai: base URL %q is not an http(s) URL", embed.ErrConfig, s)
	}
	return nil
}

// Embedder embeds texts with an OpenAI-compatible /v1/embeddings endpoint.
// It is safe for concurrent use.
type Embedder struct {
	client *goopenai.Client
	model  string
	dims   int // as configured, sent with each request
	batch  int
	retry  embed.Retry
	// dim is the vector length every response must have: the configured
	// one, or else the first one seen. 0 until known.
	dim atomic.Int64
}

var _ embed.Embedder = (*Embedder)(nil)

// New returns an Embedder for cfg, filling empty fields from the
// environment and the defaults above. It contacts nothing.
func New(cfg Config) (*Embedder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.APIKey == "" {
		cfg.APIKey = os.Getenv("OPENAI_API_KEY")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = os.Getenv("OPENAI_BASE_URL")
		if cfg.BaseURL != "" {
			if err := checkURL(cfg.BaseURL); err != nil {
				return nil, fmt.Errorf("$OPENAI_BASE_URL: %w", err)
			}
		}
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	if cfg.APIKey == "" && cfg.BaseURL == DefaultBaseURL {
		return nil, fmt.Errorf("%w: openai: no API key (set OPENAI_API_KEY)", embed.ErrConfig)
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: DefaultTimeout}
	}
	cc := goopenai.DefaultConfig(cfg.APIKey)
	cc.BaseURL = cfg.BaseURL
	cc.HTTPClient = headerRecorder{hc}
	e := &Embedder{
		client: goopenai.NewClientWithConfig(cc),
		model:  cfg.Model,
		dims:   cfg.Dimensions,
		batch:  cfg.BatchSize,
		retry:  cfg.Retry,
	}
	e.dim.Store(int64(cfg.Dimensions))
	return e, nil
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

// Model returns "openai:<model>:<dimension>", without the dimension until
// it is configured or learnt from a response.
func (e *Embedder) Model() string {
	return embed.Identity(provider, e.model, int(e.dim.Load()))
}

// Embed sends texts in batches of at most BatchSize, one batch after
// another, and returns their unit-length vectors in input order. It fails
// as a whole: if any batch fails, no vectors are returned.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	vecs, err := embed.Batches(ctx, texts, e.batch, e.retry, e.embedBatch)
	if err != nil {
		return nil, fmt.Errorf("openai: %w", err)
	}
	return vecs, nil
}

// embedBatch makes one request.
func (e *Embedder) embedBatch(ctx context.Context, batch []string) ([][]float32, error) {
	var h http.Header
	resp, err := e.client.CreateEmbeddings(context.WithValue(ctx, headerKey{}, &h), goopenai.EmbeddingRequest{
		Input:          batch,
		Model:          goopenai.EmbeddingModel(e.model),
		EncodingFormat: goopenai.EmbeddingEncodingFormatFloat,
		Dimensions:     e.dims,
	})
	if err != nil {
		return nil, classify(ctx, err, h)
	}
	return e.collect(resp.Data, len(batch))
}

// collect puts a response's vectors in input order and checks them.
func (e *Embedder) collect(data []goopenai.Embedding, n int) ([][]float32, error) {
	if len(data) != n {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", embed.ErrBadResponse, len(data), n)
	}
	out := make([][]float32, n)
	seen := make([]bool, n)
	for _, d := range data {
		if d.Index < 0 || d.Index >= n {
			return nil, fmt.Errorf("%w: index %d out of range for %d texts", embed.ErrBadResponse, d.Index, n)
		}
		if seen[d.Index] {
			return nil, fmt.Errorf("%w: index %d appears twice", embed.ErrBadResponse, d.Index)
		}
		seen[d.Index] = true
		out[d.Index] = d.Embedding
	}
	dim := len(out[0])
	for i, v := range out {
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
	return out, nil
}

// classify maps go-openai's errors to embed's.
func classify(ctx context.Context, err error, h http.Header) error {
	var (
		reqErr *goopenai.RequestError
		apiErr *goopenai.APIError
	)
	// A RequestError (body not in OpenAI's error shape) may wrap an
	// APIError without a status, so it is looked at first.
	switch {
	case errors.As(err, &reqErr) && reqErr.HTTPStatusCode > 0:
		msg := string(reqErr.Body)
		if errors.As(reqErr.Err, &apiErr) && apiErr.Message != "" {
			msg = apiErr.Message
		}
		return embed.NewHTTPError(provider, reqErr.HTTPStatusCode, msg, retryAfter(h))
	case errors.As(err, &apiErr) && apiErr.HTTPStatusCode > 0:
		return embed.NewHTTPError(provider, apiErr.HTTPStatusCode, apiErr.Message, retryAfter(h))
	}
	return embed.ClassifyTransport(ctx, err)
}

// retryAfter reads how long the server asked us to wait. OpenAI sends
// retry-after-ms next to the standard, whole-second Retry-After.
func retryAfter(h http.Header) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 && ms < 1e12 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	if d, ok := embed.ParseRetryAfter(h.Get("Retry-After"), time.Now()); ok {
		return d
	}
	return 0
}

// headerKey marks the context value through which headerRecorder hands
// the response headers back to embedBatch: go-openai turns failure
// statuses into errors that do not carry them.
type headerKey struct{}

type headerRecorder struct{ c *http.Client }

func (r headerRecorder) Do(req *http.Request) (*http.Response, error) {
	resp, err := r.c.Do(req)
	if err == nil {
		if h, ok := req.Context().Value(headerKey{}).(*http.Header); ok {
			*h = resp.Header
		}
	}
	return resp, err
}
