package mcptools

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/service"
)

// MaxHTTPBodyBytes bounds one POST body of the Streamable HTTP transport:
// the same bound as one stdio frame (MaxFrameBytes), so a tool call that
// fits one transport fits the other.
const MaxHTTPBodyBytes = MaxFrameBytes

// Bounds on the streams of NewHTTPHandler (Options.MaxStreams,
// Options.StreamTimeout).
const (
	DefaultMaxStreams = 64
	// DefaultStreamTimeout is below httpapi.DefaultWriteTimeout and the
	// minute httpapi.Serve gives a request, so that a stream served
	// behind them ends cleanly, with its answer, rather than being cut.
	DefaultStreamTimeout = 25 * time.Second
)

// NewHTTPHandler returns an http.Handler that serves NewServer's server
// (the same tools and instructions as on stdio) over the MCP Streamable
// HTTP transport of the official SDK.
//
// It is stateless: every POST is answered on its own, as application/json,
// and no session outlives its request (GET and DELETE get 405), so there is
// nothing to clean up, a restart loses nothing a client holds, and a client
// that goes away cancels the work of its request. The one long request is a
// subscriptions/listen stream (protocol 2026-07-28), for which recall never
// has anything to send (its tools do not change): at most
// Options.MaxStreams are open at once, each for at most
// Options.StreamTimeout. POST bodies are at most MaxHTTPBodyBytes (413).
//
// It does no authentication and no Host or Origin checks of its own:
// mount it behind httpapi.Handler.Handle, as `recall serve` does at /mcp,
// or behind checks of your own.
func NewHTTPHandler(m *service.Memory, opts Options) http.Handler {
	srv := NewServer(m, opts)
	lim := streamLimit{timeout: opts.StreamTimeout, slots: make(chan struct{}, orDefault(opts.MaxStreams, DefaultMaxStreams))}
	if lim.timeout <= 0 {
		lim.timeout = DefaultStreamTimeout
	}
	srv.AddReceivingMiddleware(cancelWithRequest, lim.bound)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		Logger:       opts.Logger,
		// Host and Origin are checked by whoever mounts the handler
		// (httpapi: loopback names, --allow-host); the SDK's own check
		// would refuse the names a reverse proxy on this machine sends.
		DisableLocalhostProtection:   true,
		MaxRequestBodyBytes:          MaxHTTPBodyBytes,
		PropagateRequestCancellation: true,
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestCtxKey{}, r.Context())))
	})
}

// orDefault is n, or def when n is not positive.
func orDefault(n, def int) int {
	if n > 0 {
		return n
	}
	return def
}

// requestCtxKey holds, in the context an HTTP request's server session is
// connected with, that request's own context.
type requestCtxKey struct{}

// cancelWithRequest cancels a method's context when the HTTP request that
// carried it ends (its client went away). The SDK detaches handlers from
// the request for protocol versions before 2026-07-28 (only later ones
// honour PropagateRequestCancellation); a stateless session lives for one
// request, whose context is a value of the session's.
func cancelWithRequest(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		rctx, ok := ctx.Value(requestCtxKey{}).(context.Context)
		if !ok {
			return next(ctx, method, req)
		}
		ctx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		stop := context.AfterFunc(rctx, func() { cancel(context.Cause(rctx)) })
		defer stop()
		return next(ctx, method, req)
	}
}

// streamLimit bounds the subscriptions/listen streams of one handler.
type streamLimit struct {
	slots   chan struct{} // one per open stream
	timeout time.Duration
}

func (l streamLimit) bound(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "subscriptions/listen" {
			return next(ctx, method, req)
		}
		select {
		case l.slots <- struct{}{}:
			defer func() { <-l.slots }()
		default:
			return nil, fmt.Errorf("recall holds at most %d listen streams open at once; it sends no notifications (its tools do not change), so none is needed", cap(l.slots))
		}
		ctx, cancel := context.WithTimeout(ctx, l.timeout)
		defer cancel()
		return next(ctx, method, req)
	}
}
