package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// Damage breaks the stored entry k of s behind the store's back (a file's
// front matter, a record's checksum, a row's metadata), so that reading
// it fails with an error wrapping store.ErrUnreadable.
type Damage func(t *testing.T, s store.Store, k store.Key)

// RunDamaged checks the rule of store.Store for a damaged entry, the same
// on every backend: Get and Update report it with an error wrapping
// store.ErrUnreadable (Update writes nothing and does not move the
// revision), All yields one error item for it and every other entry, Put
// over it replaces it (as a new entry, its old metadata unreadable), and
// Delete removes it.
func RunDamaged(t *testing.T, open Open, damage Damage) {
	t.Helper()
	bad := store.Key{Category: "c", Name: "bad"}
	setup := func(t *testing.T) store.Store {
		s := open(t)
		t.Cleanup(func() { s.Close() })
		mustPut(t, s, store.Entry{Category: "c", Name: "ok", Content: "fine"})
		mustPut(t, s, store.Entry{Category: bad.Category, Name: bad.Name, Content: "original",
			Meta: store.Meta{Tags: []string{"old"}, Created: time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)}})
		damage(t, s, bad)
		return s
	}
	t.Run("Reported", func(t *testing.T) {
		s := setup(t)
		if e, err := s.Get(ctx, bad.Category, bad.Name); !errors.Is(err, store.ErrUnreadable) {
			t.Errorf("Get of the damaged entry = %+v, %v; want an error wrapping ErrUnreadable", e, err)
		}
		var good, damaged int
		for e, err := range s.All(ctx) {
			switch {
			case err == nil && e.Key() == (store.Key{Category: "c", Name: "ok"}):
				good++
			case errors.Is(err, store.ErrUnreadable):
				damaged++
			default:
				t.Errorf("All yielded %+v, %v", e, err)
			}
		}
		if good != 1 || damaged != 1 {
			t.Errorf("All yielded %d good entries and %d damaged; want 1 and 1", good, damaged)
		}
		before := rev(t, s)
		err := s.Update(ctx, bad.Category, bad.Name, func(old store.Entry, found bool) (store.Entry, error) {
			return store.Entry{Category: bad.Category, Name: bad.Name, Content: "from update"}, nil
		})
		if !errors.Is(err, store.ErrUnreadable) {
			t.Errorf("Update of the damaged entry = %v, want an error wrapping ErrUnreadable", err)
		}
		if r := rev(t, s); r != before {
			t.Errorf("a refused Update moved the revision from %d to %d", before, r)
		}
		if _, err := s.Get(ctx, bad.Category, bad.Name); !errors.Is(err, store.ErrUnreadable) {
			t.Errorf("after a refused Update, Get = %v; want the entry still damaged", err)
		}
	})
	t.Run("PutReplaces", func(t *testing.T) {
		s := setup(t)
		before := rev(t, s)
		mustPut(t, s, store.Entry{Category: bad.Category, Name: bad.Name, Content: "repaired", Meta: store.Meta{Tags: []string{"new"}}})
		if r := rev(t, s); r <= before {
			t.Errorf("Put over the damaged entry left the revision at %d", r)
		}
		e, err := s.Get(ctx, bad.Category, bad.Name)
		if err != nil || e.Content != "repaired" || len(e.Meta.Tags) != 1 || e.Meta.Tags[0] != "new" || e.Meta.Created.IsZero() {
			t.Errorf("after Put over the damaged entry, Get = %+v, %v", e, err)
		}
		// Update works again once the entry reads.
		if err := s.Update(ctx, bad.Category, bad.Name, func(old store.Entry, found bool) (store.Entry, error) {
			old.Content += " twice"
			return old, nil
		}); err != nil {
			t.Errorf("Update after the repair: %v", err)
		}
	})
	t.Run("Delete", func(t *testing.T) {
		s := setup(t)
		if err := s.Delete(ctx, bad.Category, bad.Name); err != nil {
			t.Fatalf("Delete of the damaged entry: %v", err)
		}
		if _, err := s.Get(ctx, bad.Category, bad.Name); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("after Delete, Get = %v; want ErrNotFound", err)
		}
	})
}
