package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/recallhq/recall/store"
	fsstore "github.com/recallhq/recall/store/fs"
)

// readVault queues the markdown files under root (see the import command's
// help for the layout).
func readVault(ctx context.Context, root, rootCategory string, im *importer) error {
	var files []vaultFile
	err := filepath.WalkDir(root, func(path string, d iofs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			im.skip(path, err) // an unreadable sub-folder
			return nil
		}
		if path != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".md") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			im.skip(path, err)
			return nil
		}
		files = append(files, vaultFile{path: path, rel: filepath.ToSlash(rel)})
		return ctx.Err()
	})
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	// Shallow files first, so that when flattening makes two files one
	// identity (trips/kyoto.md and trips/2024/kyoto.md), the one nearer the
	// top wins, whatever the file names.
	slices.SortFunc(files, func(a, b vaultFile) int {
		return cmp.Or(cmp.Compare(a.depth(), b.depth()), strings.Compare(a.rel, b.rel))
	})
	r := &vaultReader{stores: map[string]*fsstore.Store{}}
	defer r.close()
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		e, err := r.read(ctx, f, rootCategory)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			im.skip(f.path, err)
			continue
		}
		im.add(f.path, e)
	}
	return nil
}

// vaultFile is one markdown file of a vault.
type vaultFile struct {
	path string // as found by the walk (under the PATH the user gave)
	rel  string // relative to the vault, with '/'
}

func (f vaultFile) depth() int { return strings.Count(f.rel, "/") }

// identity returns the entry a file becomes: top-level folder and file
// name, or rootCategory for a file in the vault's root.
func (f vaultFile) identity(rootCategory string) store.Key {
	top, rest, nested := strings.Cut(f.rel, "/")
	k := store.Key{Category: rootCategory, Name: strings.TrimSuffix(top, ".md")}
	if nested {
		k.Category = top
		k.Name = strings.TrimSuffix(rest[strings.LastIndex(rest, "/")+1:], ".md")
	}
	return k
}

// vaultReader reads vault files with the fs store's own parser, so that
// front matter means exactly what it means in an fs store. store/fs does
// not export its parser; it can read any file dir/name.md as the entry
// (base(dir), name) of a store opened on dir's parent, so that is what
// this does, with one read-only store per parent folder.
type vaultReader struct {
	stores map[string]*fsstore.Store
}

func (r *vaultReader) read(ctx context.Context, f vaultFile, rootCategory string) (store.Entry, error) {
	k := f.identity(rootCategory)
	if err := store.ValidateKey(k.Category, k.Name); err != nil {
		return store.Entry{}, err
	}
	abs, err := filepath.Abs(f.path)
	if err != nil {
		return store.Entry{}, err
	}
	dir := filepath.Dir(abs)
	folder := filepath.Base(dir)
	if err := store.ValidateName("category", folder); err != nil {
		// Only reachable for files not in a top-level folder (whose name
		// was just validated as the category): the file is fine, but the
		// fs store cannot address it.
		var fe *store.FieldError
		reason := err.Error()
		if errors.As(err, &fe) {
			reason = fe.Reason
		}
		return store.Entry{}, fmt.Errorf("cannot read files in folder %q: the name %s", folder, reason)
	}
	st, err := r.open(filepath.Dir(dir))
	if err != nil {
		return store.Entry{}, err
	}
	e, err := st.Get(ctx, folder, k.Name)
	if errors.Is(err, store.ErrNotFound) {
		return store.Entry{}, errors.New("not a readable file (removed, or a link to a folder)")
	}
	if err != nil {
		// The store's message names the operation and the absolute path;
		// the report already names the file.
		msg := err.Error()
		if _, after, ok := strings.Cut(msg, abs+": "); ok {
			msg = after
		}
		return store.Entry{}, errors.New(msg)
	}
	e.Category, e.Name = k.Category, k.Name
	return e, nil
}

// open returns the store over parent. StaleTempAge < 0 keeps Open from
// deleting anything: the vault is only read.
func (r *vaultReader) open(parent string) (*fsstore.Store, error) {
	if st, ok := r.stores[parent]; ok {
		return st, nil
	}
	st, err := fsstore.Open(parent, &fsstore.Options{StaleTempAge: -1})
	if err != nil {
		return nil, err
	}
	r.stores[parent] = st
	return st, nil
}

func (r *vaultReader) close() {
	for _, st := range r.stores {
		st.Close()
	}
}
