// Package bolt implements store.Store in a single bbolt file
// (go.etcd.io/bbolt): one file to copy or back up, atomic writes, and a
// revision that lives in the file.
//
// # Basics
//
//	s, err := bolt.Open("memory.db", nil) // creates the file if missing
//	if err != nil { … }
//	defer s.Close()
//	err = s.Put(ctx, store.Entry{Category: "people", Name: "alice", Content: "…"})
//
// # Layout
//
// The file holds these buckets:
//
//   - "recall.meta": key "format" is the format version (a uvarint,
//     currently FormatVersion, 4); the bucket's sequence number is the
//     store's revision.
//   - "recall.entries": key category + NUL + name, in NFC (validation
//     forbids NUL in both; a nested category keeps its '/': "trips/2024").
//     Since NUL sorts before every other byte, key order is category order,
//     then name order, and a category's own entries come before those of
//     its sub-categories. The value is a compact binary record: a version
//     byte (2), the content, then only the metadata that is present (times
//     as Unix seconds and nanoseconds, tags, and Meta.Extra as JSON), then
//     a CRC-32C (Castagnoli) of the key followed by the record. Times read
//     back in UTC.
//   - "recall.vectors": the embedding vector cache (see below).
//   - "recall.changes": the change history, one record per write
//     transaction, written in that transaction: key the revision after it
//     (8 bytes, big endian), value the revision before it and the keys it
//     wrote, then a CRC-32C. The last Options.History revisions are kept
//     (DefaultHistory, 16384; about 60 bytes a key).
//   - "recall.index": the index copy (store.IndexCache), created by the
//     first save: "current" names the bucket of the current copy (8
//     random bytes), whose one value is the revision it was made at, the
//     copy's length, the copy and padding to 8 bytes. A copy a process
//     mapped (MapIndex, store.IndexMapper) stays, untouched, until the
//     first save of a later process (indexcache.go, indexmap.go).
//
// # Damage
//
// bbolt checksums only its two meta pages; recall adds the rest.
//
// Each entry value carries the CRC-32C of its key and record. A value (or
// key) that fails it is reported, never served: Get and Update return an
// error wrapping store.ErrCorrupt and store.ErrUnreadable (one entry,
// not the whole store) that names the entry and the file, All
// yields one such error item for it and goes on. A Put over a damaged
// entry replaces it (its creation time is lost).
//
// Before bbolt maps the file, Open verifies its structure with plain reads:
// the meta page bbolt will use against the file's size, the freelist page,
// and every page reachable from the root (type, bounds, element offsets,
// nesting, no page referenced twice) — about one read of the live data. A
// file that fails (truncated, say) is refused with an error wrapping
// store.ErrCorrupt: "open x.db: store file x.db is damaged: …". A file
// whose two meta pages both fail their checksum is refused the same way.
// A check that passed is recorded beside the file (<file>.verified: its
// device, inode, size, modification and status-change times and meta
// pages), and the next Open of the very same file skips it: any write to
// the file, by recall or anything else, or a file put in its place,
// invalidates the record, and a check is recorded only when the file had
// been untouched for two seconds (verifyrecord.go). So a store is read in
// full once after each session that wrote to it, not on every start. The
// index copy a process maps (MapCheckedIndex) is recorded the same way
// once its reader checked it whole (<file>.verified-index, indexrecord.go),
// and the next process is told it was checked (index.OpenChecked).
// Damage that arises while the file is open, or that the check cannot see,
// would make bbolt panic or touch memory past the file's end (SIGBUS,
// SIGSEGV); every bbolt call therefore runs under debug.SetPanicOnFault
// and recover, the damage is returned as an error wrapping
// store.ErrCorrupt, and from then on the Store refuses every call with it
// (Close still works). A damaged file is never repaired in place: restore
// it from a backup (it is one file to copy), or read what can be read
// with All into a new store.
//
// # Format versions
//
// Version 1 stored entry values without the CRC; version 2 had the CRC but
// no event date (Meta.Date), which version 3 adds as one more optional
// field. Open migrates a file of version 1 or 2 in one write transaction:
// each value is rewritten with the same fields, version 3 and its CRC,
// and the format version is set to 3; after a crash the file is wholly
// old or wholly new. (An older recall refuses a version 3 file with
// ErrNewerFormat rather than reading dated entries as damaged.) A value
// that cannot be read as its old version is left as it is and reported
// as damaged. Version 4 adds the change history bucket; a file of version
// 3 or older gains it, empty, on Open, with no value rewritten (an older
// recall refuses a version 4 file, so no write ever lands without its
// history record). The revision does not move. Files from a newer recall
// are refused (ErrNewerFormat).
//
// Open refuses a file that is not a bbolt database, a bbolt file that lacks
// recall's meta bucket but has other buckets (another program's data), and
// a file whose format version is newer than this package knows. An empty
// bbolt file is adopted. Buckets other than recall's are left alone, so a
// later recall can add some without breaking this one.
//
// # Atomicity and revision
//
// Every Put and Delete is written in a bbolt write transaction that also
// bumps the revision (NextSequence of the meta bucket), by one per write.
// A write and its revision commit together or not at all, even if the
// process is killed mid-write; the revision survives reopening and never
// goes down. Reads never bump it; neither does a failed write, such as a
// Delete of a missing entry.
//
// Concurrent Puts, Deletes and Updates commit in groups: the writes queued
// while a transaction commits go together into the next one, which syncs
// the file once for all of them (a bbolt commit syncs twice, a few
// milliseconds each on a disk). Each call still returns only after the
// transaction holding its write has committed and synced; a write that
// fails inside a group (a Delete of a missing entry, an Update whose
// function fails) fails alone and leaves no trace, the group committing
// without it. An Update's function therefore may run on another caller's
// goroutine, and more than once. PutBatch uses a transaction of its own.
//
// Store implements store.ChangeFeed. Only one process has the file open,
// so the feed is a bounded history in that process's memory
// (Options.ChangeLogSize keys): each write records its key when its
// transaction has committed, and Revision reads the revision from there,
// so the two become visible together. A reader whose revision predates
// the Open (or the in-memory history) is answered from the file's change
// history ("recall.changes"), when its records from that revision on are
// all there, contiguous and pass their checksum; otherwise it gets Reset
// and rebuilds. So an index copy saved in the file (store.IndexCache;
// LoadIndex returns it with the revision it was made at) is brought up to
// date by a later process after up to Options.History writes, reading only
// the entries written since.
//
// All reads in chunks, one short read transaction per chunk, and yields
// only between transactions: the loop body may write to the store, and a
// slow consumer does not hold a transaction open. As a consequence All is
// not a snapshot.
//
// # Vector cache
//
// Store also implements the persistent backend of package embed/cache
// (LoadVectors, PutVectors, DeleteVectors). Inside "recall.vectors" each
// model identity (for example "hash:v1:256") has a nested bucket, created
// by its first PutVectors and dropped when DeleteVectors empties it. Keys
// are the 64 lower-case hex digits of a SHA-256; a value is
//
//	byte        format version (1)
//	uint32 LE   dim (1 to 65536)
//	float32 LE  × dim
//	uint32 LE   CRC-32C (Castagnoli) of all the bytes before it
//
// A PutVectors or DeleteVectors call is one write transaction: all of it
// or none survives a crash. Vector writes are not entry writes and do not
// bump the revision, so caching a vector never makes an index rebuild.
// LoadVectors skips a value that fails these checks (damaged, truncated,
// another format version, a key that is not a hex SHA-256) and then deletes
// it in a separate write transaction; it never returns one.
// LoadVectorsReport (the optional embed/cache.DamageReporter) also returns
// how many values a load dropped.
//
// # Locking
//
// bbolt takes an exclusive flock on the file. Open waits up to
// Options.Timeout (one second by default) and then fails with an error
// wrapping store.ErrLocked that names the file. The lock belongs to the open
// file, so even a second Open in the same process is refused, and the
// kernel releases it when the holder exits, however it exits.
//
// # Caveats
//
// One process at a time: while a server or a long-running command has the
// file open, every other recall command fails with store.ErrLocked. Run one
// process that owns the file (a server) and have other tools talk to it,
// or use the fs backend when several programs must edit the same memories.
//
// Options.NoSync trades durability for speed and is for benchmarks only.
//
// Options.ReadOnly reads a file that cannot be written (read-only media):
// several read-only processes may then share it, a writer still excludes
// them, and every write fails with ErrReadOnly. `recall`'s read commands
// fall back to it when the file is not writable.
package bolt
