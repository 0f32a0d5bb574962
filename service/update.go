package service

import (
	"context"
	"errors"

	"github.com/recallhq/recall/store"
)

// How a write that keeps part of the old entry reaches the store and the
// index at once.
//
// The store's Update makes the read-modify-write atomic; the engine's Put
// patches the index with the entry it was given instead of rebuilding it.
// The Memory gets both by handing the engine a store whose Put, when the
// context carries a pending update, runs that update through Update. The
// engine indexes the content it was given, so the update must produce
// exactly that content: when a concurrent write changed the content
// between the Memory's first read and the Update (an append racing an
// edit), the Update writes nothing and the Memory reads again and retries.
// Metadata, which the index does not hold, is always merged inside the
// Update, so a tag change racing a content change is never lost.

// maxAttempts bounds the retries of an update whose content raced.
const maxAttempts = 8

// errConflict says the content changed between the first read and the
// Update; nothing was written.
var errConflict = errors.New("entry changed concurrently")

type updateKey struct{}

// pendingUpdate is the update a Put through updatingStore carries out.
type pendingUpdate struct {
	fn    func(old store.Entry, found bool) (store.Entry, error)
	found bool // whether the entry existed when the Update ran
}

// updatingStore is the store the engine writes through.
type updatingStore struct{ store.Store }

func (s updatingStore) Put(ctx context.Context, e store.Entry) error {
	u, ok := ctx.Value(updateKey{}).(*pendingUpdate)
	if !ok {
		return s.Store.Put(ctx, e)
	}
	return s.Store.Update(ctx, e.Category, e.Name, func(old store.Entry, found bool) (store.Entry, error) {
		r, err := u.fn(old, found)
		if err != nil {
			return r, err
		}
		if r.Content != e.Content {
			return r, errConflict
		}
		u.found = found
		return r, nil
	})
}

// feedStore keeps the change feed of a store visible to the engine.
type feedStore struct {
	updatingStore
	feed store.ChangeFeed
}

func (s feedStore) Changes(ctx context.Context, since uint64) (store.ChangeSet, error) {
	return s.feed.Changes(ctx, since)
}

func (s feedStore) Subscribe() (<-chan struct{}, func()) { return s.feed.Subscribe() }

var _ store.ChangeFeed = feedStore{}

func wrapStore(st store.Store) store.Store {
	u := updatingStore{st}
	if f, ok := st.(store.ChangeFeed); ok {
		return feedStore{u, f}
	}
	return u
}

// update applies fn to the entry atomically (see above) and reports
// whether the entry was new. fn may run several times and must have no
// side effects beyond its result (and idempotent captures).
func (m *Memory) update(ctx context.Context, category, name string, fn func(old store.Entry, found bool) (store.Entry, error)) (added bool, err error) {
	for attempt := 1; ; attempt++ {
		old, err := m.st.Get(ctx, category, name)
		found := err == nil
		switch {
		case errors.Is(err, store.ErrNotFound):
			old = store.Entry{Category: category, Name: name}
		case err != nil:
			return false, err
		}
		e, err := fn(old, found)
		if err != nil {
			return false, err
		}
		u := &pendingUpdate{fn: fn}
		err = m.eng.Put(context.WithValue(ctx, updateKey{}, u), e)
		if !errors.Is(err, errConflict) {
			return err == nil && !u.found, err
		}
		if attempt == maxAttempts {
			// Still racing: write through the store alone. The engine sees
			// the revision move and catches up as for an outside write.
			u.found = true
			err = m.st.Update(ctx, category, name, func(old store.Entry, found bool) (store.Entry, error) {
				u.found = found
				return fn(old, found)
			})
			return err == nil && !u.found, err
		}
	}
}
