package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"

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
		return location.DefaultPath(runtime.GOOS, a.getenv)
	}
	return location.ExpandHome(p, runtime.GOOS, a.getenv), nil
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
		Create:        mode == create,
		Parents:       a.storeFlag == "" && a.getenv("RECALL_STORE") == "",
		CacheDir:      a.getenv("RECALL_CACHE_DIR"),
		CacheInFolder: a.cacheInFolder,
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
	st, _, err := location.Open(ctx, name, &location.Options{Create: mode == create,
		CacheDir: a.getenv("RECALL_CACHE_DIR"), CacheInFolder: a.cacheInFolder})
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
