package service_test

import (
	"context"
	"path/filepath"
	"testing"

	"go.etcd.io/bbolt"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
)

// damagedBolt returns a bolt store holding c:ok and c:bad, whose record
// fails its checksum (one bit of the content flipped in the file).
func damagedBolt(t *testing.T) store.Store {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	st, err := boltstore.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"ok", "bad"} {
		if err := st.Put(ctx, store.Entry{Category: "c", Name: n, Content: "harbour " + n}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket([]byte("recall.entries"))
		k := append([]byte("c\x00"), "bad"...)
		v := append([]byte(nil), b.Get(k)...)
		v[3] ^= 0x01
		return b.Put(k, v)
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if st, err = boltstore.Open(path, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// A damaged bolt record is one unreadable entry, as a broken file is on a
// folder store: listing skips and counts it on both listing paths (keys
// only, and from the index), and adding over it replaces it.
func TestDamagedBoltEntry(t *testing.T) {
	ctx := context.Background()
	st := damagedBolt(t)
	if _, err := st.Get(ctx, "c", "bad"); !service.Unreadable(err) {
		t.Fatalf("Get of the damaged record = %v, want an unreadable entry", err)
	}
	m := service.New(st, service.Options{})
	page, err := m.List(ctx, service.ListRequest{})
	if err != nil || len(page.Entries) != 1 || page.Skipped != 1 {
		t.Fatalf("list before indexing = %+v, %v; want one entry, one skipped", page, err)
	}
	if _, err := m.Engine().Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	if page, err = m.List(ctx, service.ListRequest{}); err != nil || len(page.Entries) != 1 || page.Skipped != 1 {
		t.Fatalf("list from the index = %+v, %v; want one entry, one skipped", page, err)
	}
	c, err := m.Add(ctx, service.AddRequest{Category: "c", Name: "bad", Content: "repaired harbour", Tags: []string{"fixed"}})
	if err != nil || c.Status != service.StatusUpdated {
		t.Fatalf("add over the damaged record = %+v, %v; want it replaced", c, err)
	}
	e, err := m.Get(ctx, "c", "bad")
	if err != nil || e.Content != "repaired harbour" || len(e.Meta.Tags) != 1 {
		t.Fatalf("after the repair: %+v, %v", e, err)
	}
	res, _, err := m.Retrieve(ctx, service.RetrieveParams{Query: "repaired"})
	if err != nil || len(res.Items) != 1 {
		t.Errorf("retrieve the repaired entry: %+v, %v", res, err)
	}
}
