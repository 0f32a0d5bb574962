// Package postgres implements store.Store in a PostgreSQL database
// (github.com/jackc/pgx/v5), so that many processes on many hosts share
// one memory. Besides the Store interface it offers the optional
// capabilities store.Batcher (bulk import), store.ChangeFeed (which
// identities changed, announced with LISTEN/NOTIFY) and the vector cache
// of package embed/cache.
//
// # Basics
//
//	s, err := postgres.Open(ctx, "postgres://recall@db.internal/recall", nil)
//	if err != nil { … }
//	defer s.Close()
//	err = s.Put(ctx, store.Entry{Category: "people", Name: "alice", Content: "…"})
//
// The connection string is a URL or a libpq keyword/value string; what it
// leaves out comes from the PG* environment variables and ~/.pgpass, as in
// psql. Open checks that the server answers and that the password is
// right, so a wrong URL fails there, in one line, never showing the
// password. Connections are pooled (pgxpool). Every call runs under a
// deadline: the caller's context, bounded by Options.Timeout (10 s by
// default; PutBatch gets that per 1,000 entries).
//
// # Schema
//
// Everything lives in one PostgreSQL schema, "recall" unless
// Options.Schema or the URL's schema=NAME says otherwise, so several
// memories can share a database. Open creates it, or upgrades an older
// one, in one transaction under an advisory lock (hosts starting together
// upgrade it once; a failed upgrade leaves it as it was), and refuses a
// schema written by a newer recall (ErrNewerSchema) or one holding another
// program's "entries" table (ErrForeignSchema). An up-to-date schema costs
// Open one query and needs no privilege beyond using its tables. Tables:
//
//   - schema_version(version): one row, SchemaVersion.
//   - entries(category, name, content, tags text[], created, updated
//     timestamptz, extra jsonb, date timestamptz), primary key (category, name), both
//     COLLATE "C" so identities compare and sort bytewise. Metadata keys
//     recall does not interpret are kept in extra. Times keep microseconds
//     (PostgreSQL's precision) and read back in UTC; a zero Created or
//     Updated is stamped with the database's clock (now(), one clock for
//     all hosts). date is the event date (Meta.Date), NULL when the entry
//     has none, never stamped; schema version 4 added it (existing rows
//     get NULL), with a partial index for range scans in plain SQL.
//   - state(revision, floor): one row; see below.
//   - changes(rev, category, name, at): the change log.
//   - vectors(model, key, dim, vec bytea, crc): the vector cache.
//
// PostgreSQL text cannot hold a NUL byte: content, tags or metadata with
// one are refused with store.ErrInvalid (the other backends accept them).
//
// # Revision and change log: one rule for every write
//
// Statement-level triggers on entries (AFTER INSERT, UPDATE, DELETE, each
// with its transition table) do, in the writer's transaction: bump
// state.revision by one, insert one changes row per identity written at
// that revision, and pg_notify the channel "recall_changes:<schema>" with
// the revision. So every write counts the same way, whether it comes
// through this package on any host or from psql, a migration script or
// a restore. A statement that writes no row (a Delete of a missing entry)
// bumps nothing. TRUNCATE bumps the revision and raises the floor, so
// readers rebuild.
//
// Because the revision is one row that each write updates, writers take
// its row lock until they commit: revisions are handed out in commit
// order, and a reader that has seen revision r has seen every write up to
// r. (A sequence would not do: a transaction could commit revision 5 after
// a reader had moved past 6.) The price is that writes to one schema
// commit one at a time, as in bolt; a batch is one write. Reading the
// revision is one single-row query.
//
// All reads in chunks of 256 entries, one short query each, and is not a
// snapshot. AllSorted (store.Sorter, what an export and a JSONL backup
// use) reads the same chunks inside one REPEATABLE READ, READ ONLY
// transaction on a connection of its own, so it yields one instant: the
// entries committed when it began, whatever is written meanwhile.
//
// Changes(since) reads the revision, the floor and the log in one
// statement (one snapshot). It answers Reset when since is below the
// floor (the log was trimmed past it, the table truncated, or the schema
// upgraded from a version without a log) or above the revision (another
// database, or one restored from an older backup). The log is trimmed by
// every store that writes (shortly after its first write, then every
// Options.TrimInterval): rows older than ChangeLogMaxAge (a week) and
// the oldest beyond ChangeLogMaxRows (a million), whole revisions at a
// time, raising the floor. Many hosts may trim at once.
//
// Edits that bypass the triggers (session_replication_role = replica, or
// the triggers disabled) are not logged or announced; the next full
// rebuild (All) reads them.
//
// # Subscribe
//
// Subscribe wakes subscribers after a write through the same Store at
// once, and after any write by anyone when its notification arrives. One
// goroutine per Store, started by the first Subscribe, holds a dedicated
// connection (outside the pool) that LISTENs. When that connection breaks
// it reconnects by itself, backing off from 50 ms to 2 s, and once it
// listens again it wakes every subscriber: notifications sent while it
// was away are lost, so readers call Changes, which catches up from the
// log. A missed notification therefore delays a change, never loses it.
// The listener also checks its connection every 30 s when nothing
// arrives, so a server that vanished without a word is noticed.
//
// # Update
//
// Update reads the entry with SELECT … FOR UPDATE in a transaction, calls
// fn, and writes its result in the same transaction: every other writer of
// that identity, on any host, waits for the row lock, so no acknowledged
// change is lost. An absent entry has no row to lock; its result is
// inserted with ON CONFLICT DO NOTHING, and when another writer created
// the entry in between, Update rolls back and starts again, calling fn
// with the entry that now exists. Transactions that fail with a
// serialization failure or deadlock (possible when they meet transactions
// written by hand) are retried a few times.
//
// # Batches
//
// PutBatch validates everything first, then in one transaction COPYs the
// entries into a temporary table and upserts them with one INSERT … ON
// CONFLICT, sorted by identity so overlapping batches never deadlock. All
// or nothing; the revision moves once.
//
// # Vector cache
//
// LoadVectors, PutVectors and DeleteVectors implement the embed/cache
// backend. A row stores dim, the float32 values little-endian in a bytea
// stored uncompressed, and the CRC-32C of dim and values. LoadVectors
// checks each row (key shape, dim against length, CRC), never returns a
// damaged one and deletes it afterwards unless it was rewritten since.
// Vector writes do not move the revision. Cosine similarity stays in Go.
//
// # Failure
//
// When the database is out of reach, calls fail at once (a refused or
// broken connection, not a timeout) with an error wrapping ErrUnavailable
// that names the database; nothing is half-written, since every write is
// one transaction. Nothing needs reopening when it returns: the pool
// replaces dead connections (it pings one that sat idle for more than a
// second before handing it out), the listener reconnects and wakes subscribers, and readers catch
// up from the change log.
//
// # Rows written outside recall
//
// Rows written with SQL are held to what recall itself would write, and
// a row that breaks it is an unreadable entry (an error wrapping
// store.ErrUnreadable that names it), reported by All, Keys and Get and
// never served, while the other rows read on:
//
//   - content over store.MaxContentBytes (1 MiB), or tags and extra
//     metadata over MaxReadMetaBytes (1 MiB as PostgreSQL prints them:
//     four times store.MaxMetaBytes, which Put refuses to exceed as JSON).
//     The bound is in the SQL: a read selects octet_length(content) and
//     the sizes of the metadata, and the values only when within the
//     bounds, so a 48 MB row costs the client a few bytes;
//   - an identity that breaks the naming rules, or is not in Unicode NFC
//     (psql given a macOS file name writes NFD). Get of the identity as
//     stored (the change feed names it so) reports it as All does, so a
//     server and a fresh process agree; Delete removes it by its name in
//     either form, and Put or Update of the NFC form writes a new entry
//     beside it.
//
// Such a row stays removable and replaceable: Delete needs no read, and
// Put writes over it.
//
// # Caveats
//
// LISTEN needs a session: connect directly or through a session-mode
// pooler, not a transaction-mode one (for pgbouncer in transaction mode
// also add default_query_exec_mode=exec to the URL, and expect the feed
// to wake readers only after local writes and reconnects). Writes to one
// schema are serialised by the revision row, held until the commit's WAL
// flush: where a flush takes a few milliseconds that is a few hundred
// small writes a second, for all hosts together (use PutBatch for
// imports). The change
// log is trimmed only by stores that write and live a few seconds, such
// as servers; run TrimChanges from a job if only one-shot commands write.
package postgres
