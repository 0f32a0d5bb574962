package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"golang.org/x/sync/semaphore"
)

// Bounds on what clients that do not read their answers can hold. An
// answer is built in memory whole before it is sent; these bound how long
// and how much of that memory a client can pin by not reading.
const (
	// DefaultWriteTimeout is Options.WriteTimeout's default.
	DefaultWriteTimeout = 30 * time.Second
	// DefaultMaxPendingBytes is Options.MaxPendingBytes's default.
	DefaultMaxPendingBytes = 64 << 20
	// LargeAnswerBytes is the size from which an answer counts against
	// Options.MaxPendingBytes; smaller ones are always sent.
	LargeAnswerBytes = 1 << 20
)

// answers holds the bounds of one Handler.
type answers struct {
	timeout time.Duration       // 0: none
	pending *semaphore.Weighted // nil: no cap
	max     int64
}

// Pending is a bound on the bytes of large answers being sent at once
// that several Handlers share (Options.Pending): a server holding many
// memories (service/tenants) gives every memory's Handler the same one,
// so that the whole server holds at most that many bytes for clients
// that do not read, not that many per memory. It is safe for concurrent
// use.
type Pending struct {
	sem *semaphore.Weighted
	max int64
}

// NewPending returns a bound of max bytes; max <= 0 means
// DefaultMaxPendingBytes.
func NewPending(max int64) *Pending {
	if max <= 0 {
		max = DefaultMaxPendingBytes
	}
	return &Pending{sem: semaphore.NewWeighted(max), max: max}
}

func newAnswers(opts Options) answers {
	a := answers{timeout: opts.WriteTimeout, max: opts.MaxPendingBytes}
	if a.timeout == 0 {
		a.timeout = DefaultWriteTimeout
	}
	if a.timeout < 0 {
		a.timeout = 0
	}
	if opts.Pending != nil {
		a.pending, a.max = opts.Pending.sem, opts.Pending.max
		return a
	}
	if a.max == 0 {
		a.max = DefaultMaxPendingBytes
	}
	if a.max > 0 {
		a.pending = semaphore.NewWeighted(a.max)
	}
	return a
}

// boundedWriter applies the bounds to one response. Every answer of the
// API is written with its Content-Length set before WriteHeader
// (writeBody), which is where the deadline is set and a large answer
// takes its share of the pending bytes, or is replaced by a 503 when
// there is none left; the share is given back when the handler returns.
type boundedWriter struct {
	http.ResponseWriter
	a       *answers
	rc      *http.ResponseController
	status  int
	wrote   bool
	refused bool  // a large answer was replaced by a 503: drop its body
	held    int64 // bytes taken from a.pending
}

func (b *boundedWriter) Unwrap() http.ResponseWriter { return b.ResponseWriter }

func (b *boundedWriter) WriteHeader(code int) {
	if b.wrote {
		return
	}
	b.wrote = true
	n, _ := strconv.ParseInt(b.Header().Get("Content-Length"), 10, 64)
	if b.a.timeout > 0 {
		// Deadline errors are ignored: a writer that cannot take one (a
		// test recorder, an HTTP/2 stream of another server) is not
		// bounded by it.
		_ = b.rc.SetWriteDeadline(time.Now().Add(b.a.timeout))
	}
	if b.a.pending != nil && n >= LargeAnswerBytes {
		w := min(n, b.a.max)
		if !b.a.pending.TryAcquire(w) {
			b.refused = true
			body := []byte(`{"error":"the server is sending as many large answers as it holds at once (` +
				strconv.FormatInt(b.a.max>>20, 10) + ` MiB); retry shortly, or ask for less (limit, budget_tokens)"}` + "\n")
			h := b.Header()
			h.Set("Content-Length", strconv.Itoa(len(body)))
			h.Set("Retry-After", "1")
			b.status = http.StatusServiceUnavailable
			b.ResponseWriter.WriteHeader(b.status)
			b.ResponseWriter.Write(body)
			return
		}
		b.held = w
	}
	b.status = code
	b.ResponseWriter.WriteHeader(code)
}

func (b *boundedWriter) Write(p []byte) (int, error) {
	if !b.wrote {
		b.WriteHeader(http.StatusOK)
	}
	if b.refused {
		return len(p), nil
	}
	return b.ResponseWriter.Write(p)
}

// release gives back the response's share of the pending bytes.
func (b *boundedWriter) release() {
	if b.held > 0 {
		b.a.pending.Release(b.held)
	}
}
