package store

import (
	"context"
	"errors"
	"iter"
	"time"
)

// Sentinel errors. Backends wrap them with context; callers test with errors.Is.
var (
	// ErrNotFound is returned by Get and Delete when no entry has the identity.
	ErrNotFound = errors.New("entry not found")
	// ErrInvalid is wrapped by every validation failure (see *FieldError).
	ErrInvalid = errors.New("invalid entry")
	// ErrLocked is returned by Open when another process holds the store.
	ErrLocked = errors.New("store is locked by another process")
	// ErrClosed is returned by every method called after Close.
	ErrClosed = errors.New("store is closed")
	// ErrNoChange, returned by the function given to Update, asks Update to
	// write nothing; Update then returns nil.
	ErrNoChange = errors.New("no change")
	// ErrCorrupt is wrapped by errors about stored data that failed a
	// check: an entry whose checksum does not match, a store file whose
	// structure is damaged. The message names the entry or the file. A
	// damaged entry is reported, never served.
	ErrCorrupt = errors.New("damaged")
	// ErrUnreadable is wrapped by every error a backend yields for one
	// stored entry it cannot read or will not serve: a folder store's file
	// with broken front matter, a bolt record that fails its checksum, a
	// PostgreSQL row whose metadata does not decode. It concerns that entry
	// alone, not the store as a whole: a consumer skips the entry, counts
	// it, and keeps going. Such an error may wrap ErrCorrupt as well.
	ErrUnreadable = errors.New("unreadable entry")
	// ErrUnavailable is wrapped by errors of a store that cannot be reached
	// at all (a folder store whose root was removed or unmounted, a
	// database that does not answer), as opposed to one that is reachable
	// and empty. Servers answer 503 for it.
	ErrUnavailable = errors.New("store is unavailable")
)

// Entry is one memory. (Category, Name) is its identity; Put of an existing
// identity replaces it. Name is one segment; Category is one to
// MaxCategoryDepth segments joined by '/', a hierarchy ("projects/harbor").
// Both are compared exactly, in Unicode NFC (see Validate, Normalize).
type Entry struct {
	Category string
	Name     string
	Content  string
	Meta     Meta
}

// Key returns the entry's identity.
func (e Entry) Key() Key { return Key{Category: e.Category, Name: e.Name} }

// Meta is optional metadata. Zero values mean "absent". Backends set
// Created on first Put (when the caller left it zero) and Updated on every
// Put (when the caller left it zero), so a round trip through Put and Get
// yields timestamps even if none were given.
type Meta struct {
	Tags    []string
	Created time.Time
	Updated time.Time
	// Date is when the thing the entry records happened (an event date),
	// as opposed to when it was written (Created, Updated); zero when the
	// entry carries none. Backends store it as given and never stamp it.
	// A date without a time of day (front matter "date: 2024-05-03", a
	// JSONL "2024-05-03") is midnight UTC of that day; see EffectiveDate.
	Date time.Time
	// Extra holds metadata keys recall does not interpret (for example keys a
	// user wrote into a markdown file's front matter). Backends keep them.
	Extra map[string]any
}

// UnparsedFrontMatter is the Meta.Extra key under which a folder store
// (and an import of a folder) keeps a note's front matter that does not
// parse as YAML, verbatim, delimiter lines included: the note is read, its
// body is its content, and it has no tags, times or other keys. A write
// through recall that keeps this value keeps the block byte for byte.
const UnparsedFrontMatter = "unparsed_front_matter"

// IsZero reports whether m carries no metadata at all.
func (m Meta) IsZero() bool {
	return len(m.Tags) == 0 && m.Created.IsZero() && m.Updated.IsZero() && m.Date.IsZero() && len(m.Extra) == 0
}

// Key is an entry's identity.
type Key struct {
	Category string
	Name     string
}

// String renders the key the way wiki-links write it: "category:name".
func (k Key) String() string { return k.Category + ":" + k.Name }

// Store is the contract every backend implements.
//
// Concurrency: all methods are safe for concurrent use by multiple
// goroutines. A Get never observes a partially written entry: it sees the
// entry either before or after a concurrent Put.
//
// Names: every method normalises the category and name it is given to NFC
// (NormalizeKey) and yields NFC identities. Put and Update check entries
// with Validate; Get and Delete accept any identity that passes
// ValidateKey, so entries written under older, looser rules stay readable.
//
// Errors: Get and Delete wrap ErrNotFound for a missing identity; Put
// wraps ErrInvalid (as a *FieldError) for an entry that breaks the rules of
// Validate, and writes nothing in that case. Stored data that fails a check
// is reported with an error wrapping ErrCorrupt, never served (one such
// entry also wraps ErrUnreadable: see below); a store that
// cannot be reached at all reports ErrUnavailable rather than looking
// empty. Every method returns an error wrapping ErrClosed after Close.
//
// Damaged entries: an entry the backend cannot read or will not serve (a
// file whose front matter does not parse, a record that fails its
// checksum, a row recall would not have written) is reported by Get and
// Update with an error wrapping ErrUnreadable, and by All as one error
// item; it is never served. Update does not call its function for it and
// writes nothing. Put over it replaces it, as a new entry (what it held
// cannot be read, so nothing of it is kept), and Delete removes it. Every
// backend behaves so (storetest.RunDamaged checks it): writing the entry
// again is how a user repairs the damage, and refusing that Put would
// leave a delete-then-add as the only way out, with nothing gained, since
// the damaged bytes are unreadable to recall either way.
//
// Revision: a counter that increases on every successful write (Put,
// Delete, an Update that wrote, a batch) and
// never on a read. It is the only signal indexes use to know they are stale.
// It need not increase by exactly one, and it is not comparable between two
// different stores.
type Store interface {
	// Get returns the entry with the identity.
	Get(ctx context.Context, category, name string) (Entry, error)
	// Put validates e and inserts it, or replaces the entry with its identity.
	Put(ctx context.Context, e Entry) error
	// Delete removes the entry with the identity.
	Delete(ctx context.Context, category, name string) error
	// Update reads the entry with the identity and replaces it with what fn
	// returns, as one atomic step: no other write to that identity, by this
	// process or (for backends several processes share) by another, lands
	// between the read and the write. fn gets the current entry and whether
	// it exists (when it does not, old holds only the identity). Its result
	// must have the same identity; it is validated as Put validates and
	// written as Put writes (zero timestamps are stamped the same way).
	// If fn returns an error, nothing is written and Update returns it;
	// ErrNoChange is the way for fn to say "leave it as it is", and then
	// Update writes nothing and returns nil. fn may be called more than once
	// by backends that retry on conflict, so it must have no side effects
	// beyond its result.
	Update(ctx context.Context, category, name string, fn func(old Entry, found bool) (Entry, error)) error
	// All yields every entry exactly once, in no particular order. A non-nil
	// error in the sequence concerns one item (for example a file that cannot
	// be parsed) or the iteration as a whole; a consumer may skip the item
	// and keep going. Entries written during the iteration may or may not be
	// yielded. The loop body may call other Store methods.
	All(ctx context.Context) iter.Seq2[Entry, error]
	// Revision returns the current revision.
	Revision(ctx context.Context) (uint64, error)
	// Close releases the store. Further calls fail with ErrClosed.
	Close() error
}
