// Package fs implements store.Store over a folder of markdown files that a
// person can read, edit, and keep in git.
//
// The package is named after the layout it asks for (store/fs); inside its
// own files the standard io/fs is imported as iofs.
//
// # Layout
//
// Each entry is one file, <root>/<category>/<name>.md, where each level of
// the category is a folder: entry "Kyoto Trip" of category
// "trips/2024/spring" is <root>/trips/2024/spring/Kyoto Trip.md. Notes
// directly in the root are entries of category RootCategory ("_root"), so
// a folder store opened on an Obsidian vault sees every note; Put and Get
// of category "_root" use the root folder (a folder named _root at the top
// holds no entries of its own: All reports any note directly in it). A
// category's folders are created by the first Put into it and removed,
// level by level, by the Delete that leaves them empty.
//
// All walks the whole tree. Ignored silently: names starting with '.'
// (.obsidian, .trash, .git, .recall, temp files) and files not ending in
// ".md" (attachments). Nothing that could hold a note is silently
// invisible: All yields an error item wrapping ErrMalformed (which wraps
// store.ErrUnreadable, the error every backend uses for one entry it
// cannot read) that names the path and the reason for every "*.md" file it cannot map — a file or
// folder name that breaks the rules of store.ValidateKey, a name not in
// Unicode NFC (on a file system that keeps the forms apart, such as
// Linux's), a folder more than store.MaxCategoryDepth levels deep, a
// symbolic link, a named pipe or other non-regular file, a file whose
// content is broken (not UTF-8, too large) — so that ls and reindex can
// report it.
//
// All walks depth first, in file-name order per folder. AllSorted
// (store.Sorter, what an export uses) yields the same items in identity
// order (category, then name, bytewise), which no depth-first walk gives
// ("c/x-y" sorts between "c/x" and "c/x/sub"; the root's notes are
// category _root): folders wait in a heap keyed by category, so it holds
// the folders still to read and one folder's note names, not the store.
//
// # Names
//
// Category and name are normalised to NFC on every call (store.Normalize),
// and Put writes only names that pass store.Validate. A file or folder
// whose name SPEC §1 refuses for new entries ("What is it?.md", "Notes..md",
// "Q3: plan/") is a note all the same: its identity is the name mapped by
// store.EscapeName ("What is it%3F"), and the entry's file is
// store.UnescapeName of the identity, so a write goes back to that file.
// Get, Update, Delete and Path accept the name as written too
// (store.NameKey). Front matter that does not parse is kept verbatim (see
// store.UnparsedFrontMatter and UnparsedProblem): the note is read, and a
// write that keeps that value keeps the block byte for byte. In front
// matter that parses, a value of tags, created or updated that recall
// cannot read is kept as its text (store.UnparsedKeys), the other keys
// read as usual; UnparsedWarnings says what is kept either way.
//
// On a case-insensitive file system (the macOS and Windows defaults, FAT),
// "Note.md" and "note.md" are one file. There Put refuses, with a
// *store.FieldError naming the existing spelling, a new identity that
// differs only by case from an existing one at any level, instead of
// overwriting it. The first write finds out whether the file system folds
// case by creating a probe file in <root>/.recall; Options.Case overrides
// it.
//
// # Symbolic links
//
// The root folder may itself be a symbolic link (it is resolved once, by
// Open). Below it, a folder store never follows a symbolic link, whether it
// points inside the store or out of it: a memory kept in git can carry
// a/passwd.md -> /etc/passwd, and a linked category folder would receive
// writes outside the root. So Get of an entry whose file or folder is a
// link fails with an error wrapping ErrMalformed; All reports the link;
// Put, Update and Delete refuse to go through a linked folder; a Put over
// a linked entry file replaces the link with a plain file (its target is
// untouched), and a Delete removes the link itself. The store's own
// folder .recall (the lock file; the caches too with Options.CacheInFolder)
// may not be a link either: writes (and then vector calls) fail with
// ErrMalformed while it is. The cache folder in the user's cache
// directory may be reached through links. Entry files are opened
// with O_NOFOLLOW and O_NONBLOCK, and only regular files are read, so a
// named pipe called x.md never blocks a reader. Folders on the way are
// checked with lstat before use; a link swapped in between that check and
// the open (a race by someone who can already write to the folder) is not
// guarded against.
//
// # Availability
//
// Every call first checks that the root folder is still there, and on the
// device it was on when the store was opened. A root that was deleted,
// unmounted or replaced by a file makes every call (All, Get, Put,
// Revision, …) fail with an error wrapping store.ErrUnavailable naming the
// root, instead of looking like an empty store; a Put never re-creates it.
// The store recovers by itself when the folder comes back at the same
// place on the same device; after a remount on another device, reopen it.
//
// # Front matter
//
// The body of the file is the entry's content, byte for byte. Metadata, when
// present, is YAML front matter at the very start of the file, between two
// lines that read "---" (CRLF line ends are accepted):
//
//	---
//	tags:
//	  - travel
//	created: 2024-03-01T09:30:00Z
//	updated: 2024-03-02T18:00:00Z
//	date: 2024-02-28
//	mood: sunny
//	---
//	The sea at Sanya is very blue.
//
// tags is a list (a single string means one tag); created and updated are
// RFC 3339 times (a bare date such as 2024-03-01 means midnight UTC).
// date is the event date (Meta.Date: when it happened), a YAML date as
// Obsidian writes it (2024-02-28, kept a date without a time of day and
// written back so) or an RFC 3339 time; a date value that is neither (free
// text such as "last spring") is not guessed at: it stays a key of
// Meta.Extra, as every key recall does not interpret. Every
// other key lands in Meta.Extra and is written back by Put, with the value
// types a YAML decoder yields (map[string]any, []any, int, float64, ...).
// A file without front matter is all content.
//
// Put (and Update, PutBatch) of a new entry writes front matter in a
// canonical form: tags, created, updated (both set to now unless given),
// date, then the other keys sorted, two-space indent. Over an entry file
// it can read, it keeps that file's front matter text byte for byte (key
// order, quoting, comments, blank lines, `date: 2024-01-05`, `price:
// 4.50`, keys it does not know) except for the lines of the keys whose
// values change: a changed key's lines are rewritten in place (a time
// keeps its form: a bare date stays a bare date, quotes stay), a key the
// entry no longer has is removed with its lines, and a new key is added
// where the canonical order puts it when the file is in that order, else
// at the end. It adds no created or updated the file did not have unless
// the caller gives one: created then stays zero (the entry's times are the
// file's own), and an updated key the file has is set to now. So an
// append, an edit or a new tag through recall shows in git diff as just
// that. A front matter whose keys all keep their values stays byte for
// byte whatever its layout; one written as a flow mapping at the top
// ("{a: 1, b: [x, y]}", comments and line breaks inside) is edited where
// each value stands: a changed value is replaced by its flow form, a
// dropped key is cut with its comma, a new key goes before the closing
// brace (spliceflow.go). A front matter it cannot splice exactly (another
// layout with a key that changes, or a result that would not read back as
// the metadata wanted, which it checks) is written in the canonical form
// instead, still without an added created or updated. Content that itself begins with
// "---" is always preceded by a front matter block, so it reads back
// unchanged.
//
// A file whose front matter is not a YAML mapping with well-formed tags and
// times is not silently turned into content: Get returns, and All yields for
// that one file, an error wrapping ErrMalformed that names the path and the
// line. Put over such a file works and replaces it. A file that opens with a
// "---" line but never has a second one has no front matter.
//
// # Atomicity and durability
//
// Put writes a temp file in the entry's folder (".<name>.md.tmp-<random>",
// hidden from All and Get by its leading dot), fsyncs it, renames it over the
// entry's file, and fsyncs the folder; each new category folder is fsynced into
// its parent before anything is written in it. A reader, or the folder after a
// crash or SIGKILL at any moment, sees the old file or the new one, never a
// mix or a truncated file. Delete removes the file and fsyncs the folder.
// Temp files left by a crash are removed, once they are a minute old
// (Options.StaleTempAge), by the next walk that passes their folder (All,
// Keys, a retrieve's or a server's index load), so that a command pays no
// extra walk for them, and the temp file of a write in flight in another
// process is never taken away. Writes to one entry are serialised
// within the Store; reads take no lock.
//
// PutBatch (store.Batcher, for bulk import) keeps that guarantee per entry
// and pays the syncs once per chunk of up to 1,024 entries: it takes the
// chunk's entry locks (see lockEntries for the deadlock-free order), writes
// every temp file in parallel, makes them all durable at once, renames
// each over its entry's file, fsyncs each folder it renamed into once, and
// releases the locks. No file is renamed before its content is durable.
// "At once" is one syncfs(2) of the file system on Linux 5.8 or later on
// ext2/3/4, XFS, Btrfs and F2FS (where syncfs writes back every file and
// reports a failure); elsewhere, an fsync of each temp file. A syncfs also
// flushes whatever else is waiting to be written on that file system, by
// any program, so a batch's time depends on the other writers too.
//
// Keys (store.KeyLister) lists identities from the folders' names, without
// opening any entry file, and reports unmappable names as All does.
//
// # Revision and change feed
//
// The revision is a counter in memory, starting at zero, raised by each
// successful Put, Update and Delete of this Store value. Changes made by
// hand, by git, by another process, or by another Store on the same
// folder are visible to Get and All at once, but by themselves they do not
// raise the revision: an index that watches the revision must be rebuilt
// explicitly (or the process restarted) to see them, unless the Store
// watches the folder.
//
// Store implements store.ChangeFeed: Changes names the entries written
// since a revision, from a bounded history in memory (Options.ChangeLogSize
// keys), so that an index re-reads only those. A reader further behind,
// or one whose revision this Store never issued, gets Reset and rebuilds.
//
// # Watching
//
// A long-running process (a server) calls Store.Watch, and from then on
// outside edits raise the revision too and enter the change feed by
// entry, so that an index re-reads just the files that changed. Two paths
// notice them: file system events (fsnotify) on the root and on every
// folder below it (nested categories, new folders included), reported
// within about 100 ms of a burst going quiet; and a stat scan comparing
// each entry file's size and modification time, for file systems whose
// events are lost or never sent (network mounts, some container volumes):
// every 2 s when events cannot be had, every 30 s as a safety net while
// they work. A burst such as a git pull raises the revision once or a few
// times, not once per file. A folder moved in is read for its entries; one
// removed takes the entries known under it. When the kernel drops events
// (queue overflow), the feed tells readers to rebuild. The Store's own
// writes are recognised (it notes the size and modification time of each
// file it is about to rename into place) and do not raise the revision a
// second time. WatchOptions tunes the debounce and the scan, or turns
// events off.
//
// # Cache folder
//
// Reading never writes into the folder: a folder store is often a folder
// its user keeps for themselves (an Obsidian vault, a git checkout), where
// a new .recall/ would show up in git status. What the store keeps only
// to go faster, the index copy and the vector cache below, lives in a
// folder of the user's cache directory that belongs to this one folder
// (Store.CacheDir):
//
//	<cache directory>/folders/<base name>-<16 hex digits>
//
// The cache directory is Options.CacheDir, else $RECALL_CACHE_DIR, else
// os.UserCacheDir()/recall (~/.cache/recall or $XDG_CACHE_HOME/recall on
// Linux, ~/Library/Caches/recall on macOS, %LocalAppData%\recall on
// Windows); when none is known the store keeps no cache. The hex digits
// start the SHA-256 of the folder's identity: its absolute path, symbolic
// links resolved, with its device and inode. So two folders never share a
// cache, the same folder reached through a link finds its own, and a
// folder that is moved, copied (cp -a, a git clone, a restore) or made
// anew at the same place starts a fresh one instead of trusting another's
// (whose stamps would not match anyway). The base name, and a file named
// folder inside that holds the folder's path, are there for a person
// looking at the cache directory. The cache folder is made mode 0700 on
// first use; any of it may be deleted at any time. One that cannot be
// written costs speed, nothing else: every start reads every note, and
// vectors stay in memory.
//
// Options.CacheInFolder keeps both in <root>/.recall instead, as earlier
// versions did, for a folder that should carry its cache with it. A
// <root>/.recall/ left by an earlier version is never changed or removed:
// a model's vector file there, when the cache folder has none for that
// model, is copied into the cache folder once (embeddings cost money) and
// checked there like any; its index copy is not read (the first start
// rebuilds one in the cache folder).
//
// Writes are another matter: Put, Update, Delete and PutBatch take the
// entry's lock on <root>/.recall/lock (see Atomicity), which every writer
// of the folder must find whatever its cache directory, and the first
// write finds out the case rule there (see Names). Both leave .recall/lock,
// an empty file.
//
// # Persisted index
//
// Store implements store.StampedIndexCache: package retrieve keeps a copy
// of its index in the file index of the cache folder (with the stamp of
// every entry file it indexed: size, modification time and, on Linux,
// inode and change time), so that a new process reads and analyses only
// the files changed since. AllStamped walks the tree by the rules of All
// and stamps each note before reading it; a file changed at or after the
// walk's start gets no stamp and is never taken from a copy (git's rule
// for racily clean files). The walk's start is read from the file
// system's clock (the modification time of index.clock in the cache
// folder, which each walk rewrites) when the cache folder is on the
// folder's file system, else it is the system clock less three seconds,
// more than the coarsest file time granularity (FAT's two seconds).
// The copy is disposable: written whole and renamed into place, not
// fsynced, checked by its reader, rebuilt when damaged or stale. Delete
// it at any time; the next start rebuilds it.
//
// # Vector cache
//
// Store also implements the persistent backend of package embed/cache
// (LoadVectors, PutVectors, DeleteVectors). Each model identity has one
// file, vectors/<model>.vec in the cache folder. <model> is the identity with every byte outside [a-z0-9._-]
// written as %XX (upper-case letters too, so that case-insensitive file
// systems keep models apart); a name longer than 100 bytes is cut and
// ends in '~' and 16 hex digits of the identity's SHA-256. The file is a
// header followed by records, all integers little-endian:
//
//	header: "RCVECTOR" | version byte (1) | uint16 len | model | CRC-32C
//	record: key (32 bytes, the SHA-256) | uint32 dim | float32 × dim | CRC-32C
//
// Each CRC-32C (Castagnoli) covers the bytes of its header or record
// before it. The file is append-only: PutVectors appends all records of a
// call with one write and one fsync, and a later record for a key
// replaces earlier ones. A new file is created whole (header included)
// by temp file, fsync and rename. DeleteVectors rewrites the file without
// the keys (temp file, fsync, rename, fsync of the folder) and removes it
// once it is empty; a load rewrites it the same way when replaced records
// take more room than live ones.
//
// LoadVectors reads the whole file and trusts nothing: a header that is
// not this model's in format version 1 (bad magic, another version,
// another model, a bad checksum) moves the file to <model>.vec.bad,
// replacing an earlier one, and the model starts empty; the first record
// that is truncated or fails its checksum ends the file's good part, and
// the file is cut there, so later appends follow good data. A PutVectors
// that finds the file changed since this Store last wrote or read it
// checks it the same way before appending. A crash can therefore lose the
// records of the calls in flight (or keep an intact prefix of them), but
// never damages records written before. LoadVectorsReport (the optional
// embed/cache.DamageReporter) also returns how many records a load
// dropped, so that a server can say so and embed them again.
//
// Operations on one model's file are serialised by a mutex within the
// Store, and across processes (and Stores) by an exclusive flock on
// <model>.vec.lock, held while the file is read or written, never while
// LoadVectors calls its callback. So a CLI and a server may both embed
// into the same folder. The lock files stay; they are empty. Temp files a
// crash leaves in the cache folder are removed by Open like those of entries.
//
// # Caveats
//
//   - On a case-insensitive file system (the macOS and Windows defaults),
//     Get of a name in another case finds the file all the same; the key
//     Get returns is the one asked for, not the file's spelling. Put
//     refuses to create such a twin (see Names).
//   - A markdown file that begins with a "---" line (a thematic break) and
//     has another "---" line later is read as front matter. Start such
//     content with "***" instead, or let Put write it: Put adds a front
//     matter block in front of it.
//   - Front matter is limited to 256 KiB; Put rejects metadata that does not
//     fit, tags or extra keys that are not valid UTF-8, and extra keys named
//     tags, created or updated (a *store.FieldError for "meta").
//   - Put keeps the permission bits of the file it replaces; a new file gets
//     0666 less the umask. A Put whose entry file name is taken by a folder
//     (a folder a/b.md/ for entry a:b) fails with an error wrapping
//     ErrMalformed naming the folder; so does a Put below a plain file that
//     sits where a category folder belongs.
//   - Timestamps that Put sets itself are in UTC, to the second; times the
//     caller gives are written at full precision in their own offset.
//   - Windows is not tested: there, folders are not fsynced and a rename
//     over a file another program holds open may fail. Vector files are
//     locked only within the process there (no flock): two processes must
//     not write the same model's vectors at once.
//   - The persisted index trusts a file whose stamp is unchanged. Outside
//     Linux a stamp is the size and the modification time only, so an edit
//     that keeps the size and puts the modification time back (touch -r)
//     is not seen by a process that starts from the copy; delete the
//     copy (or run recall reindex) after such an edit. On Linux
//     the change time, which no one but the kernel sets, gives it away,
//     and stamps are used only on local file systems (ext2/3/4, XFS,
//     Btrfs, F2FS, ZFS, bcachefs, tmpfs, overlayfs): on NFS or SMB, whose
//     lstat may answer from attributes cached for up to a minute, every
//     start reads every note. Outside Linux the file system is not
//     checked: there, keep the copy off network shares by running
//     recall reindex after another machine's edits.
//     The copy takes about the size of the notes' text again (118 MB for
//     100k notes of 120 words).
//   - Watching compares sizes and modification times. On a file system
//     with coarse timestamps (FAT: 2 s), an outside rewrite that keeps the
//     size, made in the same tick as this Store's own write of that file,
//     goes unnoticed until the file changes again. On macOS (kqueue) events
//     cost one open file per entry file; where watches cannot be added, the
//     scan alone notices changes.
package fs
