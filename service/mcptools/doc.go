// Package mcptools offers recall's memory as Model Context Protocol tools
// (official Go SDK): Register adds them to a caller's *mcp.Server,
// NewServer builds a server with them, and StdioTransport is a stdio
// transport that survives bad frames.
//
// # Basics
//
//	srv := mcp.NewServer(&mcp.Implementation{Name: "my-agent"}, nil)
//	mcptools.Register(srv, m)
//	srv.Run(ctx, mcptools.StdioTransport(os.Stdin, os.Stdout, nil))
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
