package bolt

import (
	"context"
	"errors"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

// Group commit. A bbolt write transaction admits one writer and syncs the
// file twice when it commits (the pages, then the meta page), a few
// milliseconds each on a disk. A server taking many small writes would
// spend most of its time queued behind those syncs, one transaction per
// write, so Put, Delete and Update commit in groups: each call queues its
// write; whoever holds the writer slot (wmu) next takes every write queued
// by then (up to the group's bounds) into one transaction, commits it and
// its change-history record with one pair of syncs, and tells each caller
// its result. The rest of the callers that queued meanwhile form the next
// group. No acknowledged write is weakened: a call returns only after the
// transaction holding its write has committed (and synced, unless
// Options.NoSync), and each write still bumps the revision by one, so a
// group of k writes moves it by k with one history record naming the k
// keys (as a PutBatch transaction does).
//
// A write that fails inside a group (Delete of a missing entry, an entry
// bbolt refuses, an Update whose function returns an error or panics)
// leaves no trace: the group's transaction is rolled back and run again
// without it, so the others commit as if it had never been queued, and it
// fails alone with its own error. Update joins groups too: its
// read-modify-write runs inside the group's transaction, in queue order,
// so it sees every write queued before it (of its group or an earlier
// one) and none after. A write that moves no revision (an Update whose
// function returned store.ErrNoChange) adds no key to the history record.
// PutBatch commits alone: it is a group by itself.

// Bounds of one group: a transaction holds its dirty pages in memory until
// it commits.
const (
	groupWrites = 1024
	groupBytes  = batchTxBytes
)

// request is one write waiting for, or done by, a group commit. done and
// err are set by the goroutine that committed it, under wmu.
type request struct {
	fn   func(tx *bbolt.Tx) error
	keys []store.Key
	size int              // bytes the write adds, for the group's bound
	by   *store.Publisher // store.CallerPublishes: acknowledged to all but it
	done bool
	err  error
}

// errRequest rolls a group's transaction back after one of its writes
// failed; the group runs again without it.
var errRequest = errors.New("a write of the group failed")

// errNothing rolls back a group's transaction that wrote nothing.
var errNothing = errors.New("nothing written")

// commit queues a write of key (fn, run in the group's transaction, bumps
// the revision when it writes; its error rolls the group back and fails it
// alone) and returns once a group holding it has committed, or with its
// own error. ctx says whether its caller publishes it (CallerPublishes).
func (s *Store) commit(ctx context.Context, fn func(tx *bbolt.Tx) error, key store.Key, size int) error {
	r := &request{fn: fn, keys: []store.Key{key}, size: size, by: store.PublisherOf(ctx)}
	s.qmu.Lock()
	s.queue = append(s.queue, r)
	s.qmu.Unlock()
	s.wmu.Lock()
	defer s.wmu.Unlock()
	// A request still undone when its caller holds wmu is still queued:
	// groups are taken and committed under wmu.
	for !r.done {
		s.commitGroup(s.takeGroup())
	}
	return r.err
}

// takeGroup removes the oldest queued writes, up to the group's bounds
// (at least one), from the queue.
func (s *Store) takeGroup() []*request {
	s.qmu.Lock()
	defer s.qmu.Unlock()
	n, size := 0, 0
	for n < len(s.queue) && n < groupWrites && (n == 0 || size+s.queue[n].size <= groupBytes) {
		size += s.queue[n].size
		n++
	}
	g := s.queue[:n:n]
	if s.queue = s.queue[n:]; len(s.queue) == 0 {
		s.queue = nil
	}
	return g
}

// write runs fn in a write transaction of its own and, when it commits
// having moved the revision, records keys in the feed at the new
// revision: the way PutBatch writes (a batch with all its keys).
func (s *Store) write(ctx context.Context, fn func(tx *bbolt.Tx) error, keys ...store.Key) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	r := &request{fn: fn, keys: keys, by: store.PublisherOf(ctx)}
	s.commitGroup([]*request{r})
	return r.err
}

// commitGroup commits the writes of g in one transaction, with their
// history record, records them in the feed, and marks each done. The
// caller holds wmu. wmu also makes the feed's records come in revision
// order: bbolt runs commit handlers after releasing its writer lock, so
// two writers could otherwise record out of order.
func (s *Store) commitGroup(g []*request) {
	defer func() {
		if p := recover(); p != nil {
			// bbolt panicked on a damaged file (an Update's function
			// panicking fails that Update alone, see Update): every write
			// of the group failed with it; the panic goes on to the
			// committing caller's guard.
			for _, r := range g {
				if !r.done {
					r.done, r.err = true, &panicError{v: p}
				}
			}
			panic(p)
		}
	}()
	live := g
	for len(live) > 0 {
		var (
			before, after uint64
			keys          []store.Key
			by            *store.Publisher // of every write of the group, else nil
			wrote         bool
			failed        = -1
		)
		err := s.db.Update(func(tx *bbolt.Tx) error {
			meta := tx.Bucket(bucketMeta)
			before = meta.Sequence()
			for i, r := range live {
				at := meta.Sequence()
				if err := r.fn(tx); err != nil {
					failed, r.err = i, err
					return errRequest
				}
				if meta.Sequence() != at {
					keys = append(keys, r.keys...)
					if !wrote {
						by, wrote = r.by, true
					} else if r.by != by {
						by = nil
					}
				}
			}
			after = meta.Sequence()
			if after == before {
				// Nothing written (Updates that asked for no change): roll
				// back rather than commit, and sync, an empty transaction.
				return errNothing
			}
			return logChanges(tx, before, after, keys, s.history)
		})
		if err == errNothing {
			err = nil
		}
		if failed >= 0 {
			live[failed].done = true
			live = append(live[:failed:failed], live[failed+1:]...)
			continue
		}
		for _, r := range live {
			r.done, r.err = true, err
		}
		if err == nil && after != before {
			s.record(before, after, keys, by)
		}
		return
	}
}

// record enters a committed transaction that moved the revision from
// before to after, writing keys, into the feed: as written by Publisher by
// when every write of it was (store.AckRevisioner), else by nil.
func (s *Store) record(before, after uint64, keys []store.Key, by *store.Publisher) {
	if before != s.feed.Rev() {
		// The revision moved by a write that did not come through here:
		// what it wrote is unknown, so readers behind it must rebuild.
		s.feed.Record(before)
		s.feed.LostTrack()
	}
	s.feed.RecordBy(after, by, keys...)
}
