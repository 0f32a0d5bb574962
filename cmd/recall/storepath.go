package main

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
	pgstore "github.com/recallhq/recall/store/postgres"
)

// errNoStore is returned by commands that only read when the store does
// not exist: creating an empty store there would hide a mistyped --store.
var errNoStore = errors.New("store does not exist")

// openMode says what to do when the store is missing.
type openMode int

const (
	mustExist openMode = iota // read commands: fail with errNoStore
	create                    // add, import, servers: create the store itself (see checkCreatable)
)

// backend is the kind of store a path names.
type backend int

const (
	backendFS backend = iota
	backendBolt
	backendPostgres
)

func (b backend) String() string {
	switch b {
	case backendBolt:
		return "bolt"
	case backendPostgres:
		return "postgres"
	}
	return "fs"
}

// storeLocation is the store a command works on: the --store flag, else
// $RECALL_STORE, else the per-user default.
func (a *app) storeLocation() (string, error) {
	p := a.storeFlag
	if p == "" {
		p = a.getenv("RECALL_STORE")
	}
	if p == "" {
		return defaultStorePath(runtime.GOOS, a.getenv)
	}
	return expandHome(p, runtime.GOOS, a.getenv), nil
}

// defaultStorePath is the per-user data folder for the store on goos:
//
//	Linux, BSD:  $XDG_DATA_HOME/recall/memory, else ~/.local/share/recall/memory
//	macOS:       ~/Library/Application Support/recall/memory
//	Windows:     %LocalAppData%\recall\memory
//
// A relative $XDG_DATA_HOME is ignored, as the XDG spec asks.
func defaultStorePath(goos string, getenv func(string) string) (string, error) {
	home := homeDir(goos, getenv)
	switch goos {
	case "windows":
		base := getenv("LOCALAPPDATA")
		if base == "" && home != "" {
			base = filepath.Join(home, "AppData", "Local")
		}
		if base == "" {
			return "", errors.New("no default store: %LocalAppData% and %USERPROFILE% are unset; pass --store or set RECALL_STORE")
		}
		return filepath.Join(base, "recall", "memory"), nil
	case "darwin", "ios":
		if home == "" {
			return "", errors.New("no default store: $HOME is unset; pass --store or set RECALL_STORE")
		}
		return filepath.Join(home, "Library", "Application Support", "recall", "memory"), nil
	default:
		if x := getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
			return filepath.Join(x, "recall", "memory"), nil
		}
		if home == "" {
			return "", errors.New("no default store: $HOME is unset; pass --store or set RECALL_STORE")
		}
		return filepath.Join(home, ".local", "share", "recall", "memory"), nil
	}
}

func homeDir(goos string, getenv func(string) string) string {
	if goos == "windows" {
		return getenv("USERPROFILE")
	}
	return getenv("HOME")
}

// expandHome turns a leading "~" into the home folder, for a path that
// reached us quoted (RECALL_STORE="~/memory") and so was not expanded by
// the shell.
func expandHome(p, goos string, getenv func(string) string) string {
	rest, ok := strings.CutPrefix(p, "~")
	if !ok || (rest != "" && rest[0] != '/' && !(goos == "windows" && rest[0] == '\\')) {
		return p
	}
	home := homeDir(goos, getenv)
	if home == "" {
		return p
	}
	return home + rest
}

// backendFor chooses the backend for a path: a name starting with
// "postgres:" or "postgresql:" (any case) is a PostgreSQL database (it
// must then be a postgres:// URL; never a folder of that name); a name
// ending in ".db" (any case) is a bolt file, unless a folder of that name
// already exists; anything else is an fs folder.
func backendFor(path string, info iofs.FileInfo) backend {
	if lower := strings.ToLower(path); strings.HasPrefix(lower, "postgres:") || strings.HasPrefix(lower, "postgresql:") {
		return backendPostgres
	}
	if strings.HasSuffix(strings.ToLower(path), ".db") && (info == nil || !info.IsDir()) {
		return backendBolt
	}
	return backendFS
}

// openStore opens the store the command line names.
func (a *app) openStore(mode openMode) (store.Store, error) {
	path, err := a.storeLocation()
	if err != nil {
		return nil, err
	}
	return a.openStoreAt(path, mode)
}

// openStoreAt opens the store at path (a folder, a .db file or a
// PostgreSQL URL).
func (a *app) openStoreAt(path string, mode openMode) (store.Store, error) {
	if backendFor(path, nil) == backendPostgres {
		return openPostgres(path, mode)
	}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		info = nil
		if mode == mustExist {
			return nil, fmt.Errorf("%s: %w (add or import something first, or check --store and RECALL_STORE)", path, errNoStore)
		}
		if err := a.checkCreatable(path); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, fmt.Errorf("store: %w", err)
	}
	switch backendFor(path, info) {
	case backendBolt:
		// The default timeout (about a second) turns another process
		// holding the file into a clear store.ErrLocked, not a hang.
		st, err := boltstore.Open(path, nil)
		if err != nil && mode == mustExist && notWritable(err) {
			// Read-only media, an immutable file, a file of another
			// user: read it as it is, as a folder store would be.
			return boltstore.Open(path, &boltstore.Options{ReadOnly: true})
		}
		if err != nil && notWritable(err) {
			return nil, fmt.Errorf("%w (the store file is not writable here; commands that only read still work)", err)
		}
		return st, err
	default:
		if info != nil && !info.IsDir() {
			return nil, fmt.Errorf("store %s is a file, not a folder (a bolt store's name must end in .db)", path)
		}
		return fsstore.Open(path, nil)
	}
}

// notWritable reports whether opening a file failed because it cannot be
// written here.
func notWritable(err error) bool {
	return errors.Is(err, syscall.EROFS) || errors.Is(err, iofs.ErrPermission)
}

// openPostgres opens a PostgreSQL store. Commands that only read do not
// create recall's schema: a database without it is errNoStore, like a
// missing folder. The URL's password never appears in an error.
func openPostgres(url string, mode openMode) (store.Store, error) {
	if !pgstore.IsURL(url) {
		return nil, fmt.Errorf("store %q: a PostgreSQL store is named by a URL such as postgres://user@host/dbname", url)
	}
	// Open bounds itself (connect and per-call timeouts); the PG*
	// environment variables fill what the URL leaves out.
	st, err := pgstore.Open(context.Background(), url, &pgstore.Options{NoCreate: mode == mustExist})
	if errors.Is(err, pgstore.ErrNoSchema) {
		return nil, fmt.Errorf("%s: %w (no recall schema in that database; add or import something first, or check --store and RECALL_STORE)",
			pgstore.Redact(url), errNoStore)
	}
	return st, err
}

// withStore opens the store, runs fn, and always closes the store (which
// releases a bolt file's lock), reporting a failed Close when fn succeeded.
func (a *app) withStore(ctx context.Context, mode openMode, fn func(store.Store) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	st, err := a.openStore(mode)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := st.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close store: %w", cerr)
		}
	}()
	return fn(st)
}
