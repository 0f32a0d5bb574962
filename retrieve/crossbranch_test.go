package retrieve

import (
	"context"
	"slices"
	"testing"

	"github.com/recallhq/recall/store"
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
