package location

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/recallhq/recall/store"
)

// DefaultPath is the per-user data folder for the store on goos (runtime.GOOS
// for this machine), with getenv looking up the environment (os.Getenv):
//
//	Linux, BSD:  $XDG_DATA_HOME/recall/memory, else ~/.local/share/recall/memory
//	macOS:       ~/Library/Application Support/recall/memory
//	Windows:     %LocalAppData%\recall\memory
//
// A relative $XDG_DATA_HOME is ignored, as the XDG spec asks. When the
// home folder is unknown, the error says so and names recall's --store
// flag and $RECALL_STORE, the ways to name a store instead.
func DefaultPath(goos string, getenv func(string) string) (string, error) {
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

// ExpandHome turns a leading "~" (or "~/...") into the home folder, for a path that
// reached us quoted (RECALL_STORE="~/memory") and so was not expanded by
// the shell. "~user" and a "~" anywhere else are left alone, as is p
// when the home folder is unknown.
func ExpandHome(p, goos string, getenv func(string) string) string {
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

// Choose returns the store a command names: flag (recall's --store), else
// $RECALL_STORE, else DefaultPath; a leading "~" is expanded (ExpandHome).
// isDefault reports the per-user default, the one location whose parent
// folders may be created (Options.Parents): no one types it, while a
// mistyped --store must be an error, not a new folder tree.
func Choose(flag, goos string, getenv func(string) string) (name string, isDefault bool, err error) {
	p := flag
	if p == "" {
		p = getenv("RECALL_STORE")
	}
	if p == "" {
		p, err = DefaultPath(goos, getenv)
		return p, err == nil, err
	}
	return ExpandHome(p, goos, getenv), false, nil
}

// OpenChosen opens the store Choose names on this system with opts,
// creating it when opts.Create is set (its parent folders too for the
// per-user default only: OpenChosen sets opts.Parents). A missing store's
// error wraps ErrNotExist and says how to make one or name another.
func OpenChosen(ctx context.Context, flag string, opts Options, getenv func(string) string) (store.Store, Location, error) {
	name, isDefault, err := Choose(flag, runtime.GOOS, getenv)
	if err != nil {
		return nil, Location{}, err
	}
	loc, err := Parse(name)
	if err != nil {
		return nil, Location{}, err
	}
	opts.Parents = isDefault
	st, err := loc.Open(ctx, &opts)
	if errors.Is(err, ErrNotExist) {
		return nil, loc, fmt.Errorf("%w (add or import something first, or check --store and RECALL_STORE)", err)
	}
	return st, loc, err
}
