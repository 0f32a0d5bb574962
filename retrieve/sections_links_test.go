package retrieve_test

import (
	"context"
	"slices"
	"testing"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
)

// TestSectionHitLinksAndValidity: a section hit injects the links written
// in that section only; the entry's property links (front matter, not
// part of any section) are injected when the entry is answered whole. Its
// validity is the entry's: the entry it supersedes is no hit, and the
// section item names it.
func TestSectionHitLinksAndValidity(t *testing.T) {
	es := sectionEntries()
	es[0].Meta.Extra = map[string]any{"up": "[[parent]]", "supersedes": []any{"[[old guide]]"}}
	es = append(es,
		store.Entry{Category: "notes", Name: "parent", Content: "The parent note."},
		store.Entry{Category: "notes", Name: "old guide", Content: "apt debian the old way"},
	)
	sectionStores(t, es, func(t *testing.T, eng *retrieve.Engine) {
		ctx := context.Background()
		for _, c := range []struct {
			whole bool
			want  []string
		}{
			{false, []string{"hit notes:short", "hit notes:guide § Install > On Linux", "link notes:linux-tips"}},
			{true, []string{"hit notes:short", "hit notes:guide", "link notes:parent", "link notes:linux-tips", "link notes:usage-tips"}},
		} {
			res, err := eng.Retrieve(ctx, retrieve.Request{Query: "apt debian", Budget: retrieve.Unlimited, WholeEntries: c.whole})
			if err != nil {
				t.Fatal(err)
			}
			if got := keys(res.Items); !slices.Equal(got, c.want) {
				t.Errorf("whole=%v: items %q, want %q", c.whole, got, c.want)
				continue
			}
			if g := res.Items[1]; !slices.Equal(g.Supersedes, []string{"notes:old guide"}) {
				t.Errorf("whole=%v: the guide's item supersedes %q, want notes:old guide", c.whole, g.Supersedes)
			}
			if len(res.UnresolvedLinks) != 0 {
				t.Errorf("whole=%v: unresolved %q", c.whole, res.UnresolvedLinks)
			}
		}
	})
}
