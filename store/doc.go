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
// The rules every backend shares live here, once: what a valid entry is
// (Validate, including its tags: ValidateTag, CleanTags), what an
// unreadable entry is and how it behaves (ErrUnreadable; the Store doc's
// "Damaged entries"), and the optional capabilities' contracts.
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
// a revision, or Reset: rebuild), KeyLister, the index copies
// (IndexCache, StampedIndexCache), VectorCache (the vector cache's
// persistence, which embed/cache uses), Sorter (every entry in identity
// order, for a streaming export) and Snapshotter (a consistent copy of the
// live store in the backend's own format, for backups; bolt). ChangeLog is a bounded in-memory change history a
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
