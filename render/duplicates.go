package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/recallhq/recall/service"
)

// WriteChange writes a write's report line, "added notes:milk", and, when
// the written content duplicates other entries (docs/duplicates.md), one
// more line naming them: "duplicates: notes:oat milk, shop:milk".
func WriteChange(w io.Writer, c service.Change) {
	fmt.Fprintf(w, "%s %s:%s\n", c.Status, c.Category, c.Name) // as it always read
	if len(c.Duplicates) > 0 {
		fmt.Fprintf(w, "duplicates: %s\n", service.Visible(strings.Join(c.Duplicates, ", ")))
	}
}

// writeImportDuplicates is the import report's duplicates line.
func writeImportDuplicates(w io.Writer, d service.Duplicates) {
	if d.Count == 0 {
		return
	}
	pairs := make([]string, len(d.First))
	for i, p := range d.First {
		pairs[i] = p[0] + " = " + p[1]
	}
	more := ""
	if len(d.First) == service.MaxReportedDuplicates && d.Count > len(d.First) {
		more = ", ..."
	}
	fmt.Fprintf(w, "duplicates %d: %s%s\n", d.Count, service.Visible(strings.Join(pairs, ", ")), more)
}
