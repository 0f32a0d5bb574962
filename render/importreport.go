package render

import (
	"fmt"
	"io"

	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/service"
)

// WriteImportReport writes what `recall import` says on stderr once an
// import is over: a line "skipped ..." for each line, note or record that
// was skipped on reading (plan) or refused on writing (rep), then the
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
	fmt.Fprintf(w, "imported %d, unchanged %d, skipped %d", rep.Imported(), rep.Unchanged, len(plan.Skipped)+len(rep.Rejected))
	if ig := plan.Ignored; ig.Total() > 0 {
		fmt.Fprintf(w, ", ignored %d (%s)", ig.Total(), ig)
	}
	fmt.Fprintln(w)
	writeImportDuplicates(w, dups)
}
