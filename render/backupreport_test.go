package render

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/recallhq/recall/backup"
)

func TestBackupReports(t *testing.T) {
	var b bytes.Buffer
	WriteUnreadable(&b, []string{"c:bad: checksum mismatch"})
	WriteExportSummary(&b, "exported", backup.Report{Entries: 1})
	WriteRestoreSummary(&b, backup.RestoreReport{Restored: 2})
	WriteRestoreSummary(&b, backup.RestoreReport{Restored: 1, Deleted: 3})
	want := "unreadable c:bad: checksum mismatch\nexported 1 entry\nrestored 2 entries\nrestored 1 entry, deleted 3 not in the backup\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}

// The reports that end an export and a restore: the unreadable entries
// first, the summary only without an error, and an error for entries left
// out.
func TestExportAndRestoreReports(t *testing.T) {
	failed := errors.New("disk full")
	for _, tt := range []struct {
		name    string
		write   func(w *bytes.Buffer) error
		out     string
		wantErr string
	}{
		{"export", func(w *bytes.Buffer) error { return WriteExportReport(w, "exported", backup.Report{Entries: 2}, nil) }, "exported 2 entries\n", ""},
		{"export with one unreadable", func(w *bytes.Buffer) error {
			return WriteExportReport(w, "exported", backup.Report{Entries: 1, Unreadable: []string{"c:x: bad"}}, nil)
		}, "unreadable c:x: bad\nexported 1 entry\n", "1 entry could not be read and is not in the output"},
		{"export with two unreadable", func(w *bytes.Buffer) error {
			return WriteExportReport(w, "exported", backup.Report{Unreadable: []string{"a", "b"}}, nil)
		}, "unreadable a\nunreadable b\nexported 0 entries\n", "2 entries could not be read and are not in the output"},
		{"export failed", func(w *bytes.Buffer) error {
			return WriteExportReport(w, "exported", backup.Report{Unreadable: []string{"a"}}, failed)
		}, "unreadable a\n", "disk full"},
		{"restore", func(w *bytes.Buffer) error { return WriteRestoreReport(w, backup.RestoreReport{Restored: 1}, nil) }, "restored 1 entry\n", ""},
		{"restore with unreadable", func(w *bytes.Buffer) error {
			return WriteRestoreReport(w, backup.RestoreReport{Restored: 1, Unreadable: []string{"a", "b"}}, nil)
		}, "unreadable a\nunreadable b\nrestored 1 entry\n", "2 entries of the backup could not be read"},
		{"restore failed", func(w *bytes.Buffer) error { return WriteRestoreReport(w, backup.RestoreReport{}, failed) }, "", "disk full"},
		{"backup snapshot", func(w *bytes.Buffer) error {
			return WriteBackupReport(w, "m.db", backup.Report{Format: backup.FormatSnapshot, Bytes: 32768}, nil)
		}, "backup m.db: snapshot of 32768 bytes\n", ""},
		{"backup jsonl", func(w *bytes.Buffer) error {
			return WriteBackupReport(w, "m.jsonl", backup.Report{Format: backup.FormatJSONL, Entries: 2}, nil)
		}, "backup m.jsonl: jsonl, 2 entries\n", ""},
		{"backup failed", func(w *bytes.Buffer) error {
			return WriteBackupReport(w, "m.db", backup.Report{Format: backup.FormatSnapshot}, failed)
		}, "", "disk full"},
	} {
		var b bytes.Buffer
		err := tt.write(&b)
		if b.String() != tt.out || fmt.Sprint(err) != map[bool]string{true: "<nil>", false: tt.wantErr}[tt.wantErr == ""] {
			t.Errorf("%s: wrote %q, %v; want %q, %q", tt.name, b.String(), err, tt.out, tt.wantErr)
		}
	}
}
