package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
)

// A backup killed with SIGKILL at any moment (a real `recall backup`
// process) leaves the source untouched, and leaves at DEST either
// nothing or a complete backup: never a half-written one under the
// final name. Only a "<DEST>.partial-…" temporary may remain.
func TestBackupKilledMidway(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and a large store")
	}
	bin := recallBinary(t)
	ctx := context.Background()
	const n = 20000
	content := strings.Repeat("a memory worth keeping, ", 40) // about 1 KB
	src := filepath.Join(t.TempDir(), "src.db")
	st, err := boltstore.Open(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	batch := make([]store.Entry, 0, 1000)
	for i := range n {
		batch = append(batch, store.Entry{Category: fmt.Sprintf("c%02d", i%50), Name: fmt.Sprint(i), Content: content})
		if len(batch) == cap(batch) {
			if err := st.PutBatch(ctx, batch); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	rev, _ := st.Revision(ctx)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	srcBytes, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}

	killed := 0
	for _, dest := range []string{"b.db", "b.jsonl", "folder"} {
		for _, delay := range []time.Duration{20 * time.Millisecond, 60 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond, 2 * time.Second} {
			dir := t.TempDir()
			out := filepath.Join(dir, dest)
			cmd := exec.Command(bin, "--store", src, "backup", out)
			cmd.Env = childEnv(t)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("%s: backup failed: %v", dest, err)
				}
			case <-time.After(delay):
				_ = cmd.Process.Signal(syscall.SIGKILL)
				if err := <-done; err != nil {
					killed++
				}
			}
			checkBackupDir(t, dir, dest, n)
		}
	}
	if killed == 0 {
		t.Error("no backup was killed before it ended: the test proved nothing")
	}
	t.Logf("%d of 15 backups killed midway", killed)
	after, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(srcBytes) {
		t.Error("the source file changed")
	}
	st, err = boltstore.Open(src, nil)
	if err != nil {
		t.Fatalf("source does not open: %v", err)
	}
	defer st.Close()
	if r, _ := st.Revision(ctx); r != rev {
		t.Errorf("source revision %d, want %d", r, rev)
	}
}

// checkBackupDir asserts that dir holds nothing but temporaries, or a
// complete backup named dest.
func checkBackupDir(t *testing.T, dir, dest string, n int) {
	t.Helper()
	ctx := context.Background()
	names, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range names {
		if e.Name() != dest && !strings.HasPrefix(e.Name(), dest+".partial-") {
			t.Errorf("%s: unexpected %s", dest, e.Name())
		}
	}
	out := filepath.Join(dir, dest)
	if _, err := os.Lstat(out); err != nil {
		return // killed before the rename: nothing under the final name
	}
	count := 0
	switch {
	case strings.HasSuffix(dest, ".db"):
		b, err := boltstore.Open(out, nil)
		if err != nil {
			t.Fatalf("%s: a backup under the final name does not open: %v", dest, err)
		}
		for _, err := range b.All(ctx) {
			if err != nil {
				t.Fatalf("%s: %v", dest, err)
			}
			count++
		}
		b.Close()
	case strings.HasSuffix(dest, ".jsonl"):
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := importer.ReadJSONL(ctx, f, out)
		f.Close()
		if err != nil || len(plan.Skipped) > 0 {
			t.Fatalf("%s: %v %v", dest, err, plan.Skipped)
		}
		count = len(plan.Items)
	default:
		fs, err := fsstore.Open(out, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range fs.All(ctx) {
			if err != nil {
				t.Fatalf("%s: %v", dest, err)
			}
			count++
		}
		fs.Close()
	}
	if count != n {
		t.Errorf("%s: a backup under the final name holds %d entries, want %d", dest, count, n)
	}
}
