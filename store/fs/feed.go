package fs

import (
	"context"

	"github.com/recallhq/recall/store"
)

var (
	_ store.ChangeFeed  = (*Store)(nil)
	_ store.VectorCache = (*Store)(nil)
)

// The change feed (store.ChangeFeed). The Store keeps an in-memory
// store.ChangeLog: each write through it records its key as it raises the
// revision, and a running Watch records the entries that others changed
// (one revision per burst), or, when it lost events, that readers must
// rebuild. The log is bounded (Options.ChangeLogSize). The revision lives
// in the process and starts at zero, so a reader that indexed the folder
// through another Store (or before a restart) is at a revision this one
// either has not reached or cannot account for: both are Reset.

// Changes reports the entries written after revision since.
func (s *Store) Changes(ctx context.Context, since uint64) (store.ChangeSet, error) {
	if err := s.check(ctx, "changes"); err != nil {
		return store.ChangeSet{}, err
	}
	return s.feed.Changes(since), nil
}

// Subscribe returns a channel that receives a value after each write
// through the Store, each burst the watch reports, and once on Close.
func (s *Store) Subscribe() (<-chan struct{}, func()) { return s.feed.Subscribe() }
