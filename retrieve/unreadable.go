package retrieve

import (
	"errors"

	"github.com/recallhq/recall/store"
)

// entryKeyed is an error about one stored entry that names it by its
// identity as the store holds it (what its change feed names): a
// PostgreSQL row over the bounds, say. The engine counts unreadable
// entries by it, so the count follows such an entry being fixed or
// removed behind its back; errors without it are counted until the next
// full build.
type entryKeyed interface{ EntryKey() store.Key }

// unreadableSet is what the last full build and the change sets applied
// since could not read. It is guarded by the publish lock; count is what
// Unreadable reads without it.
type unreadableSet struct {
	keys    map[store.Key]struct{}
	unkeyed int
}

// reset takes the errors of a full build.
func (e *Engine) resetUnreadable(skipped []error) {
	u := &e.bad
	u.keys, u.unkeyed = map[store.Key]struct{}{}, 0
	for _, err := range skipped {
		var k entryKeyed
		if errors.As(err, &k) {
			u.keys[k.EntryKey()] = struct{}{}
		} else {
			u.unkeyed++
		}
	}
	e.badCount.Store(int64(len(u.keys) + u.unkeyed))
}

// noteRead records what a re-read of key found: err wrapping
// store.ErrUnreadable counts it, anything else (read, gone) does not.
func (e *Engine) noteRead(key store.Key, err error) {
	u := &e.bad
	if u.keys == nil {
		u.keys = map[store.Key]struct{}{}
	}
	if err != nil && errors.Is(err, store.ErrUnreadable) {
		u.keys[key] = struct{}{}
	} else {
		delete(u.keys, key)
	}
	e.badCount.Store(int64(len(u.keys) + u.unkeyed))
}

// Unreadable is the number of entries the index lacks because the store
// could not read them: those the last full build skipped, kept up to date
// by the change sets applied since for entries whose errors name them
// (store/postgres rows), so that a running server's count follows rows
// fixed or removed behind its back. It is 0 before the first build.
func (e *Engine) Unreadable() int { return int(e.badCount.Load()) }
