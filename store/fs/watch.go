package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/recallhq/recall/store"
)

// Defaults of WatchOptions.
const (
	defaultDebounce     = 100 * time.Millisecond
	defaultScanInterval = 2 * time.Second
	// defaultSafetyScanInterval is the scan's period while events work.
	defaultSafetyScanInterval = 30 * time.Second
	// maxDelay bounds how long a burst that never goes quiet (a slow git
	// checkout) can hold its report back.
	maxDelay = 500 * time.Millisecond
	// ownWriteTTL is how long a record of this Store's own write waits for
	// the scan to see it; after that it is dropped (another writer has
	// changed the file since, or the write never landed).
	ownWriteTTL = time.Minute
	// ownWriteGrace is how long a record the scan has seen is kept anyway,
	// for the event of the same write, which may still sit in the queue.
	ownWriteGrace = 5 * time.Second
)

// WatchOptions tunes Watch. The zero value is ready to use.
type WatchOptions struct {
	// Debounce is how long a burst of changes (a git pull, an editor's
	// save) must stay quiet before Watch reports it, so that a burst costs
	// one rebuild, not hundreds. Zero means 100 ms. A burst that does not
	// end is reported every 500 ms anyway.
	Debounce time.Duration
	// ScanInterval is the period of the stat scan, the fallback for file
	// systems that lose events or never send them (network mounts, some
	// container volumes). Zero means 2 s when events are off or cannot be
	// had, and 30 s while they work (then the scan is only a safety net: a
	// stat per entry file every 2 s is real CPU at 100k entries); on a
	// network mount, whose remote edits send no events, set it. A negative
	// value turns the scan off.
	ScanInterval time.Duration
	// NoEvents turns file system events (fsnotify) off, leaving the scan
	// alone to notice changes.
	NoEvents bool
}

func (o WatchOptions) withDefaults(events bool) WatchOptions {
	if o.Debounce <= 0 {
		o.Debounce = defaultDebounce
	}
	if o.ScanInterval == 0 {
		o.ScanInterval = defaultScanInterval
		if events {
			o.ScanInterval = defaultSafetyScanInterval
		}
	}
	return o
}

// fileState is what a watch compares to tell that a path changed without
// reading it. The zero value means the path does not exist.
type fileState struct {
	exists bool
	dir    bool
	size   int64
	mtime  int64 // UnixNano; folders leave it zero, their mtime moves with their content
}

func stateOf(fi iofs.FileInfo) fileState {
	if fi.IsDir() {
		return fileState{exists: true, dir: true}
	}
	return fileState{exists: true, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}

// statPath follows symbolic links, as All does.
func statPath(path string) fileState {
	fi, err := os.Stat(path)
	if err != nil {
		return fileState{}
	}
	return stateOf(fi)
}

// ownWrites are the changes this Store made to one path lately, newest
// last, noted so that the watch does not mistake them for someone else's.
// More than one is kept because concurrent writes to one entry can rename
// a second file into place before the event of the first is looked at.
type ownWrites struct {
	states []fileState
	at     time.Time // of the newest
}

// maxOwnStates bounds the states kept per path.
const maxOwnStates = 8

// watchState is the part of a Store that belongs to watching.
type watchState struct {
	mu      sync.Mutex
	current *watcher              // the running watch, nil if none
	own     map[string]*ownWrites // by path; only kept while watching
	active  atomic.Bool           // whether own writes are noted
	wg      sync.WaitGroup        // the running watch's goroutine
}

// noteOwn records that this Store is about to bring path into state, so
// that the event or scan that sees it is not counted as an outside edit.
// It is called before the change, so the record is there when the event
// arrives; a change that then fails is forgotten with forgetOwn.
func (s *Store) noteOwn(path string, st fileState) {
	if !s.watch.active.Load() {
		return
	}
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	if s.watch.own == nil {
		s.watch.own = make(map[string]*ownWrites)
	}
	w := s.watch.own[path]
	if w == nil {
		w = &ownWrites{}
		s.watch.own[path] = w
	}
	if len(w.states) == maxOwnStates {
		w.states = append(w.states[:0], w.states[1:]...)
	}
	w.states = append(w.states, st)
	w.at = time.Now()
}

// forgetOwn takes back a note whose change did not happen.
func (s *Store) forgetOwn(path string, st fileState) {
	if !s.watch.active.Load() {
		return
	}
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	if w := s.watch.own[path]; w != nil {
		if i := slices.Index(w.states, st); i >= 0 {
			w.states = slices.Delete(w.states, i, i+1)
		}
		if len(w.states) == 0 {
			delete(s.watch.own, path)
		}
	}
}

// isOwn reports whether path being in state st is this Store's doing.
func (s *Store) isOwn(path string, st fileState) bool {
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	w := s.watch.own[path]
	return w != nil && slices.Contains(w.states, st)
}

// Watch makes edits that other processes, editors or git make in the
// folder raise the revision and enter the change feed (see Changes), so
// that an index over the store follows them the way it follows the
// Store's own writes, re-reading only the files that changed. onChange,
// when not nil, is called after each such raise, from the watch's
// goroutine; it must return promptly (start a goroutine for slow work).
//
// Watch sets the watch up and returns; the watch runs until ctx is done or
// the Store is closed (Close waits for it to stop). Only one watch runs at
// a time; a second call while one runs fails.
//
// Two paths notice a change. File system events (fsnotify) on the root
// and on every folder below it, at any depth and new folders included,
// report an edit within about Debounce, naming the file. A stat scan
// compares each entry file's size and modification time with the previous
// scan's, for the file systems where events are lost or never sent; it is
// a safety net, run every ScanInterval (by default 2 s without events and
// 30 s with them), and costs a stat per file but reads none. A burst of
// changes raises the revision once, after it has been quiet for Debounce,
// and enters every file it touched into the feed. A folder that appears
// (moved in, checked out) is read for the entry files in it; one that goes
// away takes the entries known under it. When events were lost (the
// kernel queue overflowed) the feed tells readers to rebuild.
//
// Writes made through this Store are recognised and not counted twice;
// temp files, names starting with '.', files that are not "*.md" and
// attribute-only changes (touch, chmod) are ignored by the event path.
//
// Watching is best effort: when events cannot be had (no inotify
// instances left, an unsupported platform) Watch relies on the scan alone
// and does not fail.
func (s *Store) Watch(ctx context.Context, onChange func()) error {
	if err := s.check(ctx, "watch"); err != nil {
		return err
	}
	opts := s.opts.Watch
	w := &watcher{s: s, onChange: onChange, grace: ownWriteGrace}

	s.watch.mu.Lock()
	if s.watch.current != nil {
		s.watch.mu.Unlock()
		return fmt.Errorf("watch %s: a watch is already running", s.root)
	}
	// Claimed before the set-up, so that own writes made during it are
	// noted and a concurrent Watch fails.
	s.watch.current = w
	s.watch.active.Store(true)
	s.watch.mu.Unlock()

	if !opts.NoEvents {
		if fw, err := fsnotify.NewWatcher(); err == nil {
			if fw.Add(s.root) == nil {
				w.fw = fw
			} else {
				fw.Close()
			}
		}
	}
	w.opts = opts.withDefaults(w.fw != nil)
	// Each folder is watched before it is read, so that nothing created in
	// it after the read goes unseen.
	w.files = s.scanTree(w.addDir)

	wctx, cancel := context.WithCancel(ctx)
	s.watch.mu.Lock()
	if s.closed.Load() {
		s.watch.mu.Unlock()
		cancel()
		w.release()
		return fmt.Errorf("watch: %w", store.ErrClosed)
	}
	w.cancel = cancel
	s.watch.wg.Add(1)
	s.watch.mu.Unlock()
	go w.run(wctx)
	return nil
}

// stopWatch ends a running watch and waits for its goroutine. Close calls
// it after marking the store closed, so no new watch can start.
func (s *Store) stopWatch() {
	s.watch.mu.Lock()
	var cancel context.CancelFunc
	if w := s.watch.current; w != nil {
		cancel = w.cancel
	}
	s.watch.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	s.watch.wg.Wait()
}

// watcher is one running watch.
type watcher struct {
	s        *Store
	opts     WatchOptions
	onChange func()
	cancel   context.CancelFunc
	fw       *fsnotify.Watcher    // nil: scan only
	files    map[string]fileState // what the watch knows: entry files and folders below the root
	grace    time.Duration        // see ownWriteGrace

	// The burst being collected: keys of entries touched by others, and
	// whether changes were lost so that readers must rebuild.
	pending map[store.Key]struct{}
	lost    bool
}

func (w *watcher) run(ctx context.Context) {
	defer w.s.watch.wg.Done()
	defer w.release()

	var (
		events <-chan fsnotify.Event
		errs   <-chan error
		tick   <-chan time.Time
	)
	if w.fw != nil {
		events, errs = w.fw.Events, w.fw.Errors
	}
	if w.opts.ScanInterval > 0 {
		t := time.NewTicker(w.opts.ScanInterval)
		defer t.Stop()
		tick = t.C
	}
	fire := time.NewTimer(time.Hour)
	fire.Stop()
	defer fire.Stop()
	var since time.Time // start of the pending burst; zero when none
	mark := func() {
		now := time.Now()
		if since.IsZero() {
			since = now
		}
		fire.Reset(max(0, min(w.opts.Debounce, since.Add(maxDelay).Sub(now))))
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			if w.relevant(ev) {
				mark()
			}
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			// Lost events may have been anything: readers must rebuild,
			// and the next scan re-learns the tree.
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.lost = true
				mark()
			}
		case <-tick:
			if w.rescan() {
				mark()
			}
		case <-fire.C:
			since = time.Time{}
			if w.flush() && w.onChange != nil {
				w.onChange()
			}
		}
	}
}

// flush enters the burst into the feed, raising the revision once, and
// reports whether it did.
func (w *watcher) flush() bool {
	switch {
	case w.lost:
		w.s.feed.LostTrack()
	case len(w.pending) > 0:
		keys := make([]store.Key, 0, len(w.pending))
		for k := range w.pending {
			keys = append(keys, k)
		}
		w.s.feed.Add(keys...)
	default:
		return false
	}
	w.lost, w.pending = false, nil
	return true
}

// touch adds the entry at path to the burst. Paths that cannot be an
// entry (a file in the root) are left out.
func (w *watcher) touch(path string) {
	k, ok := w.s.keyOf(path)
	if !ok {
		return
	}
	if w.pending == nil {
		w.pending = make(map[store.Key]struct{})
	}
	w.pending[k] = struct{}{}
}

// keyOf is the identity whose file is path: the folders between the root
// and the file are the category's segments, the file name less ".md" the
// name. It does not validate them: a Get of a key that breaks the rules
// fails, and its reader then treats it as absent, as All skips it.
func (s *Store) keyOf(path string) (store.Key, bool) {
	rel, err := filepath.Rel(s.root, path)
	if err != nil || !strings.HasSuffix(rel, ext) {
		return store.Key{}, false
	}
	dir, base := filepath.Split(filepath.ToSlash(rel))
	dir = strings.TrimSuffix(dir, "/")
	if strings.HasPrefix(dir, "../") || strings.HasPrefix(rel, "../") {
		return store.Key{}, false
	}
	if dir == "" { // a note in the root folder itself
		dir = RootCategory
	}
	if dir != RootCategory {
		segs := strings.Split(dir, "/")
		for i, seg := range segs {
			segs[i] = store.EscapeName(seg)
		}
		dir = strings.Join(segs, "/")
	}
	return store.Key{Category: dir, Name: store.EscapeName(strings.TrimSuffix(base, ext))}, true
}

// release gives the Store back its watch slot.
func (w *watcher) release() {
	if w.fw != nil {
		w.fw.Close()
	}
	s := w.s
	s.watch.mu.Lock()
	if s.watch.current == w {
		s.watch.current = nil
		s.watch.active.Store(false)
		s.watch.own = nil
	}
	s.watch.mu.Unlock()
}

// addDir watches a folder. A failure (the folder went away, no watches
// left) is not fatal: the scan still covers the folder.
func (w *watcher) addDir(path string) {
	if w.fw != nil {
		_ = w.fw.Add(path)
	}
}

// hidden reports whether path, below the root, has a component starting
// with '.': temp files, .recall, .git, editor swap files.
func (w *watcher) hidden(path string) bool {
	rel, err := filepath.Rel(w.s.root, path)
	if err != nil {
		return true
	}
	for _, c := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.HasPrefix(c, ".") {
			return true
		}
	}
	return false
}

// relevant looks at one event: it adds the entries it touched to the
// burst, keeps the watch's picture of the tree current (watching new
// folders and reading what they hold, dropping folders that went away
// with the entries known under them) and reports whether the burst grew.
func (w *watcher) relevant(ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod { // touch, chmod, indexers: content unchanged
		return false
	}
	root := w.s.root
	if ev.Name == root {
		w.lost = true // the root itself was removed or moved
		return true
	}
	if w.hidden(ev.Name) {
		return false
	}
	if w.files == nil {
		w.files = make(map[string]fileState)
	}
	st := statPath(ev.Name)
	old, known := w.files[ev.Name]
	grew := false
	switch {
	case st.dir:
		if !known || !old.dir {
			// A new folder, perhaps moved in whole: watch it and everything
			// below it, and count the entries already inside.
			grew = w.addTree(ev.Name)
		}
	case known && old.dir:
		// A folder went away (removed, moved out): so did every entry below it.
		grew = w.dropTree(ev.Name)
	}
	if st.dir || (known && old.dir) || !strings.HasSuffix(ev.Name, ext) {
		return grew
	}
	if st.exists {
		w.files[ev.Name] = st
	} else {
		delete(w.files, ev.Name)
	}
	if w.s.isOwn(ev.Name, st) {
		return grew
	}
	w.touch(ev.Name)
	return true
}

// addTree records a folder that appeared, watches it and the folders
// below it (each before it is read, so that what is created in it
// meanwhile sends an event), and adds the entry files found there that the
// watch did not know in that state.
func (w *watcher) addTree(dir string) bool {
	grew := false
	for p, st := range w.s.scanDir(dir, w.addDir) {
		if !st.dir && w.files[p] != st && !w.s.isOwn(p, st) {
			w.touch(p)
			grew = true
		}
		w.files[p] = st
	}
	return grew
}

// dropTree forgets a folder that went away and the entries below it.
func (w *watcher) dropTree(dir string) bool {
	grew := false
	prefix := dir + string(filepath.Separator)
	for p, st := range w.files {
		if p != dir && !strings.HasPrefix(p, prefix) {
			continue
		}
		delete(w.files, p)
		if !st.dir && !w.s.isOwn(p, fileState{}) {
			w.touch(p)
			grew = true
		}
	}
	return grew
}

// rescan compares the tree with the previous scan, adds the entries that
// changed and that this Store did not write itself to the burst, and
// reports whether there were any. It also watches folders the event path
// missed, and drops the records of own writes that the scan has now seen.
func (w *watcher) rescan() bool {
	files := w.s.scanTree(func(dir string) {
		if _, ok := w.files[dir]; !ok {
			w.addDir(dir) // a folder the event path missed
		}
	})
	changed := false
	for p, st := range files {
		if old, ok := w.files[p]; !ok || old != st {
			if !st.dir && !w.s.isOwn(p, st) {
				w.touch(p)
				changed = true
			}
		}
	}
	for p, st := range w.files {
		if _, ok := files[p]; !ok && !st.dir && !w.s.isOwn(p, fileState{}) {
			w.touch(p)
			changed = true
		}
	}
	w.files = files

	s := w.s
	now := time.Now()
	s.watch.mu.Lock()
	for p, o := range s.watch.own {
		age := now.Sub(o.at)
		// Seen in its final state (the newest write) a while ago, or too
		// old to come at all.
		if (files[p] == o.states[len(o.states)-1] && age >= w.grace) || age > ownWriteTTL {
			delete(s.watch.own, p)
		}
	}
	s.watch.mu.Unlock()
	return changed
}

// scanTree stats what All would read: every folder below the root and
// every "*.md" file in one, by path. Names starting with '.' are left out,
// as All leaves them out; "*.md" files in the root are the notes of
// RootCategory. Symbolic links are never followed. visit, when
// not nil, is called with each folder (the root included) before it is
// read.
func (s *Store) scanTree(visit func(dir string)) map[string]fileState {
	files := make(map[string]fileState)
	s.scanInto(files, s.root, 0, visit)
	return files
}

// scanDir is scanTree for one folder below the root and what it holds.
func (s *Store) scanDir(dir string, visit func(dir string)) map[string]fileState {
	files := make(map[string]fileState)
	rel, err := filepath.Rel(s.root, dir)
	if err != nil {
		return files
	}
	s.scanInto(files, dir, len(strings.Split(filepath.ToSlash(rel), "/")), visit)
	return files
}

// maxWatchDepth bounds how deep the watch follows folders: a category has
// at most 8 segments; a link loop must not make the walk endless.
const maxWatchDepth = 8

func (s *Store) scanInto(files map[string]fileState, dir string, depth int, visit func(dir string)) {
	if visit != nil {
		visit(dir)
	}
	files[dir] = fileState{exists: true, dir: true}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	// The notes' stats, most of the time of a scan, run several at a time.
	var notes []iofs.DirEntry
	for _, f := range entries {
		name := f.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(dir, name)
		if f.IsDir() { // a link to a folder is not followed, as All does not
			if depth < maxWatchDepth {
				s.scanInto(files, path, depth+1, visit)
			}
			continue
		}
		if strings.HasSuffix(name, ext) {
			notes = append(notes, f)
		}
	}
	states := make([]fileState, len(notes))
	parallel(len(notes), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			f := notes[i]
			if f.Type()&iofs.ModeSymlink != 0 {
				states[i] = statPath(filepath.Join(dir, f.Name()))
			} else if fi, err := f.Info(); err == nil {
				states[i] = stateOf(fi)
			}
		}
	})
	for i, st := range states {
		if st.exists && !st.dir {
			files[filepath.Join(dir, notes[i].Name())] = st
		}
	}
}
