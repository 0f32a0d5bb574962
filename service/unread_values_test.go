package service_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store/fs"
)

// TestUnreadValuesInPlace: a vault note whose front matter is valid YAML
// but whose created and updated recall cannot read (a template's
// placeholder, "undefined") keeps its tags, aliases and property links in
// a folder store opened in place: a retrieve follows its up link and
// finds it by its alias and tag. On the old code the whole block was kept
// verbatim and none of them was read. An append and an edit keep the
// front matter byte for byte and add no created or updated; reindex
// warns about each unreadable value.
func TestUnreadValuesInPlace(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	front := "---\n" +
		"up: \"[[Parent]]\"\n" +
		"aliases: [Honeybee]\n" +
		"tags: [insect]   # by hand\n" +
		"created: <% tp.date.now(\"YYYY-MM-DD\") %>\n" +
		"updated: undefined\n" +
		"---\n"
	files := map[string]string{
		"notes/Bee.md":    front + "Harbor hive notes.\n",
		"notes/Parent.md": "parent note",
	}
	for p, c := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := fs.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := service.New(st, service.Options{})
	defer m.Close()
	items := func(q, tag string) []string {
		t.Helper()
		p := service.RetrieveParams{Query: q}
		if tag != "" {
			p.Tags = []string{tag}
		}
		res, _, err := m.Retrieve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, it := range res.Items {
			out = append(out, string(it.Source)+" "+it.Name)
		}
		return out
	}
	if got, want := items("harbor", ""), []string{"hit Bee", "link Parent"}; !slices.Equal(got, want) {
		t.Errorf("property link: %q, want %q", got, want)
	}
	if got := items("honeybee", ""); len(got) == 0 || got[0] != "hit Bee" {
		t.Errorf("alias: %q, want Bee first", got)
	}
	if got := items("harbor", "insect"); len(got) == 0 || got[0] != "hit Bee" {
		t.Errorf("--tag insect: %q, want Bee", got)
	}
	path := filepath.Join(dir, "notes", "Bee.md")
	if _, err := m.Append(ctx, "notes", "Bee", "Later."); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Edit(ctx, "notes", "Bee", "hive", "apiary"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != front+"Harbor apiary notes.\nLater." {
		t.Errorf("after append and edit the file is\n%s", data)
	}
	e, err := st.Get(ctx, "notes", "Bee")
	if err != nil || !e.Meta.Created.IsZero() || !e.Meta.Updated.IsZero() {
		t.Errorf("created %v updated %v (%v), want none from the file", e.Meta.Created, e.Meta.Updated, err)
	}

	rep, err := service.Reindex(ctx, st, index.Default())
	if err != nil {
		t.Fatal(err)
	}
	var out, diag strings.Builder
	if err := render.WriteReindexReport(&out, &diag, service.ReindexReport{BuildStats: retrieve.BuildStats{Entries: rep.Entries}, Took: time.Microsecond, Unparsed: rep.Unparsed}, "english"); err != nil {
		t.Fatal(err)
	}
	want := `warning: notes:Bee: front matter: created: line 5: "<% tp.date.now(\"YYYY-MM-DD\") %>" is not a time such as 2024-03-01T09:30:00Z; kept as written, the value is ignored` + "\n" +
		`warning: notes:Bee: front matter: updated: line 6: "undefined" is not a time such as 2024-03-01T09:30:00Z; kept as written, the value is ignored` + "\n"
	if diag.String() != want {
		t.Errorf("reindex warnings\n%s\nwant\n%s", diag.String(), want)
	}
}
