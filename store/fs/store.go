package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/recallhq/recall/store"
)

// ErrMalformed is wrapped by errors about a file or folder under the root
// that cannot be read as an entry: broken front matter, content that is
// not valid UTF-8 or too large, a name that breaks the rules of
// store.ValidateName. The message names the path. It wraps
// store.ErrUnreadable, which is what callers outside this package test for.
var ErrMalformed error = malformedEntry{}

type malformedEntry struct{}

func (malformedEntry) Error() string { return "malformed entry" }
func (malformedEntry) Unwrap() error { return store.ErrUnreadable }

// defaultStaleTempAge is how old a leftover temp file must be before it is
// removed. A write holds its temp file for milliseconds; a minute leaves
// a wide margin for a slow disk in another process.
const defaultStaleTempAge = time.Minute

// Options configures Open. The zero value is ready to use.
type Options struct {
	// StaleTempAge is how old a temp file left by a crashed writer must be
	// before it is deleted (by Open in .recall, by the walks of All, Keys
	// and the index load in the category folders). Zero means one minute; a negative value turns
	// the cleanup off.
	StaleTempAge time.Duration

	// Watch tunes Store.Watch; it has no effect unless Watch is called.
	Watch WatchOptions

	// Case says whether the root's file system tells names apart by case;
	// the zero value (CaseAuto) has Open find out. On a case-insensitive
	// one, Put refuses an identity that differs only by case from an
	// existing entry instead of overwriting that entry.
	Case CaseMode

	// ChangeLogSize is how many changed keys the change feed remembers
	// (see Store.Changes); zero means store.DefaultChangeLogSize.
	ChangeLogSize int

	// CacheDir is the user's cache directory for recall, below which the
	// store keeps its index copy and vector cache in a folder of its own
	// (see the package doc, "Cache folder"). Empty means $RECALL_CACHE_DIR,
	// else os.UserCacheDir()/recall; when neither is known the store keeps
	// no cache (every process reads every note, vectors stay in memory).
	CacheDir string

	// CacheInFolder keeps the index copy and vector cache in <root>/.recall
	// instead, so that they travel with the folder; CacheDir is then unused.
	CacheInFolder bool
}

// Store keeps entries as markdown files under a root folder. It is safe for
// concurrent use by multiple goroutines.
type Store struct {
	root     string
	rootDev  uint64 // the root's device at Open; 0 if unknown
	caseOnce sync.Once
	caseMode CaseMode // Options.Case, or found out by the first Put
	opts     Options
	feed     *store.ChangeLog // the revision and the keys behind it; see feed.go
	closed   atomic.Bool
	locks    keyLocks   // serialises writes to one entry
	syncFS   bool       // PutBatch makes a chunk durable with one syncfs; see canSyncFS
	mkdirMu  sync.Mutex // see ensureDir
	watch    watchState // see Watch

	vectors vectorFiles // the embedding vector cache, see vectors.go

	cache       string // the cache folder (cachedir.go); "" for none
	cacheInRoot bool   // cache is <root>/.recall
}

var _ store.Store = (*Store)(nil)

// Open opens the store in the folder root, creating it if missing, and
// removes temp files that crashed writers left there. opts may be nil.
func Open(root string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if root == "" {
		return nil, errors.New("open store: root folder is empty")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", root, err)
	}
	if err := mkdirAll(abs); err != nil {
		return nil, fmt.Errorf("open store %s: %w", root, err)
	}
	// The root may be a symbolic link (~/notes -> /data/notes); links
	// below it are never followed (see walkDir).
	if abs, err = filepath.EvalSymlinks(abs); err != nil {
		return nil, fmt.Errorf("open store %s: %w", root, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", root, err)
	}
	dev, _ := deviceOf(fi)
	cache, inRoot := cacheLocation(abs, fi, o)
	age := o.StaleTempAge
	if age == 0 {
		age = defaultStaleTempAge
	}
	if age > 0 {
		// The entries' temp files go in the walks (see removeIfStale):
		// a sweep of every folder here cost each command a second walk
		// (70 ms at 100k entries).
		if cache != "" {
			removeStaleVectorTemps(cache, age)
			removeStaleIndexTemps(cache, age)
		}
	}
	return &Store{root: abs, rootDev: dev, opts: o, feed: store.NewChangeLog(0, o.ChangeLogSize), syncFS: canSyncFS(abs),
		cache: cache, cacheInRoot: inRoot}, nil
}

// Path returns the file that holds (or would hold) the entry, without
// touching the disk: <root>/<category levels>/<name>.md, or
// <root>/<name>.md for RootCategory.
func (s *Store) Path(category, name string) (string, error) {
	category, name = lookupKey(category, name)
	if err := checkKey(category, name); err != nil {
		return "", err
	}
	return s.path(category, name), nil
}

// lookupKey is the identity a lookup (Get, Update, Delete, Path) means:
// NFC, and a name or category level given as written ("What is it?")
// mapped as All maps it (store.NameKey). Both spellings reach one file.
func lookupKey(category, name string) (string, string) {
	category, name = store.NormalizeKey(category, name)
	return store.CategoryKey(category), store.NameKey(name)
}

// checkKey is store.ValidateKey plus the one rule of this OS: on Windows a
// name or level as written (store.UnescapeName) must not hold '\', its
// path separator.
func checkKey(category, name string) error {
	if err := store.ValidateKey(category, name); err != nil {
		return err
	}
	if filepath.Separator == '/' {
		return nil
	}
	for field, v := range map[string]string{"category": store.CategoryPath(category), "name": store.UnescapeName(name)} {
		if strings.ContainsRune(v, filepath.Separator) {
			return &store.FieldError{Field: field, Value: v, Reason: "holds '\\', the path separator of this system"}
		}
	}
	return nil
}

func (s *Store) path(category, name string) string {
	return filepath.Join(s.root, relDir(category), store.UnescapeName(name)+ext)
}

// check is the prologue of every method: the store is open, ctx is live
// and the root folder is still there.
func (s *Store) check(ctx context.Context, op string) error {
	if err := s.live(ctx, op); err != nil {
		return err
	}
	return s.checkRoot(op)
}

// live reports whether the store is open and ctx is live.
func (s *Store) live(ctx context.Context, op string) error {
	if s.closed.Load() {
		return fmt.Errorf("%s: %w", op, store.ErrClosed)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// Get reads the entry's file. A file whose front matter or content is
// broken yields an error wrapping ErrMalformed.
func (s *Store) Get(ctx context.Context, category, name string) (store.Entry, error) {
	if err := s.check(ctx, "get"); err != nil {
		return store.Entry{}, err
	}
	category, name = lookupKey(category, name)
	if err := checkKey(category, name); err != nil {
		return store.Entry{}, err
	}
	e, err := s.read(category, name)
	if missing(err) {
		return store.Entry{}, fmt.Errorf("get %s:%s: %w", category, name, store.ErrNotFound)
	}
	if err != nil {
		return store.Entry{}, fmt.Errorf("get %s:%s: %w", category, name, err)
	}
	return e, nil
}

// Put writes the entry's file atomically, replacing the whole file
// (front matter included). Only Created carries over from the file it
// replaces, when e leaves it zero. Besides store.Validate, Put rejects
// metadata the file cannot hold faithfully (a FieldError for "meta").
func (s *Store) Put(ctx context.Context, e store.Entry) error {
	if err := s.check(ctx, "put"); err != nil {
		return err
	}
	e = store.Normalize(e)
	if err := store.Validate(e); err != nil {
		return err
	}
	if err := checkKey(e.Category, e.Name); err != nil {
		return err
	}
	if err := checkMeta(e.Meta); err != nil {
		return metaFieldError(err)
	}
	unlock, err := s.lockEntry(ctx, e.Key())
	if err != nil {
		return fmt.Errorf("put %s: %w", e.Key(), err)
	}
	defer unlock()
	return s.writeLocked(e)
}

// Update reads the entry's file, calls fn and writes its result while
// holding the entry's lock, which other processes honour too (see
// entrylock.go), so no other write to the entry lands in between. A file
// that exists but cannot be parsed is an error wrapping ErrMalformed: fn
// never merges into content it could not read.
func (s *Store) Update(ctx context.Context, category, name string, fn func(old store.Entry, found bool) (store.Entry, error)) error {
	if err := s.check(ctx, "update"); err != nil {
		return err
	}
	category, name = lookupKey(category, name)
	if err := checkKey(category, name); err != nil {
		return err
	}
	key := store.Key{Category: category, Name: name}
	unlock, err := s.lockEntry(ctx, key)
	if err != nil {
		return fmt.Errorf("update %s: %w", key, err)
	}
	defer unlock()
	old, err := s.read(category, name)
	found := err == nil
	if err != nil && !missing(err) {
		return fmt.Errorf("update %s: %w", key, err)
	}
	if !found {
		old = store.Entry{Category: category, Name: name}
	}
	e, err := fn(old, found)
	if errors.Is(err, store.ErrNoChange) {
		return nil
	}
	if err != nil {
		return err
	}
	e = store.Normalize(e)
	if e.Key() != key {
		return fmt.Errorf("update %s: %w: the update function returned %s, another identity", key, store.ErrInvalid, e.Key())
	}
	if err := store.Validate(e); err != nil {
		return err
	}
	if err := checkMeta(e.Meta); err != nil {
		return metaFieldError(err)
	}
	return s.writeLocked(e)
}

// writeLocked writes e's file; the caller validated e and holds its lock.
// Only Created carries over from the file it replaces, when e leaves it
// zero: the one upsert rule of this backend.
//
// It never writes through a symbolic link: a linked category folder is an
// error, and a link (or a named pipe) at the entry's path is replaced by
// the new file, its target untouched. A folder at the entry's path is an
// error.
func (s *Store) writeLocked(e store.Entry) error {
	dir, err := s.writeFileLocked(e)
	if err != nil {
		return err
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("put %s: %w", e.Key(), err)
	}
	return nil
}

// writeFileLocked is writeLocked up to the rename, without the fsync of
// the folder, which it leaves to the caller; it returns that folder.
func (s *Store) writeFileLocked(e store.Entry) (dir string, err error) {
	w, err := s.renderLocked(e)
	if err != nil {
		return "", err
	}
	if err := s.writeFileAtomic(w.dir, w.base, w.data, w.perm); err != nil {
		return "", fmt.Errorf("put %s: %w", e.Key(), err)
	}
	// The rename is visible from here on: count it even if the fsync of
	// the folder fails, so no index misses the change.
	s.feed.Add(e.Key())
	return w.dir, nil
}

// fileWrite is an entry's file as a write will make it.
type fileWrite struct {
	dir, base string
	data      []byte
	perm      iofs.FileMode // of the file it replaces, to keep; 0 for a new file
}

// renderLocked checks where e's file goes and renders it; the caller holds
// e's lock. Only Created carries over from the file it replaces, and over
// a file it can read it keeps that file's front matter text but for the
// keys that change (see splice.go).
func (s *Store) renderLocked(e store.Entry) (fileWrite, error) {
	path := s.path(e.Category, e.Name)
	if _, err := s.walkDir(e.Category); err != nil && !errors.Is(err, iofs.ErrNotExist) {
		return fileWrite{}, fmt.Errorf("put %s: %w", e.Key(), err)
	}
	var perm iofs.FileMode
	fi, err := os.Lstat(path)
	exists := err == nil
	if exists {
		if fi.IsDir() {
			return fileWrite{}, fmt.Errorf("put %s: %s: %w: is a folder where the entry's file belongs; rename or remove the folder", e.Key(), path, ErrMalformed)
		}
		if fi.Mode().IsRegular() {
			perm = fi.Mode().Perm()
		}
	}
	if err := s.checkCase(e); err != nil {
		return fileWrite{}, err
	}
	now := time.Now().UTC().Truncate(time.Second)
	m := e.Meta
	var data []byte
	if old, oldMeta, ok := s.readOld(path, exists); ok {
		// Over a note it can read, a write keeps the note's own front
		// matter text and changes only what changes (splice.go). A note
		// without created or updated gets none: its times stay the
		// file's own, unless the caller gives them.
		if m.Created.IsZero() {
			m.Created = oldMeta.Created
		}
		if m.Updated.IsZero() && !oldMeta.Updated.IsZero() {
			m.Updated = now
		}
		if b, ok := spliceFile(old, oldMeta, m, e.Content); ok {
			data = b
		}
	} else {
		// A new file, or one whose old content cannot be read (a broken
		// old file must not stop its replacement).
		if m.Created.IsZero() {
			m.Created = now
		}
		if m.Updated.IsZero() {
			m.Updated = now
		}
	}
	if data == nil {
		var err error
		if data, err = renderFile(m, e.Content); err != nil {
			return fileWrite{}, metaFieldError(err)
		}
	}
	if n := len(data) - len(e.Content); n > maxFrontMatterBytes {
		return fileWrite{}, &store.FieldError{Field: "meta", Value: "front matter",
			Reason: fmt.Sprintf("is %d bytes, the limit is %d", n, maxFrontMatterBytes)}
	}
	return fileWrite{dir: filepath.Dir(path), base: filepath.Base(path), data: data, perm: perm}, nil
}

// readOld returns the bytes of the entry file a write replaces and its
// metadata, when there is one and it parses.
func (s *Store) readOld(path string, exists bool) ([]byte, store.Meta, bool) {
	if !exists {
		return nil, store.Meta{}, false
	}
	b, err := readEntryBytes(path)
	if err != nil {
		return nil, store.Meta{}, false
	}
	m, content, err := parseFile(b)
	if err != nil || store.ValidateContent(content) != nil {
		return nil, store.Meta{}, false
	}
	return b, m, true
}

// metaFieldError reports metadata the file cannot hold the way
// store.Validate reports a bad field, so callers branch on ErrInvalid alike.
func metaFieldError(err error) error {
	var me *metaError
	if errors.As(err, &me) {
		return &store.FieldError{Field: "meta", Value: me.key, Reason: me.reason}
	}
	return &store.FieldError{Field: "meta", Reason: err.Error()}
}

// Delete removes the entry's file, and its category folder when that
// becomes empty.
func (s *Store) Delete(ctx context.Context, category, name string) error {
	if err := s.check(ctx, "delete"); err != nil {
		return err
	}
	category, name = lookupKey(category, name)
	if err := checkKey(category, name); err != nil {
		return err
	}
	key := store.Key{Category: category, Name: name}
	unlock, err := s.lockEntry(ctx, key)
	if err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	defer unlock()

	path := s.path(category, name)
	dir, err := s.walkDir(category)
	if err != nil {
		if missing(err) {
			return fmt.Errorf("delete %s: %w", key, store.ErrNotFound)
		}
		return fmt.Errorf("delete %s: %w", key, err)
	}
	// Opened first: once the file is gone, a concurrent Delete may remove
	// the folder, and the fsync below must still reach it.
	d, err := os.Open(dir)
	if err != nil {
		if missing(err) {
			return fmt.Errorf("delete %s: %w", key, store.ErrNotFound)
		}
		return fmt.Errorf("delete %s: %w", key, err)
	}
	defer d.Close()
	// Lstat: a symbolic link at the path is removed itself, never its target.
	if fi, err := os.Lstat(path); err != nil || fi.IsDir() {
		if err == nil || missing(err) {
			return fmt.Errorf("delete %s: %w", key, store.ErrNotFound)
		}
		return fmt.Errorf("delete %s: %w", key, err)
	}
	s.noteOwn(path, fileState{})
	if err := os.Remove(path); err != nil {
		s.forgetOwn(path, fileState{})
		if missing(err) { // removed by hand meanwhile
			return fmt.Errorf("delete %s: %w", key, store.ErrNotFound)
		}
		return fmt.Errorf("delete %s: %w", key, err)
	}
	s.feed.Add(key)
	if err := syncOpenDir(d); err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	s.removeEmptyDirs(dir)
	return nil
}

// removeEmptyDirs removes dir and then each parent up to (not including)
// the root, while they are empty. Removing a folder that holds anything
// fails, which is the point; a symbolic link is never removed.
func (s *Store) removeEmptyDirs(dir string) {
	// Not while ensureDir makes a chain of folders in this process.
	s.mkdirMu.Lock()
	defer s.mkdirMu.Unlock()
	for dir != s.root && strings.HasPrefix(dir, s.root+string(filepath.Separator)) {
		fi, err := os.Lstat(dir)
		if err != nil || !fi.IsDir() {
			return
		}
		s.noteOwn(dir, fileState{})
		if os.Remove(dir) != nil {
			s.forgetOwn(dir, fileState{})
			return
		}
		parent := filepath.Dir(dir)
		_ = syncDir(parent)
		dir = parent
	}
}

// read reads the entry's file after checking that no folder on its way is
// a symbolic link.
func (s *Store) read(category, name string) (store.Entry, error) {
	if _, err := s.walkDir(category); err != nil {
		return store.Entry{Category: category, Name: name}, err
	}
	return readEntry(s.path(category, name), category, name)
}

// Revision returns the number of successful writes this Store made. Files
// changed by other processes, or by hand, do not count, unless Watch is
// running: then each change it notices counts too.
func (s *Store) Revision(ctx context.Context) (uint64, error) {
	if err := s.check(ctx, "revision"); err != nil {
		return 0, err
	}
	return s.feed.Rev(), nil
}

// Close marks the store closed; further calls fail with store.ErrClosed.
// Writes already in progress complete. A running Watch is stopped, and
// Close waits for it to finish.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return fmt.Errorf("close: %w", store.ErrClosed)
	}
	s.stopWatch()
	s.feed.Close() // followers wake up and learn that it is closed
	return nil
}
