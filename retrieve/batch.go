package retrieve

import (
	"context"

	"github.com/recallhq/recall/store"
)

// PutBatch writes many entries at once, for bulk import: through the
// store's store.Batcher when it has one (one transaction per many entries,
// one folder sync per batch), else one Put each. Like Put, it returns once
// the next retrieve sees every entry of the batch: when the engine already
// has an index, it brings it to the store's revision with one rebuild
// (Fresh), which for a bulk import costs less than patching the overlay
// entry by entry. Before the first retrieve there is no index to update.
//
// Hook for engine.go: this file uses only Fresh and the snapshot pointer;
// an engine with a cheaper catch-up (a change feed) can replace the Fresh
// call without changing PutBatch's contract.
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
