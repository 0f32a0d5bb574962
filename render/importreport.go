package render

import (
	"fmt"
	"io"

	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	fsstore "github.com/recallhq/recall/store/fs"
)

// WriteImportReport writes what `recall import` says on stderr once an
// import is over: a line "skipped ..." for each line, note or record that
// was skipped on reading (plan) or refused on writing (rep), a line
// "warning: ..." for each note imported with its front matter kept
// verbatim (plan.Warnings), then the
// summary "imported N, unchanged U, skipped S" and, for a folder, what was
// ignored, then, when entries of the import duplicate others
// (docs/duplicates.md), "duplicates N: a = b, ..." naming the first few.
// rep is zero when nothing was written.
func WriteImportReport(w io.Writer, plan *importer.Plan, rep importer.Report, dups service.Duplicates) {
	for _, s := range plan.Skipped {
		fmt.Fprintf(w, "skipped %s\n", s)
	}
	for _, s := range rep.Rejected {
		fmt.Fprintf(w, "skipped %s\n", s)
	}
	for _, s := range plan.Warnings {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
	fmt.Fprintf(w, "imported %d, unchanged %d, skipped %d", rep.Imported(), rep.Unchanged, len(plan.Skipped)+len(rep.Rejected))
	if ig := plan.Ignored; ig.Total() > 0 {
		fmt.Fprintf(w, ", ignored %d (%s)", ig.Total(), ig)
	}
	fmt.Fprintln(w)
	writeImportDuplicates(w, dups)
}

// WriteFrontMatterWarnings writes, for each entry whose front matter a
// folder store could not read in full, a line per problem
// (fsstore.UnparsedWarnings): "warning: category:name: <why>; kept
// verbatim, read without its properties" for a block that does not parse
// (store.UnparsedFrontMatter), "warning: category:name: front matter:
// created: line 2: ...; kept as written, the value is ignored" for a value
// recall cannot read (store.UnparsedKeys). What `recall ls` says when it
// reads the entries (--long, --json), and `recall reindex`.
func WriteFrontMatterWarnings(w io.Writer, entries []store.Entry) {
	for _, e := range entries {
		for _, p := range fsstore.UnparsedWarnings(e.Meta) {
			fmt.Fprintf(w, "warning: %s: %s\n", service.Visible(store.DisplayKey(e.Key())), service.OneLine(p))
		}
	}
}
