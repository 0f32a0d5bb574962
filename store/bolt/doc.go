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
//     currently FormatVersion); the bucket's sequence number is the store's
//     revision.
//   - "recall.entries": key category + NUL + name (validation forbids NUL in
//     both), value a compact binary record: a version byte, the content,
//     then only the metadata that is present (times as Unix seconds and
//     nanoseconds, tags, and Meta.Extra as JSON). Times read back in UTC.
//   - "recall.vectors": the embedding vector cache (see below).
//
// Open refuses a file that is not a bbolt database, a bbolt file that lacks
// recall's meta bucket but has other buckets (another program's data), and
// a file whose format version is newer than this package knows. An empty
// bbolt file is adopted. Buckets other than recall's are left alone, so a
// later recall can add some without breaking this one.
//
// # Atomicity and revision
//
// Every Put and Delete is one bbolt write transaction that also bumps the
// revision (NextSequence of the meta bucket). A write and its revision
// commit together or not at all, even if the process is killed mid-write;
// the revision survives reopening and never goes down. Reads never bump it;
// neither does a failed write, such as a Delete of a missing entry.
//
// Store implements store.ChangeFeed. Only one process has the file open,
// so the feed is a bounded history in that process's memory
// (Options.ChangeLogSize keys): each write records its key when its
// transaction has committed, and Revision reads the revision from there,
// so the two become visible together. A reopened file starts with an empty
// history: a reader whose revision predates the Open gets Reset and
// rebuilds.
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
package bolt
