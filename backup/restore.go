package backup

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"

	"github.com/recallhq/recall/store"
)

// ErrNotEmpty is wrapped by Restore's error when the store to restore
// into holds entries and RestoreOptions.Force is not set.
var ErrNotEmpty = errors.New("store is not empty")

// RestoreOptions tune Restore. The zero value is the default.
type RestoreOptions struct {
	// Force restores into a store that holds entries: afterwards it holds
	// exactly the backup's entries (those not in the backup are deleted,
	// the others replaced). Without it Restore refuses such a store.
	Force bool
	// Progress, when set, is called after each entry written.
	Progress func(done int)
}

// RestoreReport is what Restore did.
type RestoreReport struct {
	Restored int // entries written from the backup
	Deleted  int // entries of dst not in the backup (Force only)
	// Unreadable are the backup's entries that could not be read, each
	// "where: reason".
	Unreadable []string
}

// Restore writes every entry of a backup (entries: an opened backup
// store's All, or the items of a JSONL file) into dst, keeping every
// field, created and updated included. dst must be empty unless
// opts.Force is set (then it ends holding exactly the backup). An entry of
// the backup that cannot be read is reported and the rest restored; an
// entry dst refuses stops the restore with an error naming it.
func Restore(ctx context.Context, entries iter.Seq2[store.Entry, error], dst store.Store, opts RestoreOptions) (RestoreReport, error) {
	var rep RestoreReport
	existing := map[store.Key]bool{}
	for e, err := range keysOf(ctx, dst) {
		if err != nil {
			if whole(ctx, err) {
				return rep, fmt.Errorf("restore: %w", err)
			}
			continue // an unreadable entry of dst: Force replaces it if the backup has it
		}
		if !opts.Force {
			return rep, fmt.Errorf("restore: %w (it holds %s, at least); restore into an empty store", ErrNotEmpty, e)
		}
		existing[e] = true
	}
	r, err := copyEntries(ctx, func(yield func(store.Entry, error) bool) {
		for e, err := range entries {
			if err == nil {
				delete(existing, e.Key())
			}
			if !yield(e, err) {
				return
			}
		}
	}, dst, Options{Progress: opts.Progress})
	rep.Restored, rep.Unreadable = r.Entries, r.Unreadable
	if err != nil {
		return rep, fmt.Errorf("restore: %w", err)
	}
	for k := range existing {
		if err := dst.Delete(ctx, k.Category, k.Name); err != nil && !errors.Is(err, store.ErrNotFound) {
			return rep, fmt.Errorf("restore: delete %s: %w", k, err)
		}
		rep.Deleted++
	}
	return rep, nil
}

// keysOf lists st's identities (through store.KeyLister when offered).
func keysOf(ctx context.Context, st store.Store) iter.Seq2[store.Key, error] {
	if l, ok := st.(store.KeyLister); ok {
		return l.Keys(ctx, "")
	}
	return func(yield func(store.Key, error) bool) {
		for e, err := range st.All(ctx) {
			if !yield(e.Key(), err) {
				return
			}
		}
	}
}

// Open reads the backup at src for Restore: the lines of a .jsonl or
// .ndjson file (ReadJSONL), else the entries of the store open opens at
// src (a .db file, a folder, a PostgreSQL URL; location.Open, say).
// done releases what Open holds; call it after the restore. Errors start
// with "restore", for a one-line report.
func Open(ctx context.Context, src string, open func(ctx context.Context, name string) (store.Store, error)) (entries iter.Seq2[store.Entry, error], done func(), err error) {
	if FormatFor(src) == FormatJSONL {
		f, err := os.Open(src)
		if err != nil {
			return nil, nil, fmt.Errorf("restore: %w", err)
		}
		defer f.Close() // ReadJSONL reads it whole before it returns
		entries, err := ReadJSONL(ctx, f, src)
		if err != nil {
			return nil, nil, fmt.Errorf("restore %w", err)
		}
		return entries, func() {}, nil
	}
	st, err := open(ctx, src)
	if err != nil {
		return nil, nil, fmt.Errorf("restore: %w", err)
	}
	return st.All(ctx), func() { st.Close() }, nil
}
