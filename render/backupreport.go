package render

import (
	"errors"
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

// WriteExportReport ends an export or a JSONL or folder backup that gave
// rep and err: each unreadable entry, then, when err is nil, the summary
// (WriteExportSummary). It returns err, else an error when entries could
// not be read (they are not in the output), else nil.
func WriteExportReport(w io.Writer, verb string, rep backup.Report, err error) error {
	WriteUnreadable(w, rep.Unreadable)
	if err != nil {
		return err
	}
	WriteExportSummary(w, verb, rep)
	switch n := len(rep.Unreadable); n {
	case 0:
		return nil
	case 1:
		return errors.New("1 entry could not be read and is not in the output")
	default:
		return fmt.Errorf("%d entries could not be read and are not in the output", n)
	}
}

// WriteRestoreReport ends a restore that gave rep and err: each unreadable
// entry of the backup, then, when err is nil, the summary
// (WriteRestoreSummary). It returns err, else an error when entries of the
// backup could not be read, else nil.
func WriteRestoreReport(w io.Writer, rep backup.RestoreReport, err error) error {
	WriteUnreadable(w, rep.Unreadable)
	if err != nil {
		return err
	}
	WriteRestoreSummary(w, rep)
	if n := len(rep.Unreadable); n > 0 {
		return fmt.Errorf("%s of the backup could not be read", Plural(n, "entry", "entries"))
	}
	return nil
}

// WriteBackupReport ends `recall backup DEST` that gave rep and err: a
// snapshot's size, else WriteExportReport's lines for the JSONL or folder
// written. It returns what WriteExportReport returns (nil for a
// snapshot).
func WriteBackupReport(w io.Writer, dest string, rep backup.Report, err error) error {
	if err == nil && rep.Format == backup.FormatSnapshot {
		fmt.Fprintf(w, "backup %s: snapshot of %d bytes\n", dest, rep.Bytes)
		return nil
	}
	return WriteExportReport(w, "backup "+dest+": "+rep.Format.String()+",", rep, err)
}
