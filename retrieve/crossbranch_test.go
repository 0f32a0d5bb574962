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
