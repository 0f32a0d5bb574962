package importer

import (
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Front matter as real vaults carry it (issue 24, docs/benchmarks.md "Real
// vaults"): a time without a zone ("created: 2025-12-06T23:31:33", the
// form of 346 notes of one vault) was refused, so the note came in
// without its tags, aliases and property links; a blank tag ("", "#")
// made the import skip the note. Now each is imported whole, times read
// as UTC, blank tags dropped.
func TestImportRealFrontMatter(t *testing.T) {
	vault := filepath.Join(t.TempDir(), "vault")
	writeFile(t, filepath.Join(vault, "reports", "zoneless.md"),
		"---\ncreated: 2025-12-06T23:31:33\nmodified: 2025-12-06T23:31:33\ntags:\n  - type/report\nyear: \"[[2025]]\"\n---\nA report.\n")
	writeFile(t, filepath.Join(vault, "reports", "space.md"),
		"---\ncreated: 2024-01-05 10:30\ntags: [a]\n---\nMinutes only.\n")
	writeFile(t, filepath.Join(vault, "blank.md"), "---\ntags: [\"\"]\n---\nA template's empty tag.\n")
	writeFile(t, filepath.Join(vault, "hash.md"), "---\ntags:\n  - \"#\"\n  - real\n---\nA lone hash.\n")
	writeFile(t, filepath.Join(vault, "2025.md"), "The year.\n")

	p, err := ReadVault(ctx, vault, VaultOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Skipped) != 0 || len(p.Warnings) != 0 {
		t.Errorf("skipped %v, warnings %v; want none", p.Skipped, p.Warnings)
	}
	for name, st := range stores(t) {
		rep, err := p.Write(ctx, st, WriteOptions{})
		if err != nil || rep.Added != 5 || len(rep.Rejected) != 0 {
			t.Fatalf("%s: %+v, %v", name, rep, err)
		}
		e, err := st.Get(ctx, "reports", "zoneless")
		if err != nil {
			t.Fatal(err)
		}
		if want := time.Date(2025, 12, 6, 23, 31, 33, 0, time.UTC); !e.Meta.Created.Equal(want) {
			t.Errorf("%s: zoneless created %v, want %v", name, e.Meta.Created, want)
		}
		if !slices.Equal(e.Meta.Tags, []string{"type/report"}) || e.Meta.Extra["year"] != "[[2025]]" {
			t.Errorf("%s: zoneless tags %q, extra %v", name, e.Meta.Tags, e.Meta.Extra)
		}
		e, err = st.Get(ctx, "reports", "space")
		if want := time.Date(2024, 1, 5, 10, 30, 0, 0, time.UTC); err != nil || !e.Meta.Created.Equal(want) {
			t.Errorf("%s: space created %v, %v; want %v", name, e.Meta.Created, err, want)
		}
		e, err = st.Get(ctx, "_root", "blank")
		if err != nil || len(e.Meta.Tags) != 0 {
			t.Errorf("%s: blank tags %q, %v", name, e.Meta.Tags, err)
		}
		e, err = st.Get(ctx, "_root", "hash")
		if err != nil || !slices.Equal(e.Meta.Tags, []string{"real"}) {
			t.Errorf("%s: hash tags %q, %v", name, e.Meta.Tags, err)
		}
	}
}
