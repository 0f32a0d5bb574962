package service

import (
	"context"

	"github.com/recallhq/recall/store"
)

// update applies fn to the entry as one atomic step (store.Store.Update,
// through the engine, so the index is patched before it returns) and
// reports whether the entry was new. fn may run several times and must
// have no side effects beyond its result (and idempotent captures).
func (m *Memory) update(ctx context.Context, category, name string, fn func(old store.Entry, found bool) (store.Entry, error)) (added bool, err error) {
	err = m.eng.Update(ctx, category, name, func(old store.Entry, found bool) (store.Entry, error) {
		e, err := fn(old, found)
		added = !found && err == nil
		return e, err
	})
	return added && err == nil, err
}
