package fs

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/recallhq/recall/store"
)

// TestPutBatchSyncsFilesOnAnotherFileSystem: syncfs(2) of the root's file
// system does not write back a category folder that is a mount point of
// another one, so PutBatch fsyncs each temp file there before its rename,
// as it does where syncfs cannot be trusted. Needs a tmpfs mount (root).
func TestPutBatchSyncsFilesOnAnotherFileSystem(t *testing.T) {
	root := t.TempDir()
	if !canSyncFS(root) {
		t.Skip("the temp folder's file system is not one syncfs covers")
	}
	mnt := filepath.Join(root, "mounted")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "recall-test", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	s, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.syncFS {
		t.Fatal("syncfs not used on the root")
	}
	var (
		mu     sync.Mutex
		synced = map[string]int{}
	)
	testHookTempSynced = func(final string) {
		mu.Lock()
		synced[filepath.Base(filepath.Dir(final))]++
		mu.Unlock()
	}
	t.Cleanup(func() { testHookTempSynced = nil })
	if err := s.PutBatch(ctx, []store.Entry{
		{Category: "mounted", Name: "a", Content: "on the tmpfs"},
		{Category: "mounted", Name: "b", Content: "on the tmpfs too"},
		{Category: "local", Name: "c", Content: "on the root's file system"},
	}); err != nil {
		t.Fatal(err)
	}
	if synced["mounted"] != 2 || synced["local"] != 0 {
		t.Errorf("temp files fsynced by folder: %v, want mounted:2 (syncfs does not cover them) and local:0", synced)
	}
}
