package cache

import (
	"context"
	"testing"
)

// gatedEmbedder embeds like countingEmbedder but holds a call that
// includes the text gate until release is closed, after saying so on
// entered.
type gatedEmbedder struct {
	*countingEmbedder
	gate    string
	entered chan struct{}
	release chan struct{}
}

func (e *gatedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	for _, t := range texts {
		if t == e.gate {
			close(e.entered)
			<-e.release
		}
	}
	return e.countingEmbedder.Embed(ctx, texts)
}

// Issue 8, case 5: a vector filled in the background while a Sync runs
// (an entry added during a server's start-up) survives the Sync's prune,
// which may only drop vectors that were there, unwanted, when it began.
func TestSyncKeepsVectorsAddedDuringIt(t *testing.T) {
	be := newMemBackend()
	emb := &gatedEmbedder{countingEmbedder: newCounting("m"), gate: "old entry",
		entered: make(chan struct{}), release: make(chan struct{})}
	// A vector whose entry is gone: the Sync must prune it.
	seed := New(newCounting("m"), be, Options{})
	if _, err := seed.Embed(ctx, []string{"deleted entry"}); err != nil {
		t.Fatal(err)
	}

	c := New(emb, be, Options{})
	done := make(chan error, 1)
	var st SyncStats
	go func() {
		var err error
		st, err = c.Sync(ctx, []string{"old entry"}, nil)
		done <- err
	}()
	<-emb.entered // the Sync is embedding what it was given
	// Meanwhile an entry is added and its vector filled in the background.
	if _, err := c.Embed(ctx, []string{"new entry"}); err != nil {
		t.Fatal(err)
	}
	close(emb.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(Key("new entry")); !ok {
		t.Error("the Sync pruned the vector of an entry added while it ran (memory)")
	}
	var onDisk bool
	_ = be.LoadVectors(ctx, "m", func(k string, _ []float32) error {
		onDisk = onDisk || k == Key("new entry")
		return nil
	})
	if !onDisk {
		t.Error("the Sync pruned the vector of an entry added while it ran (backend)")
	}
	if _, ok := c.Get(Key("deleted entry")); ok || st.Pruned != 1 {
		t.Errorf("the vector of a deleted entry: still cached %v, pruned %d; want pruned", ok, st.Pruned)
	}
}
