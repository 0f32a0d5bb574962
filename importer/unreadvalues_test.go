package importer_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/backup"
	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
)

// unreadNote has valid YAML front matter whose created, updated and tags
// recall cannot read, as real vault notes have them.
const unreadNote = "---\n" +
	"up: \"[[Parent]]\"\n" +
	"aliases: [Bee]\n" +
	"created: undefined\n" +
	"updated: <% tp.date.now(\"YYYY-MM-DD\") %>\n" +
	"tags:\n" +
	"  a: 1\n" +
	"---\n" +
	"body\n"

// A folder imported into bolt keeps such a note's properties (on the old
// code it was imported with the whole block as unparsed_front_matter and
// no aliases or up) and its unreadable lines, which an export to a folder
// writes back as they were, and a JSONL export carries.
func TestImportUnreadValuesRoundTrip(t *testing.T) {
	ctx := context.Background()
	vault := t.TempDir()
	for name, text := range map[string]string{"Bee.md": unreadNote, "Parent.md": "parent\n"} {
		if err := os.WriteFile(filepath.Join(vault, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := importer.ReadVault(ctx, vault, importer.VaultOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var warns []string
	for _, w := range p.Warnings {
		warns = append(warns, filepath.Base(w.Where)+": "+w.Reason)
	}
	wantWarns := []string{
		`Bee.md: front matter: tags: line 7: is a mapping, want a list of tags ("a: 1"); kept as written, the value is ignored`,
		`Bee.md: front matter: created: line 4: "undefined" is not a time such as 2024-03-01T09:30:00Z; kept as written, the value is ignored`,
		`Bee.md: front matter: updated: line 5: "<% tp.date.now(\"YYYY-MM-DD\") %>" is not a time such as 2024-03-01T09:30:00Z; kept as written, the value is ignored`,
	}
	if !slices.Equal(warns, wantWarns) || len(p.Skipped) != 0 {
		t.Errorf("warnings\n%q\nwant\n%q (skipped %v)", warns, wantWarns, p.Skipped)
	}
	db, err := boltstore.Open(filepath.Join(t.TempDir(), "memory.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if rep, err := p.Write(ctx, db, importer.WriteOptions{}); err != nil || rep.Added != 2 {
		t.Fatalf("%+v, %v", rep, err)
	}
	e, err := db.Get(ctx, importer.RootCategory, "Bee")
	if err != nil {
		t.Fatal(err)
	}
	if e.Meta.Extra["up"] != "[[Parent]]" || !slices.Equal(store.Aliases(e.Meta), []string{"Bee"}) || e.Meta.Created.IsZero() || len(e.Meta.Tags) != 0 {
		t.Errorf("in bolt: %+v", e.Meta)
	}
	// Again: unchanged, into bolt and into a folder store (whose file
	// has the kept lines elsewhere than the vault's note).
	if rep, err := p.Write(ctx, db, importer.WriteOptions{}); err != nil || rep.Unchanged != 2 {
		t.Errorf("re-import: %+v, %v", rep, err)
	}
	folder, err := fsstore.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer folder.Close()
	for i, want := range []int{2, 0} {
		if rep, err := p.Write(ctx, folder, importer.WriteOptions{}); err != nil || rep.Added != want || rep.Unchanged != 2-want {
			t.Errorf("import %d into a folder: %+v, %v", i+1, rep, err)
		}
	}

	out := filepath.Join(t.TempDir(), "export")
	if _, err := backup.Backup(ctx, db, out, backup.Options{}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, "Bee.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"\ncreated: undefined\n", "\nupdated: <% tp.date.now(\"YYYY-MM-DD\") %>\n", "\ntags:\n  a: 1\n", "\nup: '[[Parent]]'\n"} {
		if !strings.Contains(string(got), line) {
			t.Errorf("exported note lacks %q:\n%s", line, got)
		}
	}
	if strings.Count(string(got), "created:") != 1 || strings.Count(string(got), "updated:") != 1 {
		t.Errorf("exported note has its own created/updated besides the kept ones:\n%s", got)
	}
	back, content, err := fsstore.ParseEntry(got)
	if err != nil || content != "body\n" || len(fsstore.UnparsedWarnings(back)) != 3 || back.Extra["up"] != "[[Parent]]" {
		t.Errorf("exported note reads back as %+v %q, %v", back.Extra, content, err)
	}

	var buf bytes.Buffer
	if _, err := backup.WriteJSONL(ctx, db, &buf, backup.Options{}); err != nil {
		t.Fatal(err)
	}
	jp, err := importer.ReadJSONL(ctx, &buf, "export.jsonl")
	if err != nil || len(jp.Skipped) != 0 {
		t.Fatalf("%v, %v", jp.Skipped, err)
	}
	for _, it := range jp.Items {
		if it.Entry.Name == "Bee" && !importer.Equal(it.Entry, e) {
			t.Errorf("JSONL round trip: %+v\nwant %+v", it.Entry.Meta, e.Meta)
		}
	}
}
