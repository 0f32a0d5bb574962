package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/location"
)

// openMode says what to do when the store is missing.
type openMode int

const (
	mustExist openMode = iota // read commands: fail with location.ErrNotExist (an empty store would hide a mistyped --store)
	create                    // add, import, servers: create the store itself (see openStore)
)

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

// openStore opens the store the command line names, creating it in mode
// create. Only the per-user default location, which no one types, gets
// its parent folders (SPEC §8): a mistyped --store is an error, not a new
// folder tree.
func (a *app) openStore(ctx context.Context, mode openMode) (store.Store, location.Location, error) {
	name, err := a.storeLocation()
	if err != nil {
		return nil, location.Location{}, err
	}
	loc, err := location.Parse(name)
	if err != nil {
		return nil, location.Location{}, err
	}
	st, err := loc.Open(ctx, &location.Options{
		Create:  mode == create,
		Parents: a.storeFlag == "" && a.getenv("RECALL_STORE") == "",
	})
	if errors.Is(err, location.ErrNotExist) {
		return nil, loc, fmt.Errorf("%w (add or import something first, or check --store and RECALL_STORE)", err)
	}
	return st, loc, err
}

// openStoreAt opens the store at name (a folder, a .db file or a
// PostgreSQL URL) other than the command line's, creating nothing in mode
// mustExist.
func (a *app) openStoreAt(ctx context.Context, name string, mode openMode) (store.Store, error) {
	st, _, err := location.Open(ctx, name, &location.Options{Create: mode == create})
	return st, err
}

// withStore opens the store, runs fn, and always closes the store (which
// releases a bolt file's lock), reporting a failed Close when fn succeeded.
func (a *app) withStore(ctx context.Context, mode openMode, fn func(store.Store) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	st, _, err := a.openStore(ctx, mode)
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
