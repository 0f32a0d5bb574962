package cache

import (
	"context"
	"testing"
)

// damagedBackend is a memBackend whose loads report dropped records, as
// store/fs, store/bolt and store/postgres do after finding damage.
type damagedBackend struct {
	*memBackend
	dropped int
}

func (b *damagedBackend) LoadVectorsReport(ctx context.Context, model string, fn func(string, []float32) error) (int, error) {
	return b.dropped, b.LoadVectors(ctx, model, fn)
}

// A load that drops damaged records is reported, once, with the model and
// the count; a Sync then embeds the texts that lost their vector.
func TestLoadReportsDroppedRecords(t *testing.T) {
	emb := newCounting("m1")
	be := &damagedBackend{memBackend: newMemBackend(), dropped: 2}
	texts := []string{"a", "bb", "ccc"}
	// Only "a" survived the damage.
	first := New(newCounting("m1"), be.memBackend, Options{})
	if _, err := first.Embed(ctx, texts[:1]); err != nil {
		t.Fatal(err)
	}

	c := New(emb, be, Options{})
	type report struct {
		model string
		n     int
	}
	var got []report
	c.OnDropped(func(model string, n int) { got = append(got, report{model, n}) })
	if err := c.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Load(ctx); err != nil { // loads once: reported once
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != (report{"m1", 2}) {
		t.Fatalf("OnDropped got %v, want one report of 2 records for m1", got)
	}
	st, err := c.Sync(ctx, texts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Cached != 1 || st.Embedded != 2 {
		t.Fatalf("Sync after the damage: %+v, want 1 cached and 2 embedded", st)
	}
}

// Without damage, or without a hook, nothing is reported and nothing fails.
func TestLoadNoDamageNoReport(t *testing.T) {
	be := &damagedBackend{memBackend: newMemBackend()}
	c := New(newCounting("m1"), be, Options{})
	called := false
	c.OnDropped(func(string, int) { called = true })
	if err := c.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if called {
		t.Fatal("OnDropped called for a load that dropped nothing")
	}
	be.dropped = 3
	c2 := New(newCounting("m1"), be, Options{})
	if err := c2.Load(ctx); err != nil {
		t.Fatal(err)
	}
}
