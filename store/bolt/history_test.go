package bolt

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

// The change history answers, in a later process, exactly the keys written
// after any revision it reaches back to, and Reset for one it does not.
func TestHistoryAcrossOpens(t *testing.T) {
	path := tempPath(t)
	const keep = 8
	open := func() *Store {
		t.Helper()
		s, err := Open(path, &Options{History: keep, ChangeLogSize: 2})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	key := func(i int) store.Key { return store.Key{Category: "c", Name: fmt.Sprint("n", i%5)} }
	// written[r] is the key written at revision r; a batch writes several.
	written := map[uint64][]store.Key{}
	s := open()
	for i := range 12 {
		if err := s.Put(ctx, store.Entry{Category: key(i).Category, Name: key(i).Name, Content: "x"}); err != nil {
			t.Fatal(err)
		}
		written[revision(t, s)] = []store.Key{key(i)}
	}
	if err := s.Delete(ctx, "c", "n1"); err != nil {
		t.Fatal(err)
	}
	written[revision(t, s)] = []store.Key{{Category: "c", Name: "n1"}}
	batch := []store.Entry{{Category: "d", Name: "a", Content: "a"}, {Category: "d", Name: "b", Content: "b"}}
	if err := s.PutBatch(ctx, batch); err != nil {
		t.Fatal(err)
	}
	r := revision(t, s)
	written[r-1] = []store.Key{{Category: "d", Name: "a"}, {Category: "d", Name: "b"}} // one record for both
	s.Close()

	s = open()
	defer s.Close()
	// The oldest record kept ends after r-keep; it starts at floor.
	var floor uint64
	_ = s.db.View(func(tx *bbolt.Tx) error {
		k, v := tx.Bucket(bucketChanges).Cursor().First()
		var err error
		if floor, _, err = decodeRecord(k, v); err != nil {
			t.Fatal(err)
		}
		return nil
	})
	if floor+keep < r || floor+keep > r+2 {
		t.Fatalf("history reaches back to %d at revision %d, keeping %d", floor, r, keep)
	}
	for since := uint64(0); since <= r+1; since++ {
		cs, err := s.Changes(ctx, since)
		if err != nil {
			t.Fatal(err)
		}
		if since < floor || since > r {
			if !cs.Reset {
				t.Errorf("Changes(%d) = %+v outside the history [%d, %d], want Reset", since, cs, floor, r)
			}
			continue
		}
		// Every key written after since, and nothing else except the
		// batch's other key when since falls inside the batch.
		var want []store.Key
		for rev := since + 1; rev <= r; rev++ {
			for _, k := range written[rev] {
				if !slices.Contains(want, k) {
					want = append(want, k)
				}
			}
		}
		if since == r-1 {
			want = written[r-1]
		}
		slices.SortFunc(want, compareKeys)
		got := slices.SortedFunc(slices.Values(cs.Keys), compareKeys)
		if cs.Reset || cs.Rev != r || !slices.Equal(got, want) {
			t.Errorf("Changes(%d) = %+v, want %v up to %d", since, cs, want, r)
		}
	}
	if cs, _ := s.Changes(ctx, 0); !cs.Reset {
		t.Errorf("Changes(0) = %+v beyond a history of %d, want Reset", cs, keep)
	}
	// The bucket holds no more than the history asks.
	_ = s.db.View(func(tx *bbolt.Tx) error {
		if n := tx.Bucket(bucketChanges).Stats().KeyN; n > keep {
			t.Errorf("history holds %d records, want at most %d", n, keep)
		}
		return nil
	})
}

// A damaged history record is never trusted: the reader gets Reset and
// rebuilds, whatever byte was flipped.
func TestHistoryDamaged(t *testing.T) {
	path := tempPath(t)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := s.Put(ctx, store.Entry{Category: "c", Name: fmt.Sprint(i), Content: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	r := revision(t, s)
	s.Close()
	var k, orig []byte
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = db.View(func(tx *bbolt.Tx) error {
		kk, v := tx.Bucket(bucketChanges).Cursor().Last()
		k, orig = slices.Clone(kk), slices.Clone(v)
		return nil
	})
	db.Close()
	if k == nil {
		t.Fatal("no history written")
	}
	for i := range len(orig) {
		for _, bit := range []byte{1, 0x80} {
			bad := slices.Clone(orig)
			bad[i] ^= bit
			if _, _, err := decodeRecord(k, bad); err == nil {
				t.Fatalf("record with byte %d flipped decodes", i)
			}
		}
	}
	for _, bad := range [][]byte{nil, orig[:len(orig)-1], append(slices.Clone(orig), 0)} {
		db, err := bbolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Update(func(tx *bbolt.Tx) error { return tx.Bucket(bucketChanges).Put(k, bad) }); err != nil {
			t.Fatal(err)
		}
		db.Close()
		s, err := Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if cs, _ := s.Changes(ctx, r-1); !cs.Reset {
			t.Errorf("damaged record %x: Changes(%d) = %+v, want Reset", bad, r-1, cs)
		}
		if cs, _ := s.Changes(ctx, r); cs.Reset || cs.Rev != r {
			t.Errorf("Changes(%d) at the revision = %+v, want empty", r, cs)
		}
		s.Close()
	}
}

// Opening a format 3 file (no history bucket) adds the bucket, keeps the
// revision, and answers Reset for revisions before the upgrade; writes
// after it are recorded.
func TestHistoryMigrateFormat3(t *testing.T) {
	path := tempPath(t)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := s.Put(ctx, store.Entry{Category: "c", Name: fmt.Sprint(i), Content: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		if err := tx.DeleteBucket(bucketChanges); err != nil {
			return err
		}
		return tx.Bucket(bucketMeta).Put(keyFormat, []byte{3})
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	s, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := revision(t, s)
	if r != 3 {
		t.Fatalf("revision %d after migration, want 3", r)
	}
	if cs, _ := s.Changes(ctx, r-1); !cs.Reset {
		t.Errorf("Changes(%d) from before the upgrade = %+v, want Reset", r-1, cs)
	}
	if err := s.Put(ctx, store.Entry{Category: "c", Name: "new", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	s.feed = store.NewChangeLog(r+1, 0) // as a new process sees it
	if cs, _ := s.Changes(ctx, r); cs.Reset || !slices.Equal(cs.Keys, []store.Key{{Category: "c", Name: "new"}}) {
		t.Errorf("Changes(%d) after the upgrade = %+v, want [c:new]", r, cs)
	}
	if cs, _ := s.Changes(ctx, r-1); !cs.Reset {
		t.Errorf("Changes(%d), across the upgrade = %+v, want Reset", r-1, cs)
	}
}

func compareKeys(a, b store.Key) int {
	if a.Category != b.Category {
		return strings.Compare(a.Category, b.Category)
	}
	return strings.Compare(a.Name, b.Name)
}
