// Package httpapi is recall's HTTP JSON API: an http.Handler over a
// service.Memory, which a Go program can mount in its own server
// (`recall serve` is one such program).
//
// # Basics
//
//	h, err := httpapi.New(m, httpapi.Options{})
//	http.Handle("/", h)
//
// or, to serve it as `recall serve` does (timeouts for untrusted clients,
// a graceful shutdown when ctx ends; IsLoopback tells whether the address
// needs a token):
//
//	ln, err := net.Listen("tcp", "127.0.0.1:7411")
//	err = httpapi.Serve(ctx, ln, h, logger)
//
// Endpoints (bodies are JSON, Content-Type application/json, at most
// MaxBodyBytes):
//
//	POST   /v1/retrieve                        service.RetrieveParams → the `recall retrieve --json` object
//	PUT    /v1/entries/{category}/{name}       {"content", "tags"} → 201 added / 200 updated;
//	                                           If-None-Match: * → 412 when it exists
//	POST   /v1/entries/{category}/{name}/append {"text"}
//	POST   /v1/entries/{category}/{name}/edit   {"old_text", "new_text"} → 422 when absent or ambiguous
//	GET    /v1/entries/{category}/{name}       the entry (service.Entry)
//	DELETE /v1/entries/{category}/{name}       204
//	GET    /v1/entries?category=&limit=&cursor= one page, a JSON array; X-Total-Count,
//	                                           X-Next-Cursor and Link rel="next" headers
//	GET    /v1/categories                      [{"category", "count"}]
//	GET    /v1/backup?format=snapshot|jsonl     a copy of the live store, streamed: a bolt store's
//	                                           consistent .db snapshot, or every entry as JSONL
//	                                           (the default for other stores); see Handler.backup
//	GET    /healthz                            {"status":"ok","revision","indexed","unreadable"}; 503 when unavailable
//
// Handle mounts more endpoints behind the same checks: `recall serve`
// mounts the web page's GET /v1/links/{category}/{name} (package web) and
// MCP Streamable HTTP at /mcp (mcptools.NewHTTPHandler), so /mcp has the
// same token, Host and Origin rules as the endpoints above.
//
// Routes lists these endpoints. Options.Path moves them: "/v1/m/alice"
// serves /v1/m/alice/retrieve, ..., /v1/m/alice/healthz (package
// service/tenants serves several memories so, one Handler each, made
// with Options.Authorized after checking the request's token itself).
//
// Categories and names are URL-escaped in paths: a category path's "/" is
// %2F (/v1/entries/projects%2Fharbor/notes); the 404 for a path with an
// unescaped one says so.
//
// Errors are *Error bodies, {"error": "...", "field": "..."}, with a status
// that says what was wrong: 400 (bad JSON, unknown field, invalid value;
// the field is named), 401, 403, 404, 405, 412, 413, 415, 422, and 503 when the
// store is unavailable (its error wraps store.ErrUnavailable or
// service.ErrUnavailable: a folder store's root gone, a database down) or
// the server is shutting down.
//
// # Security
//
// With Options.Token every endpoint but /healthz requires "Authorization:
// Bearer TOKEN"; /v1/backup, which hands out the whole memory, is no
// exception, and without a token it is served to loopback clients only,
// like everything else. Without a token the handler answers only requests whose
// Host is a loopback name or address (or one of Options.AllowHosts) and
// whose Origin, if any, is the server's own (a loopback name on the port
// the request was sent to: another port is another site), an AllowHosts
// name or one of Options.AllowOrigins: a web page can reach neither through DNS
// rebinding nor by a cross-site request, and since bodies must be
// application/json, no page can send one without a CORS preflight, which
// the handler never grants. Guard is that check on its own, for a server
// that routes requests before they reach a Handler.
//
// # Slow readers
//
// An answer is built in memory whole before it is sent. So that clients
// that never read cannot pin answers, each has Options.WriteTimeout
// (DefaultWriteTimeout, 30 s) from when its answer is ready to read it,
// after which its connection is closed; and large answers (at least
// LargeAnswerBytes) being sent at once hold at most Options.MaxPendingBytes
// (DefaultMaxPendingBytes, 64 MiB): one beyond gets 503 with Retry-After.
// Handlers given one Pending (Options.Pending) share that bound.
//
// # Caveats
//
// JSON strings holding an unpaired UTF-16 surrogate escape ("\ud800") are
// rejected (encoding/json would turn them into U+FFFD). A Handler is safe
// for concurrent use.
package httpapi
