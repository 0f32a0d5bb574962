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
	// container volumes, a full inotify queue). Zero means 2 s; a negative
	// value turns the scan off.
	ScanInterval time.Duration
	// NoEvents turns file system events (fsnotify) off, leaving the scan
	// alone to notice changes.
	NoEvents bool
}

func (o WatchOptions) withDefaults() WatchOptions {
	if o.Debounce <= 0 {
		o.Debounce = defaultDebounce
	}
	if o.ScanInterval == 0 {
		o.ScanInterval = defaultScanInterval
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
// folder raise the revision, so that an index over the store notices them
// the way it notices the Store's own writes. onChange, when not nil, is
// called after each such raise, from the watch's goroutine; it must return
// promptly (start a goroutine for slow work such as a rebuild).
//
// Watch sets the watch up and returns; the watch runs until ctx is done or
// the Store is closed (Close waits for it to stop). Only one watch runs at
// a time; a second call while one runs fails.
//
// Two paths notice a change. File system events (fsnotify) on the root
// and on every category folder, new folders included, report an edit
// within about Debounce. A stat scan every ScanInterval compares each
// entry file's size and modification time with the previous scan's, for
// the file systems where events are lost or never sent. A burst of
// changes raises the revision once, after it has been quiet for Debounce.
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
	opts := s.opts.Watch.withDefaults()
	w := &watcher{s: s, opts: opts, onChange: onChange, grace: ownWriteGrace}

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
	w.files = s.scanTree()
	for p, st := range w.files {
		if st.dir {
			w.addDir(p)
		}
	}

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
	files    map[string]fileState // the last scan: entry files and category folders
	grace    time.Duration        // see ownWriteGrace
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
			// Lost events may have been anything.
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				mark()
			}
		case <-tick:
			if w.rescan() {
				mark()
			}
		case <-fire.C:
			since = time.Time{}
			w.s.rev.Add(1)
			if w.onChange != nil {
				w.onChange()
			}
		}
	}
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

// addDir watches a category folder. A failure (the folder went away, no
// watches left) is not fatal: the scan still covers the folder.
func (w *watcher) addDir(path string) {
	if w.fw != nil {
		_ = w.fw.Add(path)
	}
}

// relevant reports whether an event may change what All yields, and
// starts watching category folders as they appear.
func (w *watcher) relevant(ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod { // touch, chmod, indexers: content unchanged
		return false
	}
	root := w.s.root
	if ev.Name == root {
		return true // the root itself was removed or moved
	}
	dir, base := filepath.Split(ev.Name)
	dir = filepath.Clean(dir)
	if strings.HasPrefix(base, ".") {
		return false // temp files, .git, editor swap files
	}
	switch {
	case dir == root: // a category folder, or a stray file in the root
		st := statPath(ev.Name)
		if st.dir && ev.Has(fsnotify.Create) {
			w.addDir(ev.Name)
		}
		if st.exists && !st.dir {
			return false // files in the root are not entries
		}
		return !w.s.isOwn(ev.Name, st)
	case filepath.Dir(dir) == root: // a file in a category folder
		if !strings.HasSuffix(base, ext) {
			return false
		}
		st := statPath(ev.Name)
		if st.dir {
			return false // folders inside a category are ignored by All
		}
		return !w.s.isOwn(ev.Name, st)
	default:
		return false
	}
}

// rescan compares the tree with the previous scan and reports whether
// anything changed that this Store did not do itself. It also watches
// category folders the event path missed, and drops the records of own
// writes that the scan has now seen.
func (w *watcher) rescan() bool {
	files := w.s.scanTree()
	changed := false
	for p, st := range files {
		if old, ok := w.files[p]; !ok || old != st {
			if st.dir && !ok {
				w.addDir(p)
			}
			if !w.s.isOwn(p, st) {
				changed = true
			}
		}
	}
	for p := range w.files {
		if _, ok := files[p]; !ok && !w.s.isOwn(p, fileState{}) {
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

// scanTree stats what All would read: every category folder and every
// "*.md" file in one, by path. Names starting with '.' are left out, as
// All leaves them out.
func (s *Store) scanTree() map[string]fileState {
	files := make(map[string]fileState)
	cats, err := os.ReadDir(s.root)
	if err != nil {
		return files
	}
	for _, c := range cats {
		dir := filepath.Join(s.root, c.Name())
		if strings.HasPrefix(c.Name(), ".") || !isDir(c, dir) {
			continue
		}
		files[dir] = fileState{exists: true, dir: true}
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, f := range entries {
			name := f.Name()
			if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ext) {
				continue
			}
			path := filepath.Join(dir, name)
			var st fileState
			if f.Type()&iofs.ModeSymlink != 0 {
				st = statPath(path)
			} else if fi, err := f.Info(); err == nil {
				st = stateOf(fi)
			}
			if st.exists && !st.dir {
				files[path] = st
			}
		}
	}
	return files
}
