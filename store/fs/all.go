package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/recallhq/recall/store"
)

// All walks the root: each folder is a category, each "*.md" file in it an
// entry. It reads one file at a time, in name order, and holds no lock while
// yielding, so the loop body may call any method of the store.
//
// Skipped silently: names starting with '.' (temp files among them), files
// that do not end in ".md", plain files in the root, folders inside a
// category, and files removed while the walk runs. Yielded as an error item
// wrapping ErrMalformed, and then passed over: a category folder or a
// "*.md" file whose name breaks store.ValidateName, and a file that cannot
// be parsed (the Entry then carries its Category and Name). Cancelling ctx,
// or closing the store, ends the walk with one error item.
func (s *Store) All(ctx context.Context) iter.Seq2[store.Entry, error] {
	return func(yield func(store.Entry, error) bool) {
		if err := s.check(ctx, "all"); err != nil {
			yield(store.Entry{}, err)
			return
		}
		cats, err := os.ReadDir(s.root)
		if err != nil {
			yield(store.Entry{}, fmt.Errorf("all: %w", err))
			return
		}
		for _, c := range cats {
			dir := filepath.Join(s.root, c.Name())
			if strings.HasPrefix(c.Name(), ".") || !isDir(c, dir) {
				continue
			}
			if err := s.check(ctx, "all"); err != nil {
				yield(store.Entry{}, err)
				return
			}
			if err := store.ValidateName("category", c.Name()); err != nil {
				if !yield(store.Entry{}, fmt.Errorf("%s: %w: %w", dir, ErrMalformed, err)) {
					return
				}
				continue
			}
			if !s.walkCategory(ctx, dir, c.Name(), yield) {
				return
			}
		}
	}
}

// walkCategory yields the entries of one folder and reports whether the
// walk goes on.
func (s *Store) walkCategory(ctx context.Context, dir, category string, yield func(store.Entry, error) bool) bool {
	files, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, iofs.ErrNotExist) { // its last entry was deleted meanwhile
			return true
		}
		return yield(store.Entry{}, fmt.Errorf("all: %w", err))
	}
	// Files are read a chunk at a time in parallel (readahead.go) and
	// yielded in name order.
	var chunk []readJob
	flush := func() bool {
		readAll(chunk)
		for _, j := range chunk {
			if errors.Is(j.err, iofs.ErrNotExist) { // deleted since the listing
				continue
			}
			if err := s.check(ctx, "all"); err != nil {
				yield(store.Entry{}, err)
				return false
			}
			if !yield(j.e, j.err) {
				return false
			}
		}
		chunk = chunk[:0]
		return true
	}
	for _, f := range files {
		name, ok := strings.CutSuffix(f.Name(), ext)
		path := filepath.Join(dir, f.Name())
		if !ok || strings.HasPrefix(f.Name(), ".") || isDir(f, path) {
			continue
		}
		if err := s.check(ctx, "all"); err != nil {
			yield(store.Entry{}, err)
			return false
		}
		if err := store.ValidateName("name", name); err != nil {
			if !flush() {
				return false
			}
			if !yield(store.Entry{}, fmt.Errorf("%s: %w: %w", path, ErrMalformed, err)) {
				return false
			}
			continue
		}
		chunk = append(chunk, readJob{path: path, category: category, name: name})
		if len(chunk) == readChunk && !flush() {
			return false
		}
	}
	return flush()
}

// isDir reports whether d is a folder, following a symbolic link.
func isDir(d iofs.DirEntry, path string) bool {
	if d.Type()&iofs.ModeSymlink == 0 {
		return d.IsDir()
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
