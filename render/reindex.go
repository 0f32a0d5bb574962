package render

import (
	"fmt"
	"io"
	"time"

	"github.com/recallhq/recall/service"
)

// WriteReindexReport writes what `recall reindex` prints: on diag a line
// for each entry it could not read (Skips), then on w "indexed N entries in
// T (analyzer A)" and the new index's validity problems
// (WriteValidityProblems), then on diag a warning for each entry whose
// front matter was kept verbatim (WriteFrontMatterWarnings, as `recall ls`
// says it). It returns the error that ends the command when
// entries were skipped ("reindex: 2 entries could not be read").
func WriteReindexReport(w, diag io.Writer, rep service.ReindexReport, analyzer string) error {
	skips := &Skips{W: diag}
	for _, e := range rep.Skipped {
		skips.Add(e)
	}
	fmt.Fprintf(w, "indexed %s in %v (analyzer %s)\n",
		Plural(rep.Entries, "entry", "entries"), rep.Took.Round(time.Microsecond), analyzer)
	if rep.Validity != nil {
		if err := WriteValidityProblems(w, rep.Validity); err != nil {
			return err
		}
	}
	WriteFrontMatterWarnings(diag, rep.Unparsed)
	return skips.Err("reindex")
}
