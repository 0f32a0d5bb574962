package retrieve

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/recallhq/recall/store"
)

// WholeEntries is the answer of the pipeline without the section step
// (sectionMin out of reach), field for field, on a store whose long
// notes would be split.
func TestWholeEntriesIsEntryLevel(t *testing.T) {
	long := "intro words\n## Alpha\n" + strings.Repeat("alpha beta gamma ", 150) + "[[n:b]]\n## Beta\n" + strings.Repeat("delta beta ", 150) + "[[n:c]]\n"
	st := newMemStore(
		store.Entry{Category: "n", Name: "a", Content: long},
		store.Entry{Category: "n", Name: "b", Content: "b text alpha"},
		store.Entry{Category: "n", Name: "c", Content: "c text delta"},
	)
	eng := New(st, Options{})
	defer eng.Close()
	ctx := context.Background()
	for _, q := range []string{"alpha", "delta", "beta", "intro"} {
		for _, req := range []Request{{Query: q}, {Query: q, Explain: true, Budget: 50}, {Query: q, NoLinks: true}} {
			whole := req
			whole.WholeEntries = true
			got, err := eng.Retrieve(ctx, whole)
			if err != nil {
				t.Fatal(err)
			}
			sectionMin = math.MaxInt
			want, err := eng.Retrieve(ctx, req)
			sectionMin = SectionMinTokens
			if err != nil {
				t.Fatal(err)
			}
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			if string(g) != string(w) {
				t.Errorf("%+v: whole entries\n%s\nwant\n%s", req, g, w)
			}
			sec, err := eng.Retrieve(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if q != "intro" && sec.Items[0].Section == "" {
				t.Errorf("%q: the long note was not split: %+v", q, sec.Items[0])
			}
		}
	}
}
