package store

import (
	"context"
	"errors"
	"io"
	"iter"
)

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

// KeyLister lists identities without reading the entries' content, far
// cheaper than All where the backend keeps names apart from content (a
// folder: file names; bolt: keys; PostgreSQL: two columns), for a listing
// that needs names only (`recall ls`).
//
// Keys yields the identity of every entry All would yield, in no
// particular order; with a non-empty category, only the identities of
// that exact category (not of its sub-categories). What All reports as an
// error because an item cannot be mapped to an identity (a folder store's
// file whose name breaks the rules, a symbolic link; a damaged key) Keys
// reports the same way, as an error item, and goes on. Damage inside an
// entry (a file whose front matter cannot be parsed, a value that fails its
// checksum) is not seen, since Keys reads no entry: such an entry is listed,
// and All, Get or an index build still report it. A store that is closed
// or unavailable, or a cancelled ctx, ends the sequence with one error.
type KeyLister interface {
	Keys(ctx context.Context, category string) iter.Seq2[Key, error]
}

// MetaReader reads the metadata of many entries without their content,
// in one round trip where the backend keeps them apart (PostgreSQL: one
// query per call), for a listing that shows metadata but no content (a
// server's page of GET /v1/entries).
//
// Metas returns one result per key, in order: the entry's Meta, or Err
// for that entry alone, wrapping ErrNotFound when it is missing and
// ErrUnreadable when the store will not serve it (as Get would). The
// call's own error concerns the store as a whole (closed, unavailable, a
// cancelled ctx).
type MetaReader interface {
	Metas(ctx context.Context, keys []Key) ([]MetaResult, error)
}

// MetaResult is one entry's answer from MetaReader.Metas.
type MetaResult struct {
	Meta Meta
	Err  error
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

// AckRevisioner is a store that tells, besides Revision, the revision a
// reader must have reached to hold every write the store has acknowledged
// (returned from) so far, except the reader's own: writes made with a
// CallerPublishes context naming it, which it makes visible to itself
// before they return. Such a reader need not wait for its own writes still
// on their way (retrieve.Engine's retrieves do not wait on the Engine's
// own writes), and it still waits for every other writer's, another
// Engine's over the same store included.
//
// AckedRevision is at most Revision, and neither moves backwards while the
// store is open (bolt's are this process's: the file has one process). A
// nil p means no reader's writes are left out.
type AckRevisioner interface {
	AckedRevision(ctx context.Context, p *Publisher) (uint64, error)
}

// A Publisher names a reader of a store that publishes its own writes to
// itself before it acknowledges them (CallerPublishes). Make one with
// new(store.Publisher); it is compared by address.
type Publisher struct{ _ byte } // not zero-sized: distinct ones have distinct addresses

type publisherKey struct{}

// CallerPublishes returns ctx marked for writes that p publishes to itself
// before it acknowledges them: retrieve.Engine marks its writes so, since
// it brings its snapshot up to date before its Put, Delete or Update
// returns. A store with AckedRevision leaves such writes out of p's
// acknowledged revision (and only of p's); every other store ignores the
// mark.
func CallerPublishes(ctx context.Context, p *Publisher) context.Context {
	return context.WithValue(ctx, publisherKey{}, p)
}

// PublisherOf returns the Publisher ctx was marked with by
// CallerPublishes, or nil.
func PublisherOf(ctx context.Context) *Publisher {
	p, _ := ctx.Value(publisherKey{}).(*Publisher)
	return p
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
	// LoadIndex returns the copy with the revision it was made at; data is
	// nil when there is none. That revision may be older than the store's
	// current one (bolt keeps its copy across writes): a reader uses such
	// a copy only with the store's ChangeFeed naming every entry written
	// since, and otherwise rebuilds.
	LoadIndex(ctx context.Context) (data []byte, rev uint64, err error)
}

// StampedIndexCache keeps one disposable copy of the index (opaque data,
// as for IndexCache) in a store whose revision does not outlive the
// process (a folder: its revision is a counter in memory), so that the
// copy cannot be tied to a revision. It is tied instead to the state of
// each entry, as the store describes it with a stamp: a short opaque
// string that is equal in two walks only if the entry cannot have changed
// in between (a folder: path, size, modification and change times, inode).
// The reader records the stamp of every entry with the copy and, at the
// next start, takes from the copy only the entries whose stamp is the same
// (SPEC §4: a stale or damaged copy is rebuilt, never trusted).
type StampedIndexCache interface {
	// AllStamped walks the store as All does, yielding the same items in
	// the same order, each with its entry's stamp; an item whose error
	// concerns no one entry (an unmappable file, the store gone) has
	// none. Before reading an entry it calls fresh with its key and
	// stamp, on the walk's goroutine; when fresh returns true the entry is
	// not read and the item has Cached set and only the key. A stamp is
	// taken before the entry is read, so the content read is at least as
	// new as its stamp. An empty stamp means the entry cannot be told
	// from a later change of it (it changed too recently, in the same
	// tick of the clock as the walk: "racily clean" in git's words); a
	// reader must never trust a copy of it, and fresh is then not called.
	AllStamped(ctx context.Context, fresh func(k Key, stamp string) bool) iter.Seq2[StampedEntry, error]
	// SaveStampedIndex keeps data as the copy, replacing the previous one.
	// It is atomic (a reader finds the old copy or the new one) and
	// blocks no writer.
	SaveStampedIndex(ctx context.Context, data []byte) error
	// LoadStampedIndex returns the copy, or nil when there is none.
	LoadStampedIndex(ctx context.Context) ([]byte, error)
}

// StampedEntry is an item of StampedIndexCache.AllStamped.
type StampedEntry struct {
	Entry  Entry // only Category and Name when Cached, or with an error
	Stamp  string
	Cached bool // the caller's copy is current: the entry was not read
}

// IndexViewer is an IndexCache that lends its copy in place, without
// copying it (bolt: the copy as it lies in the file's memory map), so that
// a reader decoding it allocates only what it keeps.
type IndexViewer interface {
	// ViewIndex calls fn with the copy and the revision it was made at, as
	// LoadIndex returns them, and does not call it when there is no copy.
	// data is valid only during the call: fn must not modify
	// it or keep it, or anything sharing its memory.
	ViewIndex(ctx context.Context, fn func(data []byte, rev uint64)) error
}

// IndexMapper is an IndexCache that lends its copy as a read-only memory
// mapping that stays valid for the rest of the process, so that a reader
// points into it instead of decoding or copying it (bolt: the copy's pages
// of the file, which the store then never frees or rewrites while the
// process lives; the page cache holds them, not the heap).
type IndexMapper interface {
	// MapIndex calls open with the copy, mapped, and the revision it was
	// made at, as LoadIndex returns them; it does not call it when there
	// is no copy, and returns an error wrapping ErrNotMapped when the copy
	// cannot be mapped here (read it with LoadIndex or ViewIndex then).
	// When open returns nil, data stays readable and unchanged until the
	// process exits, and open may keep it and anything pointing into it;
	// when open returns an error, it must keep nothing of data. open may
	// call release with parts of data it has read and does not need soon:
	// their pages leave the process's resident set (they stay readable and
	// come back when touched).
	MapIndex(ctx context.Context, open func(data []byte, rev uint64, release func(read []byte)) error) error
}

// CheckedIndexMapper is an IndexMapper that records, beside its data,
// that a copy it lent was checked whole with its file in the state it is
// in, so that a later process trusts that very copy without reading all
// of it again (bolt: <file>.verified-index, beside the <file>.verified of
// its own structure check).
type CheckedIndexMapper interface {
	IndexMapper
	// MapCheckedIndex is MapIndex, with checked telling open that this
	// very copy was checked whole before, its file unchanged since. An
	// open called with checked false that returns nil must have checked
	// the copy whole (index.Open does): the store may record so.
	MapCheckedIndex(ctx context.Context, open func(data []byte, rev uint64, checked bool, release func(read []byte)) error) error
}

// ErrNotMapped is wrapped by IndexMapper.MapIndex when the copy cannot be
// mapped (a platform without it, a copy laid out unaligned).
var ErrNotMapped = errors.New("index copy not mappable")

// Sorter yields every entry in identity order (category, then name,
// compared bytewise as Go compares strings), so that an export streams
// in a stable order without holding the store's identities in memory.
// AllSorted is All with that order added: the same items, errors and
// caveats (the loop body may call other methods; not a snapshot unless
// the backend says so: PostgreSQL's is one instant). bolt's walk is in
// that order anyway (its keys); PostgreSQL reads it in one REPEATABLE
// READ transaction; a folder store walks its folders from a heap keyed
// by category.
type Sorter interface {
	AllSorted(ctx context.Context) iter.Seq2[Entry, error]
}

// Snapshotter writes a consistent copy of the whole store while it stays
// open for reads and writes: the state of one instant, as one
// transaction sees it (bolt: a read transaction's Tx.WriteTo). The copy
// is in the backend's own format (bolt: a store file that Open reads), so
// it keeps what an entry-by-entry export does not (the vector cache, the
// index copy). Writers are not blocked while it runs; the copy is of the
// instant it started.
//
// WriteSnapshot returns the bytes written. An error leaves w holding a
// partial copy: callers write to a temporary name and rename it only
// after success (package backup does).
type Snapshotter interface {
	WriteSnapshot(ctx context.Context, w io.Writer) (int64, error)
}

// VectorCache persists embedding vectors for the vector cache (package
// embed/cache), grouped by model identity (ValidateModel) and keyed by the
// hex SHA-256 of the embedded text (ValidateVectorKey). store/fs,
// store/bolt and store/postgres implement it. Vectors are not entries: no
// vector operation moves the revision, and All never yields them.
type VectorCache interface {
	// LoadVectors calls fn for every valid vector stored for model.
	// Corrupt records are dropped by the backend, never returned. An
	// error of fn ends the load and comes back unchanged.
	LoadVectors(ctx context.Context, model string, fn func(key string, vec []float32) error) error
	// PutVectors stores vecs[i] under keys[i] for model (ValidateVectors);
	// the later of duplicate keys wins.
	PutVectors(ctx context.Context, model string, keys []string, vecs [][]float32) error
	// DeleteVectors removes the keys of model; missing keys are fine.
	DeleteVectors(ctx context.Context, model string, keys []string) error
}
