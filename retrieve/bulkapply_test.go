package retrieve

import (
	"fmt"
	"slices"
	"testing"

	"github.com/recallhq/recall/index"
)

// A change set of more than bulkApply keys (a `git pull` under a watched
// folder, a batch import by another process) is applied by rebuilding from
// the snapshot's documents and the re-read entries rather than key by key:
// the result answers exactly as a build from the whole store does, with
// the changed entries changed, the deleted ones gone and the new ones in.
func TestBulkCatchUp(t *testing.T) {
	st := openBolt(t, 0)
	for i := range 200 {
		if err := st.Put(ctx, ent("c", fmt.Sprintf("n%03d", i), fmt.Sprintf("harbour boat %d", i%17))); err != nil {
			t.Fatal(err)
		}
	}
	e := New(st, Options{})
	first, err := e.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Stop the follower, so that the whole change reaches the engine as one
	// change set at the next retrieve.
	e.Close()
	changed := 0
	for i := range 100 { // rewritten
		if err := st.Put(ctx, ent("c", fmt.Sprintf("n%03d", i), fmt.Sprintf("lighthouse keeper %d", i%13))); err != nil {
			t.Fatal(err)
		}
		changed++
	}
	for i := 100; i < 150; i++ { // deleted
		if err := st.Delete(ctx, "c", fmt.Sprintf("n%03d", i)); err != nil {
			t.Fatal(err)
		}
		changed++
	}
	for i := range 150 { // new, in another category
		if err := st.Put(ctx, ent("d", fmt.Sprintf("m%03d", i), fmt.Sprintf("harbour lighthouse %d", i%11))); err != nil {
			t.Fatal(err)
		}
		changed++
	}
	if changed <= bulkApply {
		t.Fatalf("%d changes do not reach the bulk path (> %d)", changed, bulkApply)
	}
	rev, _ := st.Revision(ctx)
	cs, err := e.feed.Changes(ctx, first.Revision())
	if err != nil || cs.Reset || len(cs.Keys) != changed {
		t.Fatalf("the feed gives %d keys (reset %v, %v); want %d in one change set", len(cs.Keys), cs.Reset, err, changed)
	}
	got, err := e.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Revision() != rev {
		t.Fatalf("caught up to revision %d, store at %d", got.Revision(), rev)
	}
	fresh := New(st, Options{})
	defer fresh.Close()
	want, err := fresh.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	docs := func(s *index.Snapshot) []string {
		var out []string
		s.Docs(func(d *index.Doc) bool {
			out = append(out, d.Category+":"+d.Name+"="+d.Content)
			return true
		})
		slices.Sort(out)
		return out
	}
	if g, w := docs(got), docs(want); !slices.Equal(g, w) {
		t.Fatalf("after the bulk catch-up the index holds %d documents, a fresh build %d (or different ones)", len(g), len(w))
	}
	for _, q := range []string{"harbour", "lighthouse keeper 3", "boat 5", "harbour lighthouse 7", "n120"} {
		a, err := e.Retrieve(ctx, Request{Query: q, Limit: 400, Budget: Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := fresh.Retrieve(ctx, Request{Query: q, Limit: 400, Budget: Unlimited})
		if asJSON(t, a) != asJSON(t, b) {
			t.Errorf("query %q: the caught-up index answers differently from a fresh build", q)
		}
	}
	if res, _ := e.Retrieve(ctx, Request{Query: "boat"}); len(res.Items) == 0 || res.Items[0].Category != "c" || res.Items[0].Name < "n150" {
		t.Errorf("boat: %+v; want only the untouched entries n150…n199", res.Items)
	}
}
