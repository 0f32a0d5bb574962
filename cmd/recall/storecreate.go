package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// checkCreatable lets a command create the store itself and never the
// folders above it (SPEC §8): a mistyped --store (/nonexistent/dir/x.db)
// is an error, not a new folder tree. Only the per-user default location,
// which no one types, gets its parent folders, mode 0700: memories are
// personal.
func (a *app) checkCreatable(path string) error {
	parent := filepath.Dir(path)
	if a.storeFlag == "" && a.getenv("RECALL_STORE") == "" {
		if err := os.MkdirAll(parent, 0o700); err != nil {
			return fmt.Errorf("create store: %w", err)
		}
		return nil
	}
	fi, err := os.Stat(parent)
	switch {
	case err != nil:
		return fmt.Errorf("cannot create store %s: its folder %s does not exist (check --store and RECALL_STORE, or create the folder first)", path, parent)
	case !fi.IsDir():
		return fmt.Errorf("cannot create store %s: %s is not a folder", path, parent)
	}
	return nil
}
