package render

import (
	"fmt"
	"io"

	"github.com/recallhq/recall/backup"
)

// WriteUnreadable writes a line "unreadable WHERE: REASON" for each entry
// an export, backup or restore could not read (backup.Report.Unreadable,
// backup.RestoreReport.Unreadable).
func WriteUnreadable(w io.Writer, unreadable []string) {
	for _, u := range unreadable {
		fmt.Fprintf(w, "unreadable %s\n", u)
	}
}

// WriteExportSummary writes the line that ends an export or a JSONL or
// folder backup: verb, then the count, "exported 3 entries".
func WriteExportSummary(w io.Writer, verb string, rep backup.Report) {
	fmt.Fprintf(w, "%s %s\n", verb, Plural(rep.Entries, "entry", "entries"))
}

// WriteRestoreSummary writes the line that ends a restore: "restored 3
// entries", and with a forced restore ", deleted N not in the backup".
func WriteRestoreSummary(w io.Writer, rep backup.RestoreReport) {
	fmt.Fprintf(w, "restored %s", Plural(rep.Restored, "entry", "entries"))
	if rep.Deleted > 0 {
		fmt.Fprintf(w, ", deleted %d not in the backup", rep.Deleted)
	}
	fmt.Fprintln(w)
}
