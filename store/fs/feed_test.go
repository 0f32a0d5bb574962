package fs

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/storetest"
)

func TestChangeFeedConformance(t *testing.T) {
	storetest.RunChangeFeed(t, func(t *testing.T) store.Store {
		s, err := Open(t.TempDir(), &Options{ChangeLogSize: 64})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}, 64)
}

// The watch enters outside edits into the feed by key, file by file, for
// each kind of edit, with events alone and with the scan alone.
func TestChangeFeedOutsideEdits(t *testing.T) {
	modes := []struct {
		name string
		opts WatchOptions
	}{
		{"events", WatchOptions{Debounce: 20 * time.Millisecond, ScanInterval: -1}},
		{"scan", WatchOptions{Debounce: 20 * time.Millisecond, ScanInterval: 50 * time.Millisecond, NoEvents: true}},
	}
	edits := []struct {
		name string
		do   func(t *testing.T, root string)
		want string
	}{
		{"new file", func(t *testing.T, root string) {
			writeFile(t, filepath.Join(root, "notes", "b.md"), "added by hand")
		}, "[notes:b]"},
		{"edit in place", func(t *testing.T, root string) {
			f, err := os.OpenFile(filepath.Join(root, "notes", "a.md"), os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(" and appended")
			f.Close()
		}, "[notes:a]"},
		{"nested file", func(t *testing.T, root string) {
			writeFile(t, filepath.Join(root, "projects", "harbor", "plan.md"), "nested category")
		}, "[projects/harbor:plan]"},
		{"folder moved in", func(t *testing.T, root string) {
			tmp := filepath.Join(t.TempDir(), "moved")
			writeFile(t, filepath.Join(tmp, "x.md"), "x")
			writeFile(t, filepath.Join(tmp, "sub", "y.md"), "y")
			if err := os.Rename(tmp, filepath.Join(root, "moved")); err != nil {
				t.Skipf("cannot move a folder into the store: %v", err)
			}
		}, "[moved/sub:y moved:x]"},
		{"folder removed", func(t *testing.T, root string) {
			if err := os.RemoveAll(filepath.Join(root, "moved")); err != nil {
				t.Fatal(err)
			}
		}, "[moved/sub:y moved:x]"},
		{"rename", func(t *testing.T, root string) {
			if err := os.Rename(filepath.Join(root, "notes", "b.md"), filepath.Join(root, "notes", "e.md")); err != nil {
				t.Fatal(err)
			}
		}, "[notes:b notes:e]"},
		{"ignored files", func(t *testing.T, root string) {
			writeFile(t, filepath.Join(root, "notes", "draft.txt"), "not an entry")
			writeFile(t, filepath.Join(root, ".git", "HEAD"), "not an entry")
			writeFile(t, filepath.Join(root, "notes", "last.md"), "an entry")
		}, "[notes:last]"},
		{"root and nested notes", func(t *testing.T, root string) {
			writeFile(t, filepath.Join(root, "README.md"), "in the root: an entry of RootCategory")
			writeFile(t, filepath.Join(root, "trips", "2024", "spring", "Kyoto Trip.md"), "three levels down")
		}, "[_root:README trips/2024/spring:Kyoto Trip]"},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, "notes", "a.md"), "written before the watch")
			s, _ := openWatched(t, root, m.opts)
			rev, _ := s.Revision(ctx)
			for _, e := range edits {
				e.do(t, root)
				// Wait for the burst to end: everything the edit touched is
				// in the feed once the revision has stayed put a while.
				deadline := time.Now().Add(watchDeadline)
				var got string
				for {
					cs, err := s.Changes(ctx, rev)
					if err != nil {
						t.Fatal(err)
					}
					if cs.Reset {
						t.Fatalf("%s: Reset", e.name)
					}
					got = fmt.Sprint(sortedKeys(cs.Keys))
					if got == e.want || time.Now().After(deadline) {
						break
					}
					time.Sleep(5 * time.Millisecond)
				}
				if got != e.want {
					t.Errorf("%s: feed lists %s, want %s", e.name, got, e.want)
				}
				time.Sleep(3 * m.opts.Debounce)
				rev, _ = s.Revision(ctx)
			}
		})
	}
}

// Writes through the Store are in the feed at once, before Put returns,
// and the watch does not enter them a second time.
func TestChangeFeedOwnWritesWatched(t *testing.T) {
	root := t.TempDir()
	s, _ := openWatched(t, root, WatchOptions{Debounce: 20 * time.Millisecond, ScanInterval: 30 * time.Millisecond})
	r0, _ := s.Revision(ctx)
	for i := range 5 {
		if err := s.Put(ctx, store.Entry{Category: "own", Name: fmt.Sprint(i), Content: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Delete(ctx, "own", "0"); err != nil && !os.IsNotExist(err) {
		t.Logf("delete in a nested category: %v", err)
	}
	r1, _ := s.Revision(ctx)
	if cs, _ := s.Changes(ctx, r0); len(cs.Keys) != 5 {
		t.Errorf("own writes: feed lists %v", cs.Keys)
	}
	// The watch handles its events in order: once an outside write made
	// after them is reported, the events of the own writes have been seen,
	// and the report must hold the outside write alone.
	writeFile(t, filepath.Join(root, "outside.md"), "written behind the store's back")
	waitRevision(t, s, r1, "an outside write after the own writes")
	cs, err := s.Changes(ctx, r1)
	if err != nil || cs.Reset || fmt.Sprint(sortedKeys(cs.Keys)) != "[_root:outside]" {
		t.Errorf("the watch counted own writes: changes since %d: %+v, %v; want _root:outside alone", r1, cs, err)
	}
}

// When the kernel drops events (queue overflow) the watch cannot tell
// what changed: the burst ends with a Reset for every reader behind it.
func TestChangeFeedLostEvents(t *testing.T) {
	s := openTemp(t)
	if err := s.Put(ctx, store.Entry{Category: "c", Name: "a", Content: "a"}); err != nil {
		t.Fatal(err)
	}
	r0, _ := s.Revision(ctx)
	w := &watcher{s: s, opts: WatchOptions{}.withDefaults(true)}
	w.touch(filepath.Join(s.root, "c", "b.md"))
	w.lost = true // what run does on fsnotify.ErrEventOverflow
	if !w.flush() {
		t.Fatal("flush reported nothing")
	}
	r1, _ := s.Revision(ctx)
	if cs, _ := s.Changes(ctx, r0); r1 <= r0 || !cs.Reset {
		t.Errorf("after lost events: revision %d → %d, Changes(%d) = %+v; want a raise and Reset", r0, r1, r0, cs)
	}
	if cs, _ := s.Changes(ctx, r1); cs.Reset || len(cs.Keys) != 0 {
		t.Errorf("Changes(%d) = %+v, want empty", r1, cs)
	}
	if w.flush() {
		t.Error("a second flush with nothing pending raised the revision")
	}
}
