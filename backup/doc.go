// Package backup takes a memory out of a store whole: exports (JSONL, a
// folder of markdown files), backups of a store in use, and restores. It
// is the library behind `recall export`, `recall backup`, `recall
// restore` and the HTTP API's GET /v1/backup.
//
// # Basics
//
// WriteJSONL writes every entry, one line each, in identity order
// (category, then name, bytewise), through importer.AppendRecord, the
// writing half of the codec whose reading half `recall import` uses, so
// that every metadata field, timestamps included, survives:
//
//	rep, err := backup.WriteJSONL(ctx, st, os.Stdout, backup.Options{})
//
// WriteFolder writes the same entries as a folder store. Backup writes
// either, or a store.Snapshotter's own consistent copy (a bolt file),
// chosen by the destination's name (FormatFor). Restore writes a backup's
// entries (an opened store's All, or ReadJSONL of a JSONL backup) into
// an empty store, keeping every field.
//
// Importing an export into an empty store of any backend gives an
// identical store: the same identities, content, tags, other metadata,
// and created and updated times as the same instants. Two caveats: a
// PostgreSQL store keeps times to the microsecond (its timestamptz), so
// nanoseconds a folder or bolt store kept are rounded there; and a folder
// store keeps the zone a time's front matter was written in, which bolt
// and PostgreSQL do not (they keep the instant), so an export of a folder
// may differ from an export of its copy in the zones of times only.
//
// # Memory
//
// Exports stream. Every backend recall has is a store.Sorter, which
// walks in identity order: an export from bolt or PostgreSQL holds one
// chunk of entries at a time however large the store, one from a folder
// store the folders still to read and the note names of one folder. Only
// a store that is no Sorter (a host's own backend) is listed and sorted
// first, identities only, then read entry by entry: memory of its
// identities. docs/performance.md has the measured peaks.
//
// # Consistency
//
// A snapshot (bolt) is one instant: one read transaction copies the file
// while readers and writers go on. Any export or backup of a PostgreSQL
// store is one instant too: its AllSorted reads in one REPEATABLE READ,
// READ ONLY transaction, so it holds exactly the entries committed when
// it began. A JSONL or folder export of a bolt or folder store holds every
// entry whole, as one read saw it, but is not one instant: an entry
// written while it runs may or may not be in it. For a whole PostgreSQL
// database (schema, vector cache, change history) pg_dump is the tool.
//
// # Crashes
//
// Nothing that looks complete is written before it is: a backup file is
// written under "<dest>.partial-…", synced, renamed to dest and the
// folder synced; a folder export is built under such a name and renamed.
// A killed backup leaves at most that temporary (delete it), and never
// touches the source. An existing destination is never replaced.
//
// # Errors
//
// An entry the store cannot read (a damaged file) is named in
// Report.Unreadable and the export goes on; errors about the store or
// the destination as a whole end it.
package backup
