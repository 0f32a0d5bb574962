package bolt

import (
	"encoding/binary"
	"hash/crc32"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

// A file of format version 2 (values with a CRC but no event date), as
// the recall before dates wrote it, is migrated on Open: entries, metadata
// and revision kept, values rewritten as version 3; afterwards a dated
// entry round-trips and the file says format 3, so that an older recall
// refuses it rather than reading dated values as damaged.
func TestMigrateFormat2(t *testing.T) {
	ctx := t.Context()
	path := tempPath(t)
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	created := time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC)
	old := map[store.Key]store.Meta{
		{Category: "people", Name: "alice"}: {Created: created, Tags: []string{"friend"}},
		{Category: "旅行", Name: "三亚之行"}:      {Created: created, Updated: created.Add(time.Hour), Extra: map[string]any{"date": "last spring"}},
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		meta, err := tx.CreateBucket(bucketMeta)
		if err != nil {
			return err
		}
		if err := meta.Put(keyFormat, binary.AppendUvarint(nil, 2)); err != nil {
			return err
		}
		if err := meta.SetSequence(7); err != nil {
			return err
		}
		entries, err := tx.CreateBucket(bucketEntries)
		if err != nil {
			return err
		}
		for k, m := range old {
			key := encodeKey(k.Category, k.Name)
			extra, _ := marshalExtra(m.Extra)
			body := appendBody(nil, valueVersionV2, "content of "+k.Name, m, extra)
			sum := crc32.Update(crc32.Checksum(key, castagnoli), castagnoli, body)
			if err := entries.Put(key, binary.LittleEndian.AppendUint32(body, sum)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open of a format 2 file: %v", err)
	}
	if r := revision(t, s); r != 7 {
		t.Errorf("revision %d after migration, want 7 kept", r)
	}
	for k, m := range old {
		e, err := s.Get(ctx, k.Category, k.Name)
		if err != nil {
			t.Fatalf("Get %s: %v", k, err)
		}
		if e.Content != "content of "+k.Name || !sameMeta(e.Meta, m) || !e.Meta.Date.IsZero() {
			t.Errorf("%s = %q %+v, want %+v", k, e.Content, e.Meta, m)
		}
	}
	err = s.db.View(func(tx *bbolt.Tx) error {
		if v, _ := formatVersion(tx.Bucket(bucketMeta)); v != FormatVersion {
			t.Errorf("format version %d after migration, want %d", v, FormatVersion)
		}
		if tx.Bucket(bucketChanges) == nil {
			t.Error("no change history bucket after migration")
		}
		if v := tx.Bucket(bucketEntries).Get(encodeKey("people", "alice")); v[0] != 3 {
			t.Errorf("value version %d after migration, want 3", v[0])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2024, 5, 3, 0, 0, 0, 0, time.UTC)
	at := time.Date(2024, 5, 3, 14, 30, 0, 0, time.FixedZone("", 8*3600))
	if err := s.Put(ctx, store.Entry{Category: "diary", Name: "day", Content: "x", Meta: store.Meta{Date: day}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, store.Entry{Category: "diary", Name: "at", Content: "y", Meta: store.Meta{Date: at}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if e, err := s.Get(ctx, "diary", "day"); err != nil || !e.Meta.Date.Equal(day) || !store.IsDateOnly(e.Meta.Date) {
		t.Errorf("dated entry after reopen: %+v, %v; want date %v, date only", e.Meta, err, day)
	}
	if e, err := s.Get(ctx, "diary", "at"); err != nil || !e.Meta.Date.Equal(at) || store.IsDateOnly(e.Meta.Date) {
		t.Errorf("timed entry after reopen: %+v, %v; want date %v", e.Meta, err, at)
	}
	if e, _ := s.Get(ctx, "旅行", "三亚之行"); e.Meta.Extra["date"] != "last spring" {
		t.Errorf("free-text date in extra = %v, want kept", e.Meta.Extra["date"])
	}
}
