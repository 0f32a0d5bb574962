package render_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

func TestWriteReindexReport(t *testing.T) {
	var out, diag strings.Builder
	rep := service.ReindexReport{BuildStats: retrieve.BuildStats{Entries: 1}, Took: 1500 * time.Nanosecond}
	if err := render.WriteReindexReport(&out, &diag, rep, "english"); err != nil {
		t.Fatal(err)
	}
	if out.String() != "indexed 1 entry in 2µs (analyzer english)\n" || diag.Len() != 0 {
		t.Errorf("stdout %q, stderr %q", out.String(), diag.String())
	}
	out.Reset()
	rep.Entries, rep.Skipped = 3, []error{errors.New("notes:a: bad\nyaml"), errors.New("notes:b: bad")}
	err := render.WriteReindexReport(&out, &diag, rep, "spec")
	if err == nil || err.Error() != "reindex: 2 entries could not be read" {
		t.Errorf("error %v", err)
	}
	if out.String() != "indexed 3 entries in 2µs (analyzer spec)\n" || diag.String() != "skipped notes:a: bad yaml\nskipped notes:b: bad\n" {
		t.Errorf("stdout %q, stderr %q", out.String(), diag.String())
	}
}

// Entries read with their front matter kept verbatim are warned about, one
// line each, as ls --long does; they are not skips (issue 24).
func TestWriteReindexReportUnparsed(t *testing.T) {
	var out, diag strings.Builder
	rep := service.ReindexReport{BuildStats: retrieve.BuildStats{Entries: 2}, Took: time.Microsecond, Unparsed: []store.Entry{
		{Category: "notes", Name: "tmpl", Meta: store.Meta{Extra: map[string]any{store.UnparsedFrontMatter: "---\ntitle: {{title}}\n---\n"}}},
		{Category: "notes", Name: "fine", Meta: store.Meta{Extra: map[string]any{store.UnparsedFrontMatter: "an ordinary value"}}},
	}}
	if err := render.WriteReindexReport(&out, &diag, rep, "english"); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(diag.String(), "warning: notes:tmpl: front matter: ") || strings.Count(diag.String(), "\n") != 1 ||
		!strings.HasSuffix(diag.String(), "; kept verbatim, read without its properties\n") {
		t.Errorf("stderr %q", diag.String())
	}
}
