// Package service is recall served to agents: one Memory type that does
// what the CLI, the HTTP API (service/httpapi) and the MCP tools
// (service/mcptools) all do, over one store and one retrieve engine, so the
// three answer alike and each rule lives once.
//
// # Basics
//
//	m := service.New(st, service.Options{})
//	m.Start(ctx) // servers: warm the index, follow outside changes, fill vectors
//	defer m.Close()
//	m.Add(ctx, service.AddRequest{Category: "people", Name: "Emma", Content: "Designer."})
//	m.Append(ctx, "people", "Emma", "Moved to Lisbon.")
//	m.Edit(ctx, "people", "Emma", "Designer.", "Product designer.")
//	res, req, err := m.Retrieve(ctx, service.RetrieveParams{Query: "Emma", Categories: []string{"people"}})
//	page, err := m.List(ctx, service.ListRequest{Limit: 100})
//	cats, err := m.Categories(ctx)
//
// Writes: Add is the upsert rule (content replaced; created time, unknown
// metadata and, unless given, tags kept). Add, Append and Edit read and
// write the entry in one atomic update (retrieve.Engine.Update, the
// store's Update through the engine), so two clients changing the same
// entry never lose each other's change, and the engine's index is patched,
// not rebuilt. Edit replaces exactly one occurrence and
// writes nothing when the text is absent (ErrNoMatch) or ambiguous
// (ErrAmbiguous). Append to a missing entry is store.ErrNotFound.
//
// Retrieve takes the parameters the HTTP API and the MCP tool take and
// applies SPEC §7's defaults and bounds (MaxLimit, MaxQueryBytes,
// MaxQueryTerms). Category and tag filters (any-of) are exact: the hits are
// the best entries that pass, found by widening the engine's ranking.
// Links of kept hits may leave the filter (they are context, marked "via").
// MinScore drops hits that matched no query word and whose cosine
// similarity is below it; it defaults to DefaultMinScore (0.2), and -1
// keeps every hit. Without an embedder every hit matches a query word, so
// it changes nothing. The JSON
// of a result is written by WriteResultJSON, byte for byte what `recall
// retrieve --json` prints and the HTTP API sends.
//
// List pages by (category, name) with an opaque cursor; after Start it
// pages the in-memory index and reads only the page's entries from the
// store, so a page costs the same at any store size.
//
// # Background work
//
// Start, for servers, returns at once: on a goroutine of the Memory's
// (Close waits for it) a folder store's watch is set up (an outside edit
// nudges the index) and then the index is built, in that order so that
// an edit made meanwhile is either read by the build or seen by the
// watch; an MCP handshake waits for neither. With
// an embedder (Options.Engine.Vectors an *embed/cache.Cache), one
// goroutine fills missing vectors from a bounded queue; a whole-index
// sync runs at start, after a full build (the feed lost track, a watched
// outside edit the feed could not name) and when the queue overflows.
// Writers never wait for it and start no goroutines.
//
// One write path, one notification: every write of the Memory goes
// through its engine (Put, Update, Delete), which writes the store and
// publishes the snapshot that holds it; the engine's change hook
// (retrieve.Options.OnChange), called once per published snapshot with
// the keys it re-read, is the only notification the vector fill (and any
// other consumer given as Options.Engine.OnChange) listens to. Writes
// through the Memory, straight to the store, or by another process reach
// it alike, each once. Close stops the Memory's goroutines (warm-up, fill)
// and then closes the engine, which waits for its own (see retrieve,
// "Goroutines").
//
// # Caveats
//
// Write through the Memory (or its Engine), not the store, or the index is
// rebuilt rather than patched. Health reports the unreadable entries met
// by the last full build only. A Memory does not own its store: Close
// stops the background work; the caller closes the store after it.
// All methods are safe for concurrent use.
package service
