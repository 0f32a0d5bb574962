package location

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
	pgstore "github.com/recallhq/recall/store/postgres"
)

// ErrNotExist is wrapped by the error Open returns, without
// Options.Create, when nothing is at the location: no folder or file of
// that name, or a PostgreSQL database without recall's schema. A command
// that only reads should not create an empty store there: that would hide
// a mistyped location.
var ErrNotExist = errors.New("store does not exist")

// Backend is the kind of store a location names.
type Backend int

const (
	Folder   Backend = iota // a folder of markdown files: store/fs
	Bolt                    // one bbolt file: store/bolt
	Postgres                // a PostgreSQL database: store/postgres
)

// String is the backend's name as log lines give it: "fs", "bolt" or
// "postgres", after the packages that implement them.
func (b Backend) String() string {
	switch b {
	case Bolt:
		return "bolt"
	case Postgres:
		return "postgres"
	}
	return "fs"
}

// Location is a store's location with the backend chosen for it. The zero
// Location is not valid; make one with Parse. A Location is a value, safe
// for concurrent use.
type Location struct {
	// Backend is the kind of store the location names.
	Backend Backend
	name    string // as given; a URL may hold a password
}

// Parse reads a location and chooses its backend:
//
//   - a name starting with "postgres:" or "postgresql:" (any case) is a
//     PostgreSQL database; it must then be a URL (postgres://…), never a
//     folder of that name, so "postgres:memory" is an error;
//   - a name ending in ".db" (any case) is a bolt file, unless a folder of
//     that name already exists;
//   - anything else is a folder.
//
// Parse looks at the file system only for the ".db" rule, and never
// connects to a database.
func Parse(name string) (Location, error) {
	if name == "" {
		return Location{}, errors.New("store location is empty")
	}
	if isPostgres(name) {
		if !pgstore.IsURL(name) {
			// Not echoed: what follows "postgres:" may be a password.
			return Location{}, errors.New(`store location starts with "postgres:" but is not a URL: a PostgreSQL store is named by a URL such as postgres://user@host/dbname`)
		}
		return Location{Backend: Postgres, name: name}, nil
	}
	var info iofs.FileInfo
	if isBoltName(name) {
		fi, err := os.Stat(name)
		if err != nil && !errors.Is(err, iofs.ErrNotExist) {
			return Location{}, fmt.Errorf("store: %w", err)
		}
		info = fi
	}
	return Location{Backend: backendFor(name, info), name: name}, nil
}

// backendFor is Parse's choice for a name that is not a PostgreSQL one,
// given what the file system holds under that name (nil: nothing).
func backendFor(name string, info iofs.FileInfo) Backend {
	if isPostgres(name) {
		return Postgres
	}
	if isBoltName(name) && (info == nil || !info.IsDir()) {
		return Bolt
	}
	return Folder
}

func isPostgres(name string) bool {
	lower := strings.ToLower(name)
	return strings.HasPrefix(lower, "postgres:") || strings.HasPrefix(lower, "postgresql:")
}

func isBoltName(name string) bool { return strings.HasSuffix(strings.ToLower(name), ".db") }

// Redacted is the location as given, except that a URL's password is
// replaced by "xxxxx". It is what errors and log lines may show.
func (l Location) Redacted() string {
	if l.Backend == Postgres {
		return pgstore.Redact(l.name)
	}
	return l.name
}

// String describes the location for a log line: Redacted, then the
// backend in parentheses, as in "memory.db (bolt)" or
// "postgres://recall:xxxxx@db.example/memory (postgres)". It never holds a
// password.
func (l Location) String() string {
	return fmt.Sprintf("%s (%s)", l.Redacted(), l.Backend)
}

// Name is the location exactly as given to Parse, password included: for
// comparing paths or opening a backend by hand, never for a message.
func (l Location) Name() string { return l.name }

// Options says what Open may create. The zero Options creates nothing.
type Options struct {
	// Create makes a missing store: the folder or bolt file itself, or
	// recall's schema in a PostgreSQL database. The folder that is to hold
	// a folder or bolt store must exist already (unless Parents is set):
	// a mistyped location is an error, not a new tree of folders.
	Create bool

	// Parents, with Create, also makes the missing folders above a folder
	// or bolt store, mode 0700 (memories are personal). It is meant for a
	// default location that no one typed.
	Parents bool

	// CacheDir and CacheInFolder say where a folder store keeps its index
	// copy and vector cache: see store/fs.Options. The zero values keep
	// them in the user's cache directory, out of the folder.
	CacheDir      string
	CacheInFolder bool
}

// Open opens the store at the location. Without opts.Create a missing
// store is an error wrapping ErrNotExist. A bolt file held by another
// process fails after about a second with an error wrapping
// store.ErrLocked; a PostgreSQL server that does not answer fails within
// its connect timeout. No error holds a password. opts may be nil.
func (l Location) Open(ctx context.Context, opts *Options) (store.Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if l.name == "" {
		return nil, errors.New("open store: the location is not set (use location.Parse)")
	}
	if l.Backend == Postgres {
		// Open bounds itself (connect and per-call timeouts); the PG*
		// environment variables fill what the URL leaves out.
		st, err := pgstore.Open(ctx, l.name, &pgstore.Options{NoCreate: !o.Create})
		if errors.Is(err, pgstore.ErrNoSchema) {
			return nil, fmt.Errorf("%s: %w: no recall schema in that database", l.Redacted(), ErrNotExist)
		}
		return st, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	info, err := os.Stat(l.name)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		if !o.Create {
			return nil, fmt.Errorf("%s: %w", l.name, ErrNotExist)
		}
		if err := makeRoom(l.name, o.Parents); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, fmt.Errorf("store: %w", err)
	}
	if l.Backend == Bolt {
		if info != nil && info.IsDir() {
			// Parse saw no folder; one was made since.
			return nil, fmt.Errorf("store %s is a folder, not a bolt file", l.name)
		}
		// The default timeout (about a second) turns another process
		// holding the file into a clear store.ErrLocked, not a hang.
		st, err := boltstore.Open(l.name, nil)
		if err != nil && !o.Create && notWritable(err) {
			// Read-only media, an immutable file, a file of another
			// user: read it as it is, as a folder store would be.
			return boltstore.Open(l.name, &boltstore.Options{ReadOnly: true})
		}
		if err != nil && notWritable(err) {
			return nil, fmt.Errorf("%w (the store file is not writable here; commands that only read still work)", err)
		}
		return st, err
	}
	if info != nil && !info.IsDir() {
		return nil, fmt.Errorf("store %s is a file, not a folder (a bolt store's name must end in .db)", l.name)
	}
	return fsstore.Open(l.name, &fsstore.Options{CacheDir: o.CacheDir, CacheInFolder: o.CacheInFolder})
}

// notWritable reports whether opening a file failed because it cannot be
// written here.
func notWritable(err error) bool {
	return errors.Is(err, syscall.EROFS) || errors.Is(err, iofs.ErrPermission)
}

// Open parses name and opens the store there: Parse, then Location.Open.
// The Location it returns describes the store for log lines.
func Open(ctx context.Context, name string, opts *Options) (store.Store, Location, error) {
	l, err := Parse(name)
	if err != nil {
		return nil, Location{}, err
	}
	st, err := l.Open(ctx, opts)
	if err != nil {
		return nil, Location{}, err
	}
	return st, l, nil
}

// makeRoom lets a store be created at path: its folder must exist (or,
// with parents, is made, mode 0700).
func makeRoom(path string, parents bool) error {
	parent := filepath.Dir(path)
	if parents {
		if err := os.MkdirAll(parent, 0o700); err != nil {
			return fmt.Errorf("create store: %w", err)
		}
		return nil
	}
	fi, err := os.Stat(parent)
	switch {
	case err != nil:
		return fmt.Errorf("cannot create store %s: its folder %s does not exist (check the store's location, or create the folder first)", path, parent)
	case !fi.IsDir():
		return fmt.Errorf("cannot create store %s: %s is not a folder", path, parent)
	}
	return nil
}
