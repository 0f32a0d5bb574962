package service_test

import (
	"context"
	"slices"
	"testing"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
)

// TestAddDuplicates: on every backend an add names the entries its
// content duplicates and writes anyway; a one-shot Memory (a CLI add,
// with no index loaded before it) reports the same; an import's one
// look after its bulk write counts them; with detection off none is
// reported.
func TestAddDuplicates(t *testing.T) {
	ctx := context.Background()
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			m := service.New(st, service.Options{})
			defer m.Close()
			add := func(cat, nm, content string) service.Change {
				t.Helper()
				c, err := m.Add(ctx, service.AddRequest{Category: cat, Name: nm, Content: content})
				if err != nil {
					t.Fatal(err)
				}
				return c
			}
			if c := add("shop", "milk", "Buy oat milk on Friday"); c.Duplicates != nil {
				t.Fatalf("first: %v", c.Duplicates)
			}
			if c := add("notes", "milk", "buy oat milk   on FRIDAY"); !slices.Equal(c.Duplicates, []string{"shop:milk"}) {
				t.Fatalf("copy: %v", c.Duplicates)
			}
			if c := add("notes", "saturday", "Buy oat milk on Saturday"); c.Duplicates != nil {
				t.Fatalf("another value: %v", c.Duplicates)
			}
			if c := add("notes", "german", "Am Freitag Hafermilch kaufen"); c.Duplicates != nil {
				t.Fatalf("another language: %v", c.Duplicates)
			}
			// Nothing refused, nothing deleted.
			for _, k := range []store.Key{{Category: "shop", Name: "milk"}, {Category: "notes", Name: "milk"}} {
				if _, err := st.Get(ctx, k.Category, k.Name); err != nil {
					t.Fatal(err)
				}
			}
			// A one-shot Memory: its first snapshot comes with the add.
			one := service.New(st, service.Options{})
			c, err := one.Add(ctx, service.AddRequest{Category: "todo", Name: "milk", Content: "Buy oat milk on Friday."})
			one.Close()
			if err != nil || !slices.Equal(c.Duplicates, []string{"notes:milk", "shop:milk"}) {
				t.Fatalf("one-shot add: %v %v", c.Duplicates, err)
			}
			d, err := m.DuplicatesOf(ctx, []store.Key{{Category: "notes", Name: "saturday"}, {Category: "todo", Name: "milk"}, {Category: "notes", Name: "milk"}})
			if err != nil || d.Count != 2 || d.First[0] != [2]string{"todo:milk", "notes:milk"} {
				t.Fatalf("DuplicatesOf: %+v %v", d, err)
			}
			off := service.New(st, service.Options{Engine: retrieve.Options{NoDuplicates: true}})
			defer off.Close()
			if c, _ := off.Add(ctx, service.AddRequest{Category: "todo", Name: "milk2", Content: "Buy oat milk on Friday"}); c.Duplicates != nil {
				t.Fatalf("detection off: %v", c.Duplicates)
			}
		})
	}
}

// TestAddDuplicatesPersisted: on bolt with the index copy (a one-shot
// add catches the copy up instead of building), the copy carries the
// pairs the build found.
func TestAddDuplicatesPersisted(t *testing.T) {
	ctx := context.Background()
	st, err := bolt.Open(t.TempDir()+"/m.db", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opts := service.Options{Engine: retrieve.Options{Persist: st}}
	m := service.New(st, opts)
	for _, n := range []string{"a", "b"} {
		if _, err := m.Add(ctx, service.AddRequest{Category: "n", Name: n, Content: "the same line"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Engine().Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	m.Close()
	one := service.New(st, opts)
	defer one.Close()
	c, err := one.Add(ctx, service.AddRequest{Category: "n", Name: "c", Content: "The same  line"})
	if err != nil || !slices.Equal(c.Duplicates, []string{"n:a", "n:b"}) {
		t.Fatalf("add after a reload: %v %v", c.Duplicates, err)
	}
}
