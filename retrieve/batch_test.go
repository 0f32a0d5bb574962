package retrieve

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
)

// TestPutBatchVisible: a retrieve after PutBatch returned sees every entry
// of the batch (SPEC §4), whether or not an index existed before.
func TestPutBatchVisible(t *testing.T) {
	ctx := context.Background()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "m.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	eng := New(st, Options{})
	batch := func(tag string) []store.Entry {
		var es []store.Entry
		for i := range 50 {
			es = append(es, store.Entry{Category: "notes", Name: fmt.Sprintf("%s-%02d", tag, i), Content: "seaside " + tag})
		}
		return es
	}
	if err := eng.PutBatch(ctx, batch("first")); err != nil {
		t.Fatal(err)
	}
	for _, tag := range []string{"first", "second"} {
		if tag == "second" {
			if err := eng.PutBatch(ctx, batch(tag)); err != nil {
				t.Fatal(err)
			}
		}
		res, err := eng.Retrieve(ctx, Request{KeepDuplicates: true, Query: tag, Limit: 100, Budget: Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Items) != 50 {
			t.Fatalf("%s: %d items after the batch, want 50", tag, len(res.Items))
		}
	}
}
