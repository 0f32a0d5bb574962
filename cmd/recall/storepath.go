package main

import (
	"context"
	"runtime"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/location"
)

// openMode says what to do when the store is missing.
type openMode int

const (
	mustExist openMode = iota // read commands: fail with location.ErrNotExist (an empty store would hide a mistyped --store)
	create                    // add, import, servers: create the store itself (location.OpenChosen: only the per-user default gets its parent folders)
)

// storeLocation is the store a command works on: the --store flag, else
// $RECALL_STORE, else the per-user default (location.Choose).
func (a *app) storeLocation() (string, error) {
	name, _, err := location.Choose(a.storeFlag, runtime.GOOS, a.getenv)
	return name, err
}

// locationOptions are how the command line opens a store: created when
// createStore is set, its caches where --cache-in-folder and
// $RECALL_CACHE_DIR say.
func (a *app) locationOptions(createStore bool) location.Options {
	return location.Options{Create: createStore, CacheDir: a.getenv("RECALL_CACHE_DIR"), CacheInFolder: a.cacheInFolder}
}

// withStore opens the store, runs fn, and always closes the store
// (location.WithChosen).
func (a *app) withStore(ctx context.Context, mode openMode, fn func(store.Store) error) error {
	return location.WithChosen(ctx, a.storeFlag, a.locationOptions(mode == create), a.getenv, fn)
}
