package bolt

import (
	"context"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

// The change feed (store.ChangeFeed). A bolt file has one process at a
// time, so the feed is the in-memory store.ChangeLog of that process: every
// entry write records its key there once its transaction has committed,
// and Revision reads the revision from it, so a revision and its keys
// become visible together. The log is bounded (Options.ChangeLogSize). A
// reader further behind, or one whose revision comes from before this Open
// (the log starts empty), is answered from the file's change history
// (history.go, written in each write's transaction) when it covers that
// revision, and gets Reset, to rebuild from All, when it does not.

// Changes reports the keys written after revision since (store.ChangeFeed).
func (s *Store) Changes(ctx context.Context, since uint64) (store.ChangeSet, error) {
	var cs store.ChangeSet
	err := s.use(ctx, "changes", func() error {
		if cs = s.feed.Changes(since); !cs.Reset || since > cs.Rev {
			return nil
		}
		// Older than this process's log: the file's history may cover it.
		// wmu holds writers off, so the file's revision is the feed's.
		s.wmu.Lock()
		defer s.wmu.Unlock()
		return s.db.View(func(tx *bbolt.Tx) error {
			if h, ok := historyChanges(tx, since, tx.Bucket(bucketMeta).Sequence()); ok {
				cs = h
			}
			return nil
		})
	})
	return cs, err
}

// Subscribe returns a channel that receives a value after each write, and
// once when the store is closed (store.ChangeFeed).
func (s *Store) Subscribe() (<-chan struct{}, func()) { return s.feed.Subscribe() }

func fileRevision(db *bbolt.DB) (uint64, error) {
	var r uint64
	err := db.View(func(tx *bbolt.Tx) error {
		r = tx.Bucket(bucketMeta).Sequence()
		return nil
	})
	return r, err
}
