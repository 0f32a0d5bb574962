// Package mcptools offers recall's memory as Model Context Protocol tools
// (official Go SDK): Register adds them to a caller's *mcp.Server,
// NewServer builds a server with them, StdioTransport is a stdio
// transport that survives bad frames, and NewHTTPHandler serves
// NewServer's server over Streamable HTTP.
//
// # Basics
//
//	srv := mcp.NewServer(&mcp.Implementation{Name: "my-agent"}, nil)
//	mcptools.Register(srv, m)
//	srv.Run(ctx, mcptools.StdioTransport(os.Stdin, os.Stdout, nil))
//
// or, over HTTP, behind the JSON API's token, Host and Origin checks (as
// `recall serve` mounts it):
//
//	api, err := httpapi.New(m, httpapi.Options{Token: token})
//	api.Handle("/mcp", mcptools.NewHTTPHandler(m, mcptools.Options{}))
//
// # Streamable HTTP
//
// NewHTTPHandler is the SDK's Streamable HTTP transport, stateless: each
// POST carries one JSON-RPC message and gets one application/json answer,
// with a server session that lives as long as the request; there is no
// Mcp-Session-Id, and GET (a standalone event stream) and DELETE (ending
// a session) are 405. Every protocol version the SDK speaks is served
// (2024-11-05 to 2026-07-28). Nothing outlives a request, so nothing needs
// cleaning up; a request whose client goes away (its HTTP request's
// context ends) has its tool call's context cancelled, for every protocol
// version (the SDK itself detaches handlers from the request before
// 2026-07-28). Bodies are at most MaxHTTPBodyBytes (413). The only long
// request is a subscriptions/listen stream (2026-07-28): at most
// Options.MaxStreams at once (DefaultMaxStreams, 64; one more is refused
// with an error) and each for Options.StreamTimeout (DefaultStreamTimeout,
// 25 s); recall sends nothing on them, its tools never change.
//
// Concurrency: the handler is safe for concurrent use. Each request gets
// its own server session, so requests share nothing but the Memory (safe
// for concurrent use) and the count of open streams; the handler holds no
// goroutine or file between requests and needs no closing. Over HTTP,
// Options.OnInitialized runs once per client handshake.
//
// The handler checks no token, Host or Origin itself, and the SDK's own
// loopback Host check is off (httpapi's allows the names a reverse proxy
// sends): mount it behind httpapi.Handler.Handle, or checks of your own.
//
// Tools: retrieve (the `recall retrieve --json` object as structured
// content, a compact text beside it), add, append, edit, get, delete, list
// (cursor pages), categories. Input and output schemas use plain JSON
// types — an optional field is left out of "required" (and, in a result,
// left out rather than sent as null), never declared as a ["null", T]
// union, which clients such as the MCP Inspector mishandle — and each
// tool decodes its own arguments (service.DecodeParams), so a bad one is a
// tool error a person can read, naming the field.
//
// # Caveats
//
// The SDK's own stdio transport ends the session at the first frame it
// cannot decode; StdioTransport answers invalid JSON (-32700), batches,
// wrong or missing "jsonrpc", ids that are neither strings nor numbers or
// numbers out of a float64's range, nesting deeper than MaxFrameDepth,
// lines over MaxFrameBytes, and whatever else the SDK's decoder refuses
// (-32600) itself, and keeps serving. At the end of its input it ends the
// session only once the requests passed on are answered (at most
// DrainTimeout).
package mcptools
