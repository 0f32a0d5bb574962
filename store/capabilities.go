package store

import "context"

// Optional capabilities. A backend implements those it can; callers find
// them by type assertion (st.(store.Batcher)) and fall back to the plain
// Store methods when they are missing. Each backend asserts at compile time
// the ones it offers.

// Batcher writes many entries at once, far faster than one Put each (one
// transaction, one directory sync), for bulk import.
//
// PutBatch validates every entry first and writes nothing if any is
// invalid (the error names the entry). Each entry is then written as Put
// would write it (an upsert; zero timestamps stamped). The crash guarantee
// of Put holds per entry: after a crash mid-batch each entry of the batch
// is either absent (or its old version) or complete; a backend may give
// more (bolt: all or nothing). On success the revision has moved past every
// entry of the batch.
type Batcher interface {
	PutBatch(ctx context.Context, entries []Entry) error
}

// ChangeSet is what changed in a store between two revisions.
//
// Keys name the identities written (put, updated or deleted) after revision
// Since, up to and including revision Rev, each once, in no particular
// order. A reader brings its derived data from Since to Rev by re-reading
// each key with Get (ErrNotFound means deleted). Because the reader reads
// current state rather than replaying operations, a key written again
// after Rev is harmless: it is also in the next ChangeSet.
//
// Reset means the store lost track of what changed after Since (the
// history was trimmed, a watcher overflowed, a notification was missed
// and cannot be recovered, the store was replaced): the reader must rebuild
// from All. Keys is then empty.
type ChangeSet struct {
	Since, Rev uint64
	Keys       []Key
	Reset      bool
}

// ChangeFeed tells which identities changed since a revision, so that a
// reader (the index) follows the store incrementally, including writes
// made behind its back: by another goroutine through the store, by another
// process (a watched folder, a shared database).
type ChangeFeed interface {
	// Changes returns what changed after revision since. A since equal to
	// the current revision yields an empty set with Rev == since. A since
	// greater than the current revision (a store replaced or restarted
	// behind the reader) yields Reset.
	Changes(ctx context.Context, since uint64) (ChangeSet, error)
	// Subscribe returns a channel that receives a value soon after the
	// revision moves, and a function that ends the subscription. Values are
	// coalesced: one may stand for many writes, and a slow receiver never
	// blocks a writer. The channel is never closed; call Changes to learn
	// what moved.
	Subscribe() (changed <-chan struct{}, cancel func())
}

// IndexCache keeps one disposable copy of data derived from the entries
// (a serialized index snapshot) inside the store, tied to the revision it
// was made at, so that a new process can load it instead of reading and
// analysing every entry (SPEC §4: a stale or damaged copy is rebuilt,
// never trusted). The store treats the data as opaque; the reader checks
// it (a checksum, a version) before use.
type IndexCache interface {
	// SaveIndex keeps data as the copy made at revision rev, replacing the
	// previous one, provided rev is still the store's revision; otherwise
	// (a write came in between) it keeps nothing and returns nil.
	SaveIndex(ctx context.Context, rev uint64, data []byte) error
	// LoadIndex returns the copy when it was made at the store's current
	// revision, with that revision; data is nil when there is no copy or
	// it is stale.
	LoadIndex(ctx context.Context) (data []byte, rev uint64, err error)
}

// IndexViewer is an IndexCache that lends its copy in place, without
// copying it (bolt: the copy as it lies in the file's memory map), so that
// a reader decoding it allocates only what it keeps.
type IndexViewer interface {
	// ViewIndex calls fn with the copy and the revision when the copy was
	// made at the store's current revision, and does not call it
	// otherwise. data is valid only during the call: fn must not modify
	// it or keep it, or anything sharing its memory.
	ViewIndex(ctx context.Context, fn func(data []byte, rev uint64)) error
}
