package render

import (
	"bytes"
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
