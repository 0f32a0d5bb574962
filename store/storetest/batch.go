package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// RunBatcher checks the store.Batcher contract against stores made by
// open, which must implement it: every entry lands as Put would write it,
// the revision moves past the batch, the last of repeated identities
// wins, and an invalid entry anywhere means nothing is written.
func RunBatcher(t *testing.T, open Open) {
	t.Helper()
	batcher := func(t *testing.T) (store.Store, store.Batcher) {
		s := open(t)
		b, ok := s.(store.Batcher)
		if !ok {
			t.Fatalf("%T does not implement store.Batcher", s)
		}
		return s, b
	}
	t.Run("Lands", func(t *testing.T) {
		s, b := batcher(t)
		defer s.Close()
		created := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
		mustPut(t, s, store.Entry{Category: "keep", Name: "old", Content: "before", Meta: store.Meta{Created: created}})
		r0 := rev(t, s)
		var es []store.Entry
		for i := range 300 {
			es = append(es, store.Entry{Category: fmt.Sprintf("c%d", i%7), Name: fmt.Sprintf("n%03d", i), Content: fmt.Sprintf("content %d 海边", i)})
		}
		es = append(es, store.Entry{Category: "keep", Name: "old", Content: "after"})
		es = append(es, store.Entry{Category: "c0", Name: "n000", Content: "second write wins"})
		if err := b.PutBatch(ctx, es); err != nil {
			t.Fatal(err)
		}
		if r := rev(t, s); r <= r0 {
			t.Errorf("revision %d after the batch, %d before", r, r0)
		}
		got := collect(t, s)
		if len(got) != 301 {
			t.Errorf("%d entries, want 301", len(got))
		}
		for i := 1; i < 300; i++ {
			k := store.Key{Category: fmt.Sprintf("c%d", i%7), Name: fmt.Sprintf("n%03d", i)}
			if e := got[k]; e.Content != fmt.Sprintf("content %d 海边", i) || e.Meta.Created.IsZero() || e.Meta.Updated.IsZero() {
				t.Fatalf("%s = %+v", k, e)
			}
		}
		if e := got[store.Key{Category: "c0", Name: "n000"}]; e.Content != "second write wins" {
			t.Errorf("repeated identity holds %q", e.Content)
		}
		old := got[store.Key{Category: "keep", Name: "old"}]
		if old.Content != "after" || !old.Meta.Created.Equal(created) {
			t.Errorf("upsert: %q created %v, want %q created %v", old.Content, old.Meta.Created, "after", created)
		}
	})
	t.Run("InvalidWritesNothing", func(t *testing.T) {
		s, b := batcher(t)
		defer s.Close()
		r0 := rev(t, s)
		es := []store.Entry{
			{Category: "a", Name: "fine", Content: "x"},
			{Category: "a", Name: "bad/name", Content: "x"},
		}
		err := b.PutBatch(ctx, es)
		if !errors.Is(err, store.ErrInvalid) {
			t.Fatalf("err = %v, want ErrInvalid", err)
		}
		if r := rev(t, s); r != r0 {
			t.Errorf("revision moved from %d to %d", r0, r)
		}
		if n := len(collect(t, s)); n != 0 {
			t.Errorf("%d entries written", n)
		}
	})
	t.Run("Empty", func(t *testing.T) {
		s, b := batcher(t)
		defer s.Close()
		if err := b.PutBatch(ctx, nil); err != nil {
			t.Fatal(err)
		}
	})
}
