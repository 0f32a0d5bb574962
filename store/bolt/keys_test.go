package bolt

import (
	"errors"
	"slices"
	"testing"

	"go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

// TestKeysDamage: Keys lists an entry whose value is damaged (it decodes
// no value; All reports it) and reports a key that is not category NUL
// name, as All does.
func TestKeysDamage(t *testing.T) {
	s := openTemp(t)
	mustPut(t, s, "a", "good", "x")
	err := s.db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketEntries)
		if err := b.Put(encodeKey("a", "bad"), []byte{1, 200}); err != nil {
			return err
		}
		return b.Put([]byte("no separator"), []byte{1})
	})
	if err != nil {
		t.Fatal(err)
	}
	var keys []store.Key
	var errs int
	for k, err := range s.Keys(ctx, "") {
		if err != nil {
			if !errors.Is(err, store.ErrCorrupt) {
				t.Errorf("error item %v does not wrap ErrCorrupt", err)
			}
			errs++
			continue
		}
		keys = append(keys, k)
	}
	want := []store.Key{{Category: "a", Name: "bad"}, {Category: "a", Name: "good"}}
	if !slices.Equal(keys, want) || errs != 1 {
		t.Errorf("Keys = %v and %d errors, want %v and 1", keys, errs, want)
	}
}
