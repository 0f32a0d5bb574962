package service_test

import (
	"context"
	"strings"
	"testing"

	"github.com/recallhq/recall/service"
)

// A filtered retrieve (categories, tags: ranked wide, then Expand) answers
// a long note by its section as the engine's own answer does, and
// whole_entries gives the whole note there too.
func TestRetrieveSectionsFiltered(t *testing.T) {
	ctx := context.Background()
	filler := strings.Repeat("lorem ipsum dolor sit amet ", 90)
	note := "Intro. " + filler + "\n\n## Install\n\n### On Linux\nzebrafish with apt.\n" + filler + "\n\n## Usage\nRun it. " + filler
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			m := service.New(st, service.Options{})
			defer m.Close()
			if _, err := m.Add(ctx, service.AddRequest{Category: "notes", Name: "guide", Content: note, Tags: []string{"howto"}}); err != nil {
				t.Fatal(err)
			}
			if _, err := m.Add(ctx, service.AddRequest{Category: "other", Name: "apt", Content: "apt zebrafish elsewhere"}); err != nil {
				t.Fatal(err)
			}
			for _, p := range []service.RetrieveParams{
				{Query: "zebrafish apt"},
				{Query: "zebrafish apt", Categories: []string{"notes"}},
				{Query: "zebrafish apt", Tags: []string{"howto"}},
			} {
				for _, whole := range []bool{false, true} {
					p.WholeEntries = whole
					noBudget := 0 // whole, the guide is over the default budget after the short hit
					p.BudgetTokens = &noBudget
					res, _, err := m.Retrieve(ctx, p)
					if err != nil {
						t.Fatal(err)
					}
					var guide *string
					for i, it := range res.Items {
						if it.Name == "guide" {
							guide = &res.Items[i].Section
							if whole != (it.Content == note) {
								t.Errorf("%+v: content of %d bytes", p, len(it.Content))
							}
						}
					}
					want := "Install > On Linux"
					if whole {
						want = ""
					}
					if guide == nil || *guide != want {
						t.Errorf("%+v: guide's section %v, want %q", p, guide, want)
					}
				}
			}
		})
	}
}
