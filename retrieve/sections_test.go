package retrieve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/internal/sample"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
	"github.com/recallhq/recall/store/fs"
)

// filler is n words that match no query of these tests.
func filler(n int) string {
	words := strings.Fields("lorem ipsum dolor sit amet consectetur adipiscing elit sed eiusmod tempor")
	out := make([]string, n)
	for i := range out {
		out[i] = words[i%len(words)]
	}
	return strings.Join(out, " ")
}

// The sections of the guide, as Item.Content must show them ("## Install"
// has no text of its own: it opens its subsection's section).
var (
	guideIntro = "The handbook of this program.\n" + filler(100)
	guideLinux = "## Install\n\n### On Linux\nInstall it with apt on Debian; see [[notes:linux-tips]].\n" + filler(200)
	guideUsage = "## Usage\nRun it from a shell:\n```sh\n# print the version\ntool --version\n```\nMore in [[notes:usage-tips]].\n" + filler(300)
	guide      = guideIntro + "\n\n" + guideLinux + "\n\n" + guideUsage + "\n"
)

func sectionEntries() []store.Entry {
	return []store.Entry{
		{Category: "notes", Name: "guide", Content: guide},
		{Category: "notes", Name: "linux-tips", Content: "Tips for Linux."},
		{Category: "notes", Name: "usage-tips", Content: "Tips for usage."},
		// Headings, but short: always whole.
		{Category: "notes", Name: "short", Content: "# Short\nApt is short here.\n## Other\nMore.\n"},
		// Long, without a heading: always whole.
		{Category: "notes", Name: "flat", Content: "Plain text about rsync. " + filler(500)},
	}
}

// sectionStores runs fn on a folder store and a bolt store holding the
// entries.
func sectionStores(t *testing.T, es []store.Entry, fn func(t *testing.T, eng *retrieve.Engine)) {
	open := map[string]func(t *testing.T) store.Store{
		"folder": func(t *testing.T) store.Store {
			st, err := fs.Open(t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
		"bolt": func(t *testing.T) store.Store {
			st, err := bolt.Open(filepath.Join(t.TempDir(), "m.db"), &bolt.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
	}
	for _, kind := range []string{"folder", "bolt"} {
		t.Run(kind, func(t *testing.T) {
			st := open[kind](t)
			defer st.Close()
			eng := retrieve.New(st, retrieve.Options{})
			defer eng.Close()
			for _, e := range es {
				if err := eng.Put(context.Background(), e); err != nil {
					t.Fatal(err)
				}
			}
			fn(t, eng)
		})
	}
}

func keys(items []retrieve.Item) []string {
	var out []string
	for _, it := range items {
		k := string(it.Source) + " " + it.Category + ":" + it.Name
		if it.Section != "" {
			k += " § " + it.Section
		}
		out = append(out, k)
	}
	return out
}

func TestSectionHits(t *testing.T) {
	if index.EstTokens("guide\n"+guide) <= retrieve.SectionMinTokens {
		t.Fatalf("the guide is too short to be split: %d tokens", index.EstTokens("guide\n"+guide))
	}
	sectionStores(t, sectionEntries(), func(t *testing.T, eng *retrieve.Engine) {
		ctx := context.Background()
		cases := []struct {
			query   string
			want    []string
			content string // the first item's
		}{
			// The section that matched, with the links of that section
			// only: usage-tips is linked from another section.
			{"apt debian", []string{"hit notes:short", "hit notes:guide § Install > On Linux", "link notes:linux-tips"}, guideLinux},
			// A "#" line inside a fence is no heading: the whole Usage
			// section, fence and all.
			{"print version shell", []string{"hit notes:guide § Usage", "link notes:usage-tips"}, guideUsage},
			{"handbook", []string{"hit notes:guide § (intro)"}, guideIntro},
			// A long entry without headings stays whole.
			{"rsync", []string{"hit notes:flat"}, ""},
		}
		for _, c := range cases {
			res, err := eng.Retrieve(ctx, retrieve.Request{Query: c.query, Budget: retrieve.Unlimited})
			if err != nil {
				t.Fatal(err)
			}
			if got := keys(res.Items); !slices.Equal(got, c.want) {
				t.Errorf("%q: items %q, want %q", c.query, got, c.want)
				continue
			}
			first := res.Items[0]
			if first.Name == "short" {
				first = res.Items[1]
			}
			if c.content != "" && first.Content != c.content {
				t.Errorf("%q: content %q, want the section %q", c.query, first.Content, c.content)
			}
			if want := index.EstTokens(first.Name + "\n" + first.Content); first.TokensEst != want {
				t.Errorf("%q: tokens_est %d, want the section's %d", c.query, first.TokensEst, want)
			}
			sum := 0
			for _, it := range res.Items {
				sum += it.TokensEst
			}
			if res.BudgetUsed != sum {
				t.Errorf("%q: budget_used %d, the items sum to %d", c.query, res.BudgetUsed, sum)
			}
			// The whole entry is a get away, and whole_entries gives it.
			whole, err := eng.Retrieve(ctx, retrieve.Request{Query: c.query, Budget: retrieve.Unlimited, WholeEntries: true})
			if err != nil {
				t.Fatal(err)
			}
			if w := whole.Items[slices.IndexFunc(whole.Items, func(it retrieve.Item) bool { return it.Name == first.Name })]; w.Section != "" || w.Name != first.Name || (first.Name == "guide" && w.Content != guide) {
				t.Errorf("%q whole: first item %+v", c.query, w)
			}
		}
		// A name match only (no section holds the word) keeps it whole.
		res, err := eng.Retrieve(ctx, retrieve.Request{Query: "guide", Budget: retrieve.Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		if got := keys(res.Items); !slices.Equal(got, []string{"hit notes:guide", "link notes:linux-tips", "link notes:usage-tips"}) {
			t.Errorf("name match: %q", got)
		}
	})
}

// Two long notes that match: whole, the second is cut by the budget (and
// the short note after it); as sections, all three fit.
func TestSectionHitsBudget(t *testing.T) {
	other := strings.ReplaceAll(strings.ReplaceAll(guide, "guide", "manual"), "apt on Debian", "apt on Ubuntu")
	es := append(sectionEntries(), store.Entry{Category: "notes", Name: "manual", Content: other})
	sectionStores(t, es, func(t *testing.T, eng *retrieve.Engine) {
		ctx := context.Background()
		req := retrieve.Request{Query: "install apt", NoLinks: true, Explain: true}
		whole := req
		whole.WholeEntries = true
		w, err := eng.Retrieve(ctx, whole)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.Items) != 1 || len(w.Dropped) != 2 {
			t.Fatalf("whole: %q, %d tokens, %d dropped; want one item, two dropped", keys(w.Items), w.BudgetUsed, len(w.Dropped))
		}
		s, err := eng.Retrieve(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"hit notes:guide § Install > On Linux", "hit notes:manual § Install > On Linux", "hit notes:short"}
		if got := keys(s.Items); !slices.Equal(got, want) || s.BudgetUsed > retrieve.DefaultBudget || len(s.Dropped) != 0 {
			t.Errorf("sections: %q, %d tokens, %d dropped; want %q within %d", got, s.BudgetUsed, len(s.Dropped), want, retrieve.DefaultBudget)
		}
	})
}

// With WholeEntries every golden answer is byte for byte today's, and a
// store with no long sectioned entry (the sample memory) answers the same
// without it.
func TestSectionsGoldenWholeEntries(t *testing.T) {
	st, err := fs.Open(sample.Copy(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	eng := retrieve.New(st, retrieve.Options{})
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, path := range files {
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var g struct {
			Request retrieve.Request `json:"request"`
		}
		if err := json.Unmarshal(want, &g); err != nil {
			t.Fatal(err)
		}
		for _, whole := range []bool{true, false} {
			req := g.Request
			req.WholeEntries = whole
			res, err := eng.Retrieve(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(struct {
				Request retrieve.Request `json:"request"`
				Result  *retrieve.Result `json:"result"`
			}{g.Request, res}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s (whole entries %v) differs:\n%s", path, whole, buf.String())
			}
		}
	}
}
