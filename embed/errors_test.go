package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

func TestHTTPErrorMatchesSentinelOfItsStatus(t *testing.T) {
	sentinels := []error{ErrUnauthorized, ErrRateLimited, ErrServer, ErrBadResponse, ErrDimension, ErrUnreachable}
	tests := []struct {
		status    int
		want      error // nil: matches no sentinel
		temporary bool
	}{
		{400, nil, false},
		{401, ErrUnauthorized, false},
		{403, ErrUnauthorized, false},
		{404, nil, false},
		{408, nil, true},
		{413, nil, false},
		{429, ErrRateLimited, true},
		{500, ErrServer, true},
		{501, ErrServer, false},
		{502, ErrServer, true},
		{503, ErrServer, true},
		{599, ErrServer, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			// Wrapped twice, as a provider would return it.
			err := fmt.Errorf("ollama: %w", fmt.Errorf("gave up: %w", NewHTTPError("ollama", tt.status, "boom", 0)))
			for _, s := range sentinels {
				if got := errors.Is(err, s); got != (s == tt.want) {
					t.Errorf("errors.Is(%d, %v) = %v", tt.status, s, got)
				}
			}
			var he *HTTPError
			if !errors.As(err, &he) || he.StatusCode != tt.status || he.Provider != "ollama" {
				t.Fatalf("errors.As: got %+v", he)
			}
			if he.Temporary() != tt.temporary {
				t.Errorf("Temporary() = %v, want %v", he.Temporary(), tt.temporary)
			}
		})
	}
}

func TestHTTPErrorMessage(t *testing.T) {
	err := NewHTTPError("openai", 429, "  Rate limit reached for requests\n", 0)
	if got, want := err.Error(), "http 429 Too Many Requests: Rate limit reached for requests"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	long := NewHTTPError("openai", 502, strings.Repeat("é", 1000), 0)
	if len(long.Message) > maxMessage+len("…") || !utf8.ValidString(long.Message) {
		t.Errorf("long message not trimmed to valid UTF-8 of at most %d bytes: %d bytes", maxMessage, len(long.Message))
	}
	if !strings.HasSuffix(long.Message, "…") {
		t.Errorf("trimmed message does not show the cut: %q", long.Message[len(long.Message)-10:])
	}
}

func TestClassifyTransport(t *testing.T) {
	refused := &url.Error{Op: "Post", URL: "http://127.0.0.1:1/api/embed", Err: syscall.ECONNREFUSED}
	var syntax *json.SyntaxError
	syntaxErr := json.Unmarshal([]byte(`{"a":}`), &struct{}{})
	if !errors.As(syntaxErr, &syntax) {
		t.Fatalf("setup: %T is not a *json.SyntaxError", syntaxErr)
	}
	typeErr := json.Unmarshal([]byte(`{"embeddings":"x"}`), &struct{ Embeddings [][]float32 }{})
	other := errors.New("signing failed")

	live := context.Background()
	canceled, cancel := context.WithCancel(context.Background())
	cancel()

	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want []error // all must match under errors.Is
		not  []error // none may match
	}{
		{"nil", live, nil, nil, nil},
		{"refused", live, refused, []error{ErrUnreachable, syscall.ECONNREFUSED}, []error{ErrBadResponse}},
		{"syntax", live, syntaxErr, []error{ErrBadResponse}, []error{ErrUnreachable}},
		{"type", live, typeErr, []error{ErrBadResponse}, nil},
		{"truncated", live, io.ErrUnexpectedEOF, []error{ErrBadResponse}, nil},
		{"empty body", live, io.EOF, []error{ErrBadResponse}, nil},
		{"other", live, other, []error{other}, []error{ErrBadResponse, ErrUnreachable}},
		{"canceled url error", canceled, &url.Error{Op: "Post", URL: "x", Err: context.Canceled}, []error{context.Canceled}, []error{ErrUnreachable}},
		{"canceled other", canceled, other, []error{context.Canceled, other}, []error{ErrUnreachable}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ClassifyTransport(tt.ctx, tt.err)
			if tt.err == nil {
				if got != nil {
					t.Fatalf("ClassifyTransport(nil) = %v", got)
				}
				return
			}
			for _, w := range tt.want {
				if !errors.Is(got, w) {
					t.Errorf("%v: errors.Is(_, %v) = false", got, w)
				}
			}
			for _, n := range tt.not {
				if errors.Is(got, n) {
					t.Errorf("%v: errors.Is(_, %v) = true", got, n)
				}
			}
		})
	}
}
