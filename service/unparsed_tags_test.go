package service_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store/fs"
)

// TestUnparsedFrontMatterInlineTagsLinks: a note whose front matter does
// not parse (kept verbatim) still has the inline #tags and the links of
// its body; the property links written in the broken block are none
// (nothing of it is read), and the #tags inside it are no tags. An append
// keeps the block byte for byte and the tags follow the new text.
func TestUnparsedFrontMatterInlineTagsLinks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	block := "---\nexcerpt: a: b\nup: \"[[Parent]]\"\ntags: [#blocktag]\n---\n"
	files := map[string]string{
		"notes/Broken.md": block + "Harbor trip, #todo, see [[Other]].\n",
		"notes/Other.md":  "other note",
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
	items := func(tag string) []string {
		t.Helper()
		p := service.RetrieveParams{Query: "harbor"}
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
	if got, want := items(""), []string{"hit Broken", "link Other"}; !slices.Equal(got, want) {
		t.Errorf("links: %q, want %q", got, want)
	}
	if got, want := items("todo"), []string{"hit Broken", "link Other"}; !slices.Equal(got, want) {
		t.Errorf("--tag todo: %q, want %q", got, want)
	}
	if got := items("blocktag"); len(got) != 0 {
		t.Errorf("--tag blocktag (inside the unparsed block): %q, want none", got)
	}
	if _, err := m.Append(ctx, "notes", "Broken", "Later: #done"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "notes/Broken.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), block) || !strings.Contains(string(data), "#done") {
		t.Errorf("after append the file is %q", data)
	}
	if got, want := items("done"), []string{"hit Broken", "link Other"}; !slices.Equal(got, want) {
		t.Errorf("--tag done after append: %q, want %q", got, want)
	}
}
