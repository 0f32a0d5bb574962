package retrieve

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
)

// withAliases is ent with front matter aliases.
func withAliases(c, n, content string, aliases ...string) store.Entry {
	e := ent(c, n, content)
	as := make([]any, len(aliases))
	for i, a := range aliases {
		as[i] = a
	}
	e.Meta.Extra = map[string]any{"aliases": as}
	return e
}

// TestAliasLinkWithMappedCharacters: an alias is free text, not a file
// name, so a link that names it ("[[What is it?]]", "[[Q3: plan]]") must
// reach it as written; the name mapping (store.NameKey) is for names.
func TestAliasLinkWithMappedCharacters(t *testing.T) {
	ctx := context.Background()
	st := newMemStore(
		ent("notes", "Home", "harbor [[Why bother?]] [[Q3: plan]] [[Plain alias]]"),
		withAliases("notes", "Reasons", "r", "Why bother?"),
		withAliases("notes", "Planning", "p", "Q3: plan"),
		withAliases("notes", "Other", "o", "Plain alias"),
	)
	res, err := New(st, Options{}).Retrieve(ctx, Request{Query: "harbor", Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"hit notes:Home", "link notes:Reasons via notes:Home", "link notes:Planning via notes:Home", "link notes:Other via notes:Home"}
	if got := keys(res.Items); !slices.Equal(got, want) {
		t.Errorf("items = %q\nwant %q\nunresolved %q", got, want, res.UnresolvedLinks)
	}
}

// TestTitleRuleMappedName: a note whose file name holds a mapped character
// ("Why sleep?" is the identity "Why sleep%3F") is a title match for the
// query that is its title as written, whether the index built it or a
// write put it in the overlay; the escape's hex digits are no term of it.
func TestTitleRuleMappedName(t *testing.T) {
	ctx := context.Background()
	st := newMemStore(
		ent("notes", "Why sleep%3F", "short."),
		ent("notes", "Diary", "why sleep why sleep sleep sleep why why sleep, sleep again and again"),
		ent("notes", "Log", "dream log dream log, a dream log: sleep sleep why sleep"),
	)
	eng := New(st, Options{})
	defer eng.Close()
	first := func(q string) string {
		t.Helper()
		res, err := eng.Retrieve(ctx, Request{Query: q, Budget: Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Items) == 0 {
			return ""
		}
		return res.Items[0].Name
	}
	if got := first("why sleep"); got != "Why sleep%3F" {
		t.Errorf("why sleep: first %q, want the titled note", got)
	}
	if got := first("3f"); got != "" {
		t.Errorf("3f: first %q, want no hit", got)
	}
	if err := eng.Put(ctx, ent("notes", "Dream%3A a log", "brief, nothing more to say here at all.")); err != nil {
		t.Fatal(err)
	}
	if got := first("dream: a log"); got != "Dream%3A a log" {
		t.Errorf("after a write: first %q, want the titled note", got)
	}
}

// TestAliasLinksAcrossCopies: alias links (read through
// Snapshot.EachAliases) and alias titles hold in every way an index is
// made: a build, the mapped copy a new process loads, a catch-up of that
// copy from the bolt file's change history, a batch of writes
// (PutBatch, index.Apply), and the compaction it brings.
func TestAliasLinksAcrossCopies(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a.db")
	st, err := bolt.Open(path, &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { st.Close() }()
	var ents []store.Entry
	for i := range 300 {
		ents = append(ents, ent("bulk", fmt.Sprint("n", i), fmt.Sprint("filler text number ", i)))
	}
	ents = append(ents,
		ent("notes", "Home", "harbor [[Kitty]] [[Why bother?]] [[Later one]]"),
		withAliases("pets", "Cats", "felines", "Kitty"),
	)
	if err := st.PutBatch(ctx, ents); err != nil {
		t.Fatal(err)
	}
	check := func(e *Engine, what string, want ...string) {
		t.Helper()
		res, err := e.Retrieve(ctx, Request{Query: "harbor", Budget: Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		want = append([]string{"hit notes:Home"}, want...)
		if got := keys(res.Items); !slices.Equal(got, want) {
			t.Errorf("%s: items %q\nwant %q", what, got, want)
		}
		res, err = e.Retrieve(ctx, Request{Query: "kitty", Budget: Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Items) == 0 || res.Items[0].Name != "Cats" {
			t.Errorf("%s: kitty finds %q first, want Cats (its alias)", what, keys(res.Items))
		}
	}
	load := func(what string) (*Engine, *readCounter) {
		t.Helper()
		rc := &readCounter{Store: st}
		e := New(rc, Options{Persist: st})
		if _, err := e.Load(ctx); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return e, rc
	}
	e, _ := load("build")
	check(e, "build", "link pets:Cats via notes:Home")
	e.Close() // saves the copy

	e, rc := load("mapped copy")
	if rc.all != 0 {
		t.Fatalf("the copy was not used")
	}
	check(e, "mapped copy", "link pets:Cats via notes:Home")
	e.Close()

	// Written behind the engine's back: the next process catches up.
	if err := st.Put(ctx, withAliases("dogs", "Dogs", "canines", "Why bother?")); err != nil {
		t.Fatal(err)
	}
	e, rc = load("catch-up")
	if rc.all != 0 {
		t.Fatalf("the copy was not caught up")
	}
	check(e, "catch-up", "link pets:Cats via notes:Home", "link dogs:Dogs via notes:Home")

	// A batch (Apply) large enough to compact, one alias among it.
	var batch []store.Entry
	for i := range 600 {
		batch = append(batch, ent("bulk", fmt.Sprint("m", i), fmt.Sprint("more filler ", i)))
	}
	batch = append(batch, withAliases("later", "Late", "late note", "Later one"))
	if err := e.PutBatch(ctx, batch); err != nil {
		t.Fatal(err)
	}
	check(e, "batch", "link pets:Cats via notes:Home", "link dogs:Dogs via notes:Home", "link later:Late via notes:Home")
	for i := range 300 {
		if err := e.Put(ctx, ent("bulk", fmt.Sprint("n", i), fmt.Sprint("rewritten ", i))); err != nil {
			t.Fatal(err)
		}
	}
	check(e, "after single writes", "link pets:Cats via notes:Home", "link dogs:Dogs via notes:Home", "link later:Late via notes:Home")
	e.Close()
	st.Close()
	if st, err = bolt.Open(path, &bolt.Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	e, _ = load("reopened")
	defer e.Close()
	check(e, "reopened", "link pets:Cats via notes:Home", "link dogs:Dogs via notes:Home", "link later:Late via notes:Home")
}
