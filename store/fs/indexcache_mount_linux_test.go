package fs

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// TestAllStampedNoStampOnAnotherFileSystem: the racy-clean rule compares a
// file's times with the probe's, which the root's file system stamped. A
// category folder that is a mount point of another file system has its
// own clock granularity (FAT's two seconds, ext3's one), where an edit
// after the stat can keep the stamp; its files get no stamp, so they are
// read at every start. Needs a tmpfs mount (root).
func TestAllStampedNoStampOnAnotherFileSystem(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	mnt := filepath.Join(root, "mounted")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "recall-test", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	s := mustOpen(t, root)
	for _, e := range []store.Entry{
		{Category: "mounted", Name: "a", Content: "on the tmpfs"},
		{Category: "local", Name: "b", Content: "on the root's file system"},
	} {
		if err := s.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	// Well past the files' times, so that neither is racily clean.
	past := time.Now().Add(-time.Hour)
	for _, p := range []string{filepath.Join(mnt, "a.md"), filepath.Join(root, "local", "b.md")} {
		if err := os.Chtimes(p, past, past); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(20 * time.Millisecond)
	stamps := map[string]string{}
	for it, err := range s.AllStamped(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		stamps[it.Entry.Category] = it.Stamp
	}
	if stamps["local"] == "" {
		t.Error("a file on the root's file system got no stamp")
	}
	if stamps["mounted"] != "" {
		t.Error("a file on another file system got a stamp")
	}
}
