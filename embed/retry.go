package embed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Defaults of the zero Retry.
const (
	DefaultMaxAttempts = 4
	DefaultBaseDelay   = 500 * time.Millisecond
	DefaultMaxDelay    = 8 * time.Second
	DefaultMaxWait     = 30 * time.Second
)

// Retry is the policy a provider applies to each request. The zero value is
// the default policy; a provider's Config embeds one.
//
// What is retried: responses whose *HTTPError is Temporary (408, 429, 5xx
// except 501) and errors wrapping ErrUnreachable. Everything else, and any
// error once ctx is done, is returned at once.
//
// How long it waits: the Retry-After the server sent, if any; otherwise
// BaseDelay doubled for each earlier retry, capped at MaxDelay, and drawn
// at random from the upper half of that, so that many clients rejected
// together do not come back together.
//
// A Retry is a value; it is safe for concurrent use as long as Sleep is.
type Retry struct {
	// MaxAttempts counts the first try: 0 means DefaultMaxAttempts, 1
	// disables retries.
	MaxAttempts int
	// BaseDelay is the backoff before the first retry; 0 means
	// DefaultBaseDelay.
	BaseDelay time.Duration
	// MaxDelay caps the backoff; 0 means DefaultMaxDelay.
	MaxDelay time.Duration
	// MaxWait is the longest Retry-After honoured; 0 means DefaultMaxWait.
	// A server asking for longer makes the request fail at once with its
	// error, whose RetryAfter tells the caller when to come back: a
	// command-line sync should not hang for an hour on one request.
	MaxWait time.Duration
	// Sleep waits d, or until ctx is done and then returns ctx's error.
	// nil means a timer. Tests replace it to record the waits and skip them.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Validate reports a negative field, wrapping ErrConfig.
func (r Retry) Validate() error {
	switch {
	case r.MaxAttempts < 0:
		return fmt.Errorf("%w: retry: negative MaxAttempts %d", ErrConfig, r.MaxAttempts)
	case r.BaseDelay < 0, r.MaxDelay < 0, r.MaxWait < 0:
		return fmt.Errorf("%w: retry: negative delay", ErrConfig)
	}
	return nil
}

// Do calls op until it succeeds, fails with an error that is not worth
// retrying, or the policy is exhausted, and returns op's last error with
// what the policy did about it. It never starts a wait that would end
// after ctx's deadline; if ctx is done during a wait it returns at once
// with an error wrapping both ctx's error and op's last error.
func (r Retry) Do(ctx context.Context, op func(ctx context.Context) error) error {
	attempts := orDefault(r.MaxAttempts, DefaultMaxAttempts)
	for n := 1; ; n++ {
		err := op(ctx)
		if err == nil || ctx.Err() != nil || !retryable(err) {
			return err
		}
		if n >= attempts {
			return fmt.Errorf("gave up after %d attempts: %w", n, err)
		}
		wait, ok := r.wait(n, err)
		if !ok {
			return fmt.Errorf("server asked to wait %v, more than the %v allowed: %w",
				wait, orDefault(r.MaxWait, DefaultMaxWait), err)
		}
		if deadline, has := ctx.Deadline(); has && time.Until(deadline) < wait {
			return fmt.Errorf("retry in %v would pass the deadline: %w", wait.Round(time.Millisecond), err)
		}
		if serr := r.sleep(ctx, wait); serr != nil {
			return fmt.Errorf("%w while waiting to retry: %w", serr, err)
		}
	}
}

func retryable(err error) bool {
	var he *HTTPError
	if errors.As(err, &he) {
		return he.Temporary()
	}
	return errors.Is(err, ErrUnreachable)
}

// wait returns how long to wait before attempt n+1, and false when the
// server asked for longer than MaxWait.
func (r Retry) wait(n int, err error) (time.Duration, bool) {
	var he *HTTPError
	if errors.As(err, &he) && he.RetryAfter > 0 {
		return he.RetryAfter, he.RetryAfter <= orDefault(r.MaxWait, DefaultMaxWait)
	}
	d, limit := orDefault(r.BaseDelay, DefaultBaseDelay), orDefault(r.MaxDelay, DefaultMaxDelay)
	for i := 1; i < n && d < limit; i++ {
		d *= 2
	}
	d = min(d, limit)
	return d/2 + rand.N(d/2+1), true
}

func (r Retry) sleep(ctx context.Context, d time.Duration) error {
	if r.Sleep != nil {
		return r.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// orDefault returns v, or def when v is the zero value.
func orDefault[T int | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// ParseRetryAfter reads a Retry-After header value: a number of seconds
// (fractions allowed, which the standard does not need but some proxies
// send) or an HTTP date, taken relative to now. It reports false for an
// empty or unreadable value. A date in the past yields 0.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if math.IsNaN(secs) || secs < 0 {
			return 0, false
		}
		if secs >= float64(math.MaxInt64)/float64(time.Second) {
			return time.Duration(math.MaxInt64), true
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// Batches sends texts through one in batches of at most size, one batch
// after another, each retried by r, and returns the vectors in input order.
// It fails as a whole: if any batch fails, no vectors are returned. The
// providers share it so that batching and retrying behave alike.
func Batches(ctx context.Context, texts []string, size int, r Retry, one func(ctx context.Context, batch []string) ([][]float32, error)) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	size = max(size, 1)
	out := make([][]float32, 0, len(texts))
	n := (len(texts) + size - 1) / size
	for b := range n {
		batch := texts[b*size : min((b+1)*size, len(texts))]
		var vecs [][]float32
		err := r.Do(ctx, func(ctx context.Context) error {
			var err error
			vecs, err = one(ctx, batch)
			return err
		})
		if err != nil {
			if n > 1 {
				return nil, fmt.Errorf("batch %d/%d: %w", b+1, n, err)
			}
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}
