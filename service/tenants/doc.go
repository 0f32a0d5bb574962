// Package tenants serves several named memories from one HTTP server:
// each memory its own store (any backend), its own URLs and its own
// bearer tokens, and no way for a request with one memory's token to learn
// anything of another, not even that it exists. `recall serve --memory`
// is one program built on it; a Go host serving one memory per user or per
// agent can mount a Server in its own.
//
// It is its own package, rather than an option of service/httpapi,
// because what it adds is a router in front of one unchanged httpapi
// Handler (and one MCP handler, service/mcptools) per memory: which
// memory a path names, which memories a token grants, and when a memory
// is open.
//
// # Basics
//
//	s, err := tenants.New(tenants.Options{
//		Memories: []tenants.Memory{
//			{Name: "alice", Store: "/srv/recall/alice.db", Tokens: aliceTokens},
//			{Name: "bob", Store: "postgres://recall@db/recall?schema=bob", Tokens: bobTokens},
//		},
//		AdminTokens: adminTokens, // optional: these grant every memory
//	})
//	defer s.Close()
//	err = httpapi.Serve(ctx, ln, s, logger)
//
// Routes, for a memory NAME:
//
//	/v1/m/NAME/...       every route of the JSON API (httpapi.Routes), /v1
//	                     replaced by /v1/m/NAME: POST /v1/m/NAME/retrieve,
//	                     GET /v1/m/NAME/entries/{category}/{name}, ...,
//	                     GET /v1/m/NAME/healthz (which, unlike a single
//	                     memory's /healthz, needs the token)
//	/mcp/NAME            MCP Streamable HTTP (mcptools.NewHTTPHandler)
//
// The single-memory routes (/v1/..., /mcp, /healthz) serve the memory
// Options.Default names, with its tokens (and /healthz without one, as a
// single-memory server). Without a default they answer 404 saying where
// the memories are, and /healthz answers {"status":"ok"} for the server
// itself, opening nothing.
//
// ReadConfig reads memories from a YAML (or JSON) file, and ParseFlags
// from `recall serve`'s NAME=STORE and NAME=@FILE flags; Flags.Config
// does both.
//
// Names are 1 to 64 lower-case letters, digits, ".", "_" and "-",
// starting with a letter or digit (ValidateName): one path segment, never
// escaped.
//
// # Tokens
//
// A token grants one memory, or every memory for an admin token; one
// token cannot be given twice. A request with no token, or with a token
// that grants nothing, gets 401 on every memory route, known names and
// unknown alike. A token that does not grant the memory its path names
// gets 404 with the very body and headers of a memory that does not
// exist: the check runs before the name is looked up and before any
// memory is opened, by one code path for both. Tokens are held only as
// HMAC-SHA256 digests under a key drawn at New, so the lookup's timing can
// say nothing about a token. ReadTokens reads tokens from a file or an
// environment variable, never from a command line. With no token at all
// the Server answers loopback clients only, with httpapi's Host and
// Origin checks (a 403 before any memory is looked up); once any memory
// has a token, every one must (its own, or an admin token).
//
// # Opening and closing
//
// New checks every option and that every folder or bolt store exists, and
// opens nothing: a server holding a thousand memories starts in
// milliseconds. A memory is opened by its first request (its store, a
// service.Memory made by Options.Open and started); concurrent first
// requests share one open (golang.org/x/sync/singleflight), and a
// request that gives up waiting leaves the open to the others. A store
// that cannot be opened (locked, gone, a database down) is a 503 naming
// the memory, to a request its token grants, and the next request tries
// again.
//
// With Options.IdleClose a memory that served no request for that long
// is closed (its index and vectors freed, a bolt file's lock released);
// the next request opens it again, paying the open and the index load
// again (see docs/performance.md for what that costs).
//
// The one rule for who publishes what: a tenant's open memory is
// published, and taken away, only under the tenant's mutex, and a request
// uses it only between acquire and release, which count it in and out
// under that mutex. Opening runs outside the mutex, one at a time per
// memory; closing takes the memory away first (no request can start on
// it) and then waits for those counted in, so a close never breaks a
// request in flight. A reopen waits for the close to finish.
//
// # Caveats
//
// Every memory's API shares one bound on large answers being sent
// (httpapi.Pending, httpapi.DefaultMaxPendingBytes: 64 MiB for the whole
// server), and each has httpapi's write timeout. The web page (package
// web) is not served for several memories. A Server is safe for concurrent use.
package tenants
