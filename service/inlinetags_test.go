package service_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// TestInlineTags: #tags in an entry's content filter a retrieve as its
// metadata tags do, and listings show them after those (unindexed and
// indexed listing alike); get keeps the metadata as stored. Tags in code
// and headings are none. On the code before inline tags the filter found
// nothing and listings showed "work" alone.
func TestInlineTags(t *testing.T) {
	ctx := context.Background()
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			m := service.New(st, service.Options{})
			defer m.Close()
			for _, e := range []store.Entry{
				{Category: "notes", Name: "harbor", Content: "# Harbor plan\nThe harbor trip is #todo and #Travel/2025.\n```\n#codetag harbor\n```", Meta: store.Meta{Tags: []string{"work"}}},
				{Category: "notes", Name: "quay", Content: "harbor walk, see `#todo` and https://example.com/#todo"},
			} {
				if err := st.Put(ctx, e); err != nil {
					t.Fatal(err)
				}
			}
			hits := func(tag string) []string {
				t.Helper()
				res, _, err := m.Retrieve(ctx, service.RetrieveParams{Query: "harbor", Tags: []string{tag}})
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, it := range res.Items {
					out = append(out, it.Name)
				}
				return out
			}
			for tag, want := range map[string][]string{
				"todo": {"harbor"}, "Travel/2025": {"harbor"}, "work": {"harbor"},
				"codetag": nil, "Harbor": nil, "example": nil,
			} {
				if got := hits(tag); !slices.Equal(got, want) {
					t.Errorf("--tag %s: %q, want %q", tag, got, want)
				}
			}
			wantTags := []string{"work", "todo", "Travel/2025"}
			listed := func(what string) {
				t.Helper()
				page, err := m.List(ctx, service.ListRequest{})
				if err != nil {
					t.Fatal(err)
				}
				if len(page.Entries) != 2 {
					t.Fatalf("%s: %d entries", what, len(page.Entries))
				}
				if got, _ := page.Entries[0].Meta[service.MetaTags].([]string); !slices.Equal(got, wantTags) {
					t.Errorf("%s: listed tags %q, want %q", what, got, wantTags)
				}
				if _, ok := page.Entries[1].Meta[service.MetaTags]; ok {
					t.Errorf("%s: quay lists tags %v", what, page.Entries[1].Meta[service.MetaTags])
				}
			}
			listed("unindexed")
			if err := m.Start(ctx); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
				if h, err := m.Health(ctx); err == nil && h.Indexed {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("never indexed")
				}
			}
			listed("indexed")
			e, err := m.Get(ctx, "notes", "harbor")
			if err != nil || !slices.Equal(e.Meta.Tags, []string{"work"}) {
				t.Errorf("get: tags %q, err %v; want the stored [work]", e.Meta.Tags, err)
			}
		})
	}
}
