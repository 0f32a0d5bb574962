package mcptools

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/service"
)

// MaxHTTPBodyBytes bounds one POST body of the Streamable HTTP transport:
// the same bound as one stdio frame (MaxFrameBytes), so a tool call that
// fits one transport fits the other.
const MaxHTTPBodyBytes = MaxFrameBytes

// NewHTTPHandler returns an http.Handler that serves NewServer's server
// (the same tools and instructions as on stdio) over the MCP Streamable
// HTTP transport of the official SDK. It is stateless: every POST is
// answered on its own, with application/json, and no session outlives
// its request (GET and DELETE get 405), so there is nothing to clean up,
// a restart loses nothing a client holds, and a client that goes away
// cancels the work of its request.
//
// It does no authentication and no Host or Origin checks of its own:
// mount it behind httpapi.Handler.Handle, as `recall serve` does at /mcp,
// or behind checks of your own.
func NewHTTPHandler(m *service.Memory, opts Options) http.Handler {
	srv := NewServer(m, opts)
	srv.AddReceivingMiddleware(cancelWithRequest)
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
