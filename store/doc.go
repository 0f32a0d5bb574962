// Package store defines the contract between recall and its storage
// backends: the Store interface, the Entry type, validation of the rules in
// SPEC §1, and the sentinel errors callers branch on.
//
// Backends live in sub-packages: store/fs keeps one markdown file per entry
// in a folder a person can edit; store/bolt keeps everything in a single
// bbolt file; store/postgres keeps them in a PostgreSQL database. Package
// storetest holds the conformance suite every backend runs, and package
// location opens whichever backend a location string names.
//
// # Basics
//
// An entry is identified by (category, name). Put is an upsert. Every
// successful Put or Delete raises the store's revision; readers (an index,
// a cache) compare revisions to know when they are stale, and a backend
// with a change feed tells them which entries to re-read.
//
// # Optional capabilities
//
// Extras are optional interfaces found by type assertion, in the manner of
// io/fs: Batcher (bulk writes), ChangeFeed (which identities changed since
// a revision, or Reset: rebuild), and a vector cache defined where it is
// used (embed/cache). ChangeLog is a bounded in-memory change history a
// single-process backend can answer ChangeFeed from; storetest.RunChangeFeed
// checks an implementation.
//
// # Caveats
//
// Revisions are per process for store/fs: edits made by other processes are
// not counted unless the store is watching its folder (fs.Store.Watch, which
// `recall serve` and `recall mcp` turn on). Without a watch, an index over
// an fs store must be rebuilt explicitly (or the process restarted) to see
// them.
package store
