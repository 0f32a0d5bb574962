package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// Sentinel errors. Providers wrap them with context; callers test with
// errors.Is. Errors that came from an HTTP status are *HTTPError values,
// which match the sentinel of their status class.
var (
	// ErrUnauthorized means the service refused the credentials (HTTP 401
	// or 403). It is never retried.
	ErrUnauthorized = errors.New("unauthorized")
	// ErrRateLimited means the service kept answering 429 until the retry
	// policy gave up.
	ErrRateLimited = errors.New("rate limited")
	// ErrServer means the service kept failing with a 5xx status until the
	// retry policy gave up.
	ErrServer = errors.New("server error")
	// ErrBadResponse means a successful status came with a body that
	// breaks the protocol: malformed JSON, more or fewer vectors than
	// inputs, an index out of range or repeated, a NaN.
	ErrBadResponse = errors.New("bad response")
	// ErrDimension means a vector had the wrong dimension (not the
	// configured one, not the one earlier vectors had, or none) or was all
	// zeros.
	ErrDimension = errors.New("wrong vector dimension")
	// ErrUnreachable means no HTTP response arrived: the connection was
	// refused or broke, DNS failed, the client timed out. Retried like a
	// 5xx.
	ErrUnreachable = errors.New("service unreachable")
	// ErrConfig means a provider's configuration is invalid; New returns
	// it and nothing is contacted.
	ErrConfig = errors.New("invalid embedder config")
)

// HTTPError is a response with a failure status. It matches
// ErrUnauthorized (401, 403), ErrRateLimited (429) or ErrServer (5xx) under
// errors.Is; other statuses (400, 404, 413, ...) match no sentinel and are
// told apart by StatusCode.
type HTTPError struct {
	Provider   string        // "openai", "ollama"
	StatusCode int           // the HTTP status
	Message    string        // what the service said, possibly truncated
	RetryAfter time.Duration // how long the service asked us to wait; 0 if it did not say
}

// Error leaves out Provider: providers prefix every error they return with
// their name already.
func (e *HTTPError) Error() string {
	s := fmt.Sprintf("http %d", e.StatusCode)
	if t := http.StatusText(e.StatusCode); t != "" {
		s += " " + t
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Is reports whether target is the sentinel of e's status class.
func (e *HTTPError) Is(target error) bool {
	switch target {
	case ErrUnauthorized:
		return e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden
	case ErrRateLimited:
		return e.StatusCode == http.StatusTooManyRequests
	case ErrServer:
		return e.StatusCode >= 500 && e.StatusCode <= 599
	}
	return false
}

// Temporary reports whether the same request may succeed later: request
// timeout, rate limit, and server errors other than 501 Not Implemented.
func (e *HTTPError) Temporary() bool {
	switch {
	case e.StatusCode == http.StatusRequestTimeout, e.StatusCode == http.StatusTooManyRequests:
		return true
	case e.StatusCode == http.StatusNotImplemented:
		return false
	}
	return e.StatusCode >= 500 && e.StatusCode <= 599
}

// maxMessage bounds HTTPError.Message: an error page from a proxy can be
// kilobytes of HTML, which would flood a one-line CLI error.
const maxMessage = 300

// NewHTTPError builds the error for a failure status. It trims message to
// a few hundred bytes (at a rune boundary) and surrounding white space.
func NewHTTPError(provider string, status int, message string, retryAfter time.Duration) *HTTPError {
	message = strings.TrimSpace(message)
	if len(message) > maxMessage {
		cut := maxMessage
		for cut > 0 && !utf8.RuneStart(message[cut]) {
			cut--
		}
		message = message[:cut] + "…"
	}
	return &HTTPError{Provider: provider, StatusCode: status, Message: message, RetryAfter: retryAfter}
}

// ClassifyTransport maps an error from sending a request or decoding its
// response, when no *HTTPError applies, to the package's vocabulary:
//   - ctx is done: the error is returned as is (it already wraps the
//     context's error), so errors.Is(err, context.Canceled) holds;
//   - no response arrived (*url.Error, net.Error): wrapped with
//     ErrUnreachable, keeping the cause reachable for errors.Is;
//   - the body did not decode (syntax or type errors, truncated JSON):
//     wrapped with ErrBadResponse;
//   - anything else is returned unchanged.
//
// Providers call it; it is exported for other providers to share.
func ClassifyTransport(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if cerr := ctx.Err(); cerr != nil {
		if errors.Is(err, cerr) {
			return err
		}
		return fmt.Errorf("%w: %w", cerr, err)
	}
	var (
		urlErr    *url.Error
		netErr    net.Error
		syntaxErr *json.SyntaxError
		typeErr   *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &urlErr), errors.As(err, &netErr):
		return fmt.Errorf("%w: %w", ErrUnreachable, err)
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return fmt.Errorf("%w: %w", ErrBadResponse, err)
	}
	return err
}
