package retrieve

import (
	"context"

	"github.com/recallhq/recall/store"
)

// PutBatch writes many entries at once, for bulk import: through the
// store's store.Batcher when it has one (one transaction per many entries,
// one folder sync per batch), else one Put each. Like Put, it returns once
// the next retrieve sees every entry of the batch: when the engine already
// has an index, it brings it up to date (Fresh: one catch-up of the
// batch's keys through the store's change feed, else a rebuild). The
// batch is written unmarked (not store.CallerPublishes), so retrieves wait
// for it as for a direct store write. Before the first retrieve there is
// no index to update.
func (e *Engine) PutBatch(ctx context.Context, entries []store.Entry) error {
	b, ok := e.st.(store.Batcher)
	if !ok {
		for _, ent := range entries {
			if err := e.Put(ctx, ent); err != nil {
				return err
			}
		}
		return nil
	}
	if err := b.PutBatch(ctx, entries); err != nil {
		return err
	}
	if e.snap.Load() == nil {
		return nil
	}
	_, err := e.Fresh(ctx)
	return err
}
