package fs

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/recallhq/recall/store"
)

// watchDeadline bounds how long a test waits for a watch to notice a
// change. The mechanism needs well under a second (events) or one scan
// interval; the margin is for a loaded CI machine, not a target.
const watchDeadline = 10 * time.Second

// requireEvents skips a test of the event path where the system has no
// file system events to give (inotify instances exhausted, say): Watch
// then falls back to the scan, which other tests cover.
func requireEvents(t *testing.T) {
	t.Helper()
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Skipf("no file system events here: %v", err)
	}
	w.Close()
}

func openWatched(t *testing.T, root string, o WatchOptions) (*Store, *atomic.Int64) {
	t.Helper()
	if !o.NoEvents && o.ScanInterval < 0 {
		requireEvents(t)
	}
	s, err := Open(root, &Options{Watch: o})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var calls atomic.Int64
	if err := s.Watch(context.Background(), func() { calls.Add(1) }); err != nil {
		t.Fatal(err)
	}
	return s, &calls
}

// waitRevision polls until the revision exceeds after, and returns it.
func waitRevision(t *testing.T, s *Store, after uint64, what string) uint64 {
	t.Helper()
	deadline := time.Now().Add(watchDeadline)
	for {
		r, err := s.Revision(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if r > after {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: revision still %d after %v", what, r, watchDeadline)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestWatchOutsideEdits makes each kind of outside edit and checks that the
// watch raises the revision, once with events alone (no scan) and once
// with the scan alone (no events): each path must work without the other.
func TestWatchOutsideEdits(t *testing.T) {
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
	}{
		{"new file", func(t *testing.T, root string) {
			writeFile(t, filepath.Join(root, "notes", "b.md"), "added by hand")
		}},
		{"edit in place", func(t *testing.T, root string) {
			f, err := os.OpenFile(filepath.Join(root, "notes", "a.md"), os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString(" and appended"); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}},
		{"new category", func(t *testing.T, root string) {
			writeFile(t, filepath.Join(root, "新しい", "c.md"), "a new folder")
		}},
		{"another store", func(t *testing.T, root string) {
			other, err := Open(root, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			if err := other.Put(ctx, store.Entry{Category: "people", Name: "d", Content: "from another Store"}); err != nil {
				t.Fatal(err)
			}
		}},
		{"rename", func(t *testing.T, root string) {
			if err := os.Rename(filepath.Join(root, "notes", "b.md"), filepath.Join(root, "notes", "e.md")); err != nil {
				t.Fatal(err)
			}
		}},
		{"remove", func(t *testing.T, root string) {
			if err := os.Remove(filepath.Join(root, "notes", "a.md")); err != nil {
				t.Fatal(err)
			}
		}},
		{"remove category", func(t *testing.T, root string) {
			if err := os.RemoveAll(filepath.Join(root, "新しい")); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, "notes", "a.md"), "written before the watch")
			s, calls := openWatched(t, root, m.opts)
			rev, _ := s.Revision(ctx)
			for _, e := range edits {
				e.do(t, root)
				waitRevision(t, s, rev, e.name)
				// Let a late second report of the same edit land, so that it
				// cannot pass for the next edit's.
				time.Sleep(3 * m.opts.Debounce)
				rev, _ = s.Revision(ctx)
			}
			if calls.Load() == 0 {
				t.Error("onChange was never called")
			}
			all, errs := collect(t, s)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if got, want := fmt.Sprint(keys(all)), "[notes:e people:d]"; got != want {
				t.Errorf("entries after the edits = %s, want %s", got, want)
			}
		})
	}
}

// TestWatchNewFolderIsWatched checks that a category folder created after
// the watch started gets a watch of its own: with the scan off, only an
// event from inside the new folder can report the second write.
func TestWatchNewFolderIsWatched(t *testing.T) {
	root := t.TempDir()
	s, _ := openWatched(t, root, WatchOptions{Debounce: 20 * time.Millisecond, ScanInterval: -1})
	rev, _ := s.Revision(ctx)
	if err := os.MkdirAll(filepath.Join(root, "later", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	// An empty folder holds no entry. The watch handles its events in
	// order, so once a note written after it, in the root, is reported,
	// the new folders are watched, and the report holds that note alone.
	writeFile(t, filepath.Join(root, "after.md"), "written after the folders")
	rev0 := rev
	rev = waitRevision(t, s, rev, "write into the root after the new folders")
	if cs, err := s.Changes(ctx, rev0); err != nil || cs.Reset || fmt.Sprint(sortedKeys(cs.Keys)) != "[_root:after]" {
		t.Errorf("the empty new folders were reported: changes since %d: %+v, %v; want _root:after alone", rev0, cs, err)
	}
	writeFile(t, filepath.Join(root, "later", "x.md"), "inside the new folder")
	rev = waitRevision(t, s, rev, "write into the new folder")
	writeFile(t, filepath.Join(root, "later", "deeper", "y.md"), "inside a nested new folder")
	waitRevision(t, s, rev, "write into the nested new folder")
	cs, err := s.Changes(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(sortedKeys(cs.Keys))
	if want := "[_root:after later/deeper:y later:x]"; got != want {
		t.Errorf("change feed after the writes = %s, want %s", got, want)
	}
}

// TestWatchIgnoresOwnWrites drives the two detection paths by hand (no
// goroutine, no timing): the Store's own writes are recognised, an outside
// edit of the same file is not.
func TestWatchIgnoresOwnWrites(t *testing.T) {
	s := openTemp(t)
	w := &watcher{s: s, opts: WatchOptions{}.withDefaults(true)}
	s.watch.active.Store(true)
	w.files = s.scanTree(nil)

	path := filepath.Join(s.root, "notes", "a.md")
	if err := s.Put(ctx, store.Entry{Category: "notes", Name: "a", Content: "mine"}); err != nil {
		t.Fatal(err)
	}
	for _, ev := range []fsnotify.Event{
		{Name: filepath.Join(s.root, "notes"), Op: fsnotify.Create},
		{Name: path, Op: fsnotify.Create},
		{Name: filepath.Join(s.root, "notes", ".a.md.tmp-0123456789abcdef"), Op: fsnotify.Write},
	} {
		if w.relevant(ev) {
			t.Errorf("own write: event %v counted as an outside edit", ev)
		}
	}
	// Two writers of one entry: the second has noted its state before the
	// event of the first is looked at, which still sees the first's file.
	s.noteOwn(path, fileState{exists: true, size: 1, mtime: 1})
	if w.relevant(fsnotify.Event{Name: path, Op: fsnotify.Create}) {
		t.Error("own write overtaken by a second own write counted as an outside edit")
	}
	s.forgetOwn(path, fileState{exists: true, size: 1, mtime: 1})
	if w.rescan() {
		t.Error("own write: scan counted it as an outside edit")
	}
	if n := len(s.watch.own); n != 0 {
		t.Errorf("%d own-write records left after the scan saw them", n)
	}

	// The same file edited by someone else.
	time.Sleep(10 * time.Millisecond) // a distinct modification time on coarse clocks
	before := maps.Clone(w.files)
	if err := os.WriteFile(path, []byte("theirs, longer"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !w.relevant(fsnotify.Event{Name: path, Op: fsnotify.Write}) {
		t.Error("outside edit: event not counted")
	}
	if _, ok := w.pending[store.Key{Category: "notes", Name: "a"}]; !ok || len(w.pending) != 1 {
		t.Errorf("outside edit: burst holds %v, want notes:a", w.pending)
	}
	// The event updated the watch's picture of the tree; the scan must
	// count the edit on its own, as if the event had been lost.
	w.files, w.pending = before, nil
	if !w.rescan() {
		t.Error("outside edit: scan did not count it")
	}
	if _, ok := w.pending[store.Key{Category: "notes", Name: "a"}]; !ok || len(w.pending) != 1 {
		t.Errorf("outside edit: scan's burst holds %v, want notes:a", w.pending)
	}

	// Own delete, which also removes the emptied folder.
	if err := s.Delete(ctx, "notes", "a"); err != nil {
		t.Fatal(err)
	}
	for _, ev := range []fsnotify.Event{
		{Name: path, Op: fsnotify.Remove},
		{Name: filepath.Join(s.root, "notes"), Op: fsnotify.Remove},
	} {
		if w.relevant(ev) {
			t.Errorf("own delete: event %v counted as an outside edit", ev)
		}
	}
	if w.rescan() {
		t.Error("own delete: scan counted it as an outside edit")
	}

	// Things All never reads are not edits.
	writeFile(t, filepath.Join(s.root, "README.txt"), "not an entry")
	writeFile(t, filepath.Join(s.root, "notes", "draft.txt"), "not an entry")
	writeFile(t, filepath.Join(s.root, ".git", "HEAD"), "ref: refs/heads/main")
	for _, name := range []string{"README.txt", filepath.Join("notes", "draft.txt"), filepath.Join(".git", "HEAD")} {
		if w.relevant(fsnotify.Event{Name: filepath.Join(s.root, name), Op: fsnotify.Create}) {
			t.Errorf("%s counted as an edit", name)
		}
	}
	if w.relevant(fsnotify.Event{Name: path, Op: fsnotify.Chmod}) {
		t.Error("an attribute change counted as an edit")
	}
}

// TestWatchDebouncesBursts writes many files at once, as a git pull
// does, and checks that they cost a handful of revisions, not one each.
func TestWatchDebouncesBursts(t *testing.T) {
	root := t.TempDir()
	s, calls := openWatched(t, root, WatchOptions{Debounce: 200 * time.Millisecond, ScanInterval: -1})
	const n = 50
	for i := range n {
		writeFile(t, filepath.Join(root, "pulled", fmt.Sprintf("n%02d.md", i)), "from git")
	}
	rev := waitRevision(t, s, 0, "burst")
	// Reports are made in order: once a note written after the burst has
	// been reported, every report of the burst has landed.
	for {
		if cs, err := s.Changes(ctx, 0); err != nil || len(cs.Keys) == n {
			break
		}
		rev = waitRevision(t, s, rev, "the rest of the burst")
	}
	writeFile(t, filepath.Join(root, "after.md"), "after the burst")
	waitRevision(t, s, rev, "the note after the burst")
	if c := calls.Load() - 1; c > n/5 {
		t.Errorf("%d files written in a burst caused %d revision raises", n, c)
	}
}

func TestWatchLifecycle(t *testing.T) {
	s := openTemp(t)
	ctx1, cancel := context.WithCancel(context.Background())
	if err := s.Watch(ctx1, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Watch(context.Background(), nil); err == nil {
		t.Error("a second concurrent Watch succeeded")
	}
	// Ending the first watch frees the slot.
	cancel()
	deadline := time.Now().Add(watchDeadline)
	for {
		err := s.Watch(context.Background(), nil)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Watch after the first one's context ended: %v", err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// Close stops the watch and waits for it.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s.watch.mu.Lock()
	cur := s.watch.current
	s.watch.mu.Unlock()
	if cur != nil {
		t.Error("a watch is still registered after Close")
	}
	if err := s.Watch(context.Background(), nil); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Watch after Close = %v, want ErrClosed", err)
	}
}

func sortedKeys(ks []store.Key) []string {
	out := make([]string, 0, len(ks))
	for _, k := range ks {
		out = append(out, k.String())
	}
	slices.Sort(out)
	return out
}
