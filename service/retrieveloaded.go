package service

import (
	"context"

	"github.com/recallhq/recall/retrieve"
)

// RetrieveLoaded answers p as a one-shot process does (`recall
// retrieve`): it loads the index first rather than lazily, so that what
// the store could not read is said through skipped, as one line
// (SkipSummary), instead of being left out silently; then it answers as
// Retrieve. Loading takes the store's persisted copy when it is current
// (a bolt file's, or a folder's for the files whose stamps it matches).
// skipped is not called when nothing was skipped. The caller closes the
// engine (m.Engine().Close) when done, which waits for the copy a build
// saves for the next run: after writing the answer, so that the answer
// does not wait for it.
func (m *Memory) RetrieveLoaded(ctx context.Context, p RetrieveParams, skipped func(msg string)) (*retrieve.Result, retrieve.Request, error) {
	stats, err := m.Engine().Load(ctx)
	if err != nil {
		return nil, retrieve.Request{}, err
	}
	if msg := SkipSummary(stats.Skipped); msg != "" && skipped != nil {
		skipped(msg)
	}
	return m.Retrieve(ctx, p)
}
