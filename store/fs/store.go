package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/recallhq/recall/store"
)

// ErrMalformed is wrapped by errors about a file or folder under the root
// that cannot be read as an entry: broken front matter, content that is
// not valid UTF-8 or too large, a name that breaks the rules of
// store.ValidateName. The message names the path.
var ErrMalformed = errors.New("malformed entry")

// defaultStaleTempAge is how old a leftover temp file must be before Open
// removes it. A write holds its temp file for milliseconds; a minute leaves
// a wide margin for a slow disk in another process.
const defaultStaleTempAge = time.Minute

// Options configures Open. The zero value is ready to use.
type Options struct {
	// StaleTempAge is how old a temp file left by a crashed writer must be
	// before Open deletes it. Zero means one minute; a negative value turns
	// the cleanup off.
	StaleTempAge time.Duration

	// Watch tunes Store.Watch; it has no effect unless Watch is called.
	Watch WatchOptions
}

// Store keeps entries as markdown files under a root folder. It is safe for
// concurrent use by multiple goroutines.
type Store struct {
	root    string
	opts    Options
	rev     atomic.Uint64
	closed  atomic.Bool
	locks   keyLocks   // serialises writes to one entry
	mkdirMu sync.Mutex // see ensureDir
	watch   watchState // see Watch

	vectors vectorFiles // the embedding vector cache, see vectors.go
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
	age := o.StaleTempAge
	if age == 0 {
		age = defaultStaleTempAge
	}
	if age > 0 {
		removeStaleTemps(abs, age)
		removeStaleVectorTemps(abs, age)
	}
	return &Store{root: abs, opts: o}, nil
}

// Path returns the file that holds (or would hold) the entry, without
// touching the disk.
func (s *Store) Path(category, name string) (string, error) {
	if err := store.ValidateKey(category, name); err != nil {
		return "", err
	}
	return s.path(category, name), nil
}

func (s *Store) path(category, name string) string {
	return filepath.Join(s.root, category, name+ext)
}

// check is the prologue of every method.
func (s *Store) check(ctx context.Context, op string) error {
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
	if err := store.ValidateKey(category, name); err != nil {
		return store.Entry{}, err
	}
	e, err := readEntry(s.path(category, name), category, name)
	if errors.Is(err, iofs.ErrNotExist) {
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
	if err := store.Validate(e); err != nil {
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
	if err := store.ValidateKey(category, name); err != nil {
		return err
	}
	key := store.Key{Category: category, Name: name}
	unlock, err := s.lockEntry(ctx, key)
	if err != nil {
		return fmt.Errorf("update %s: %w", key, err)
	}
	defer unlock()
	old, err := readEntry(s.path(category, name), category, name)
	found := err == nil
	if err != nil && !errors.Is(err, iofs.ErrNotExist) {
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
// the folder, which it leaves to the caller (PutBatch syncs each folder
// once per batch); it returns that folder.
func (s *Store) writeFileLocked(e store.Entry) (dir string, err error) {
	path := s.path(e.Category, e.Name)
	var perm iofs.FileMode
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		perm = fi.Mode().Perm()
	}
	now := time.Now().UTC().Truncate(time.Second)
	m := e.Meta
	if m.Created.IsZero() {
		// Best effort: a broken old file must not stop its replacement.
		if old, err := readEntry(path, e.Category, e.Name); err == nil {
			m.Created = old.Meta.Created
		}
		if m.Created.IsZero() {
			m.Created = now
		}
	}
	if m.Updated.IsZero() {
		m.Updated = now
	}
	data, err := renderFile(m, e.Content)
	if err != nil {
		return "", metaFieldError(err)
	}
	if n := len(data) - len(e.Content); n > maxFrontMatterBytes {
		return "", &store.FieldError{Field: "meta", Value: "front matter",
			Reason: fmt.Sprintf("is %d bytes, the limit is %d", n, maxFrontMatterBytes)}
	}
	dir = filepath.Dir(path)
	if err := s.writeFileAtomic(dir, filepath.Base(path), data, perm); err != nil {
		return "", fmt.Errorf("put %s: %w", e.Key(), err)
	}
	// The rename is visible from here on: count it even if the fsync of
	// the folder fails, so no index misses the change.
	s.rev.Add(1)
	return dir, nil
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
	if err := store.ValidateKey(category, name); err != nil {
		return err
	}
	key := store.Key{Category: category, Name: name}
	unlock, err := s.lockEntry(ctx, key)
	if err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	defer unlock()

	path := s.path(category, name)
	dir := filepath.Dir(path)
	notFound := func(err error) bool {
		return errors.Is(err, iofs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
	}
	// Opened first: once the file is gone, a concurrent Delete may remove
	// the folder, and the fsync below must still reach it.
	d, err := os.Open(dir)
	if err != nil {
		if notFound(err) {
			return fmt.Errorf("delete %s: %w", key, store.ErrNotFound)
		}
		return fmt.Errorf("delete %s: %w", key, err)
	}
	defer d.Close()
	if fi, err := os.Stat(path); err != nil || fi.IsDir() {
		if err == nil || notFound(err) {
			return fmt.Errorf("delete %s: %w", key, store.ErrNotFound)
		}
		return fmt.Errorf("delete %s: %w", key, err)
	}
	s.noteOwn(path, fileState{})
	if err := os.Remove(path); err != nil {
		s.forgetOwn(path, fileState{})
		if notFound(err) { // removed by hand meanwhile
			return fmt.Errorf("delete %s: %w", key, store.ErrNotFound)
		}
		return fmt.Errorf("delete %s: %w", key, err)
	}
	s.rev.Add(1)
	if err := syncOpenDir(d); err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	// Fails while the folder holds anything else, which is the point. A
	// symbolic link to a folder is left alone: removing it would not fail.
	if fi, err := os.Lstat(dir); err == nil && fi.IsDir() {
		s.noteOwn(dir, fileState{})
		if os.Remove(dir) == nil {
			_ = syncDir(s.root)
		} else {
			s.forgetOwn(dir, fileState{})
		}
	}
	return nil
}

// Revision returns the number of successful writes this Store made. Files
// changed by other processes, or by hand, do not count, unless Watch is
// running: then each change it notices counts too.
func (s *Store) Revision(ctx context.Context) (uint64, error) {
	if err := s.check(ctx, "revision"); err != nil {
		return 0, err
	}
	return s.rev.Load(), nil
}

// Close marks the store closed; further calls fail with store.ErrClosed.
// Writes already in progress complete. A running Watch is stopped, and
// Close waits for it to finish.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return fmt.Errorf("close: %w", store.ErrClosed)
	}
	s.stopWatch()
	return nil
}
