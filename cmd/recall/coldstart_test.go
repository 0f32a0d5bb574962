package main

import (
	"context"
	"testing"

	"github.com/recallhq/recall/store/bolt"
)

// A one-shot retrieve on a bolt store saves the index in the file; the
// next one loads it and answers the same, and a write makes it rebuild.
func TestRetrievePersistsIndex(t *testing.T) {
	db := sampleStores(t)["bolt"]
	c := newCLI(t, nil)
	hasCopy := func() bool {
		t.Helper()
		st, err := bolt.Open(db, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		data, _, err := st.LoadIndex(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return data != nil
	}
	if hasCopy() {
		t.Fatal("copy before any retrieve")
	}
	first := c.ok("--store", db, "retrieve", "--json", "周末安排")
	if !hasCopy() {
		t.Fatal("no copy saved by retrieve")
	}
	if again := c.ok("--store", db, "retrieve", "--json", "周末安排"); again != first {
		t.Fatalf("answer from the copy differs:\n%s\nwant\n%s", again, first)
	}
	c.ok("--store", db, "add", "plans", "weekend-zebra", "--content", "周末安排 zebra")
	if hasCopy() {
		t.Fatal("copy still current after a write")
	}
	res, _ := resultJSON(t, c, "--store", db, "retrieve", "zebra")
	if len(res.Items) == 0 || res.Items[0].Name != "weekend-zebra" {
		t.Fatalf("after the write: %+v", res.Items)
	}
	if !hasCopy() {
		t.Fatal("no copy saved by the rebuild")
	}
}
