package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
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
	r := &vaultReader{}
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
// front matter means exactly what it means in an fs store, wherever in the
// vault the file sits.
type vaultReader struct{}

func (r *vaultReader) read(_ context.Context, f vaultFile, rootCategory string) (store.Entry, error) {
	k := f.identity(rootCategory)
	if err := store.ValidateKey(k.Category, k.Name); err != nil {
		return store.Entry{}, err
	}
	info, err := os.Stat(f.path)
	if err != nil {
		return store.Entry{}, err
	}
	if !info.Mode().IsRegular() {
		return store.Entry{}, errors.New("not a regular file")
	}
	if info.Size() > maxVaultFile {
		return store.Entry{}, fmt.Errorf("file is %d bytes, more than an entry can hold", info.Size())
	}
	b, err := os.ReadFile(f.path)
	if err != nil {
		return store.Entry{}, err
	}
	meta, content, err := fsstore.ParseEntry(b)
	if err != nil {
		return store.Entry{}, err
	}
	e := store.Entry{Category: k.Category, Name: k.Name, Content: content, Meta: meta}
	if err := store.ValidateContent(e.Content); err != nil {
		return store.Entry{}, err
	}
	return e, nil
}

// maxVaultFile bounds what is read of one file: content up to the entry
// limit plus generous front matter.
const maxVaultFile = store.MaxContentBytes + 1<<20
