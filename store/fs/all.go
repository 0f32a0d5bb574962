package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/recallhq/recall/store"
)

// All walks the root: each folder is a category level (a/b/c/name.md is
// entry "name" of category "a/b/c"), each "*.md" file an entry, and the
// "*.md" files of the root itself are entries of RootCategory. It reads one
// file at a time, in name order, depth first, and holds no lock while
// yielding, so the loop body may call any method of the store.
//
// Skipped silently: names starting with '.' (.obsidian, .trash, .git,
// .recall, temp files), files that do not end in ".md" (attachments), and
// files removed while the walk runs. Everything else that could hold a note
// but cannot be read as one is yielded as an error item wrapping
// ErrMalformed that names the path and the reason, and then passed over,
// so nothing is silently invisible: a "*.md" file or a folder whose name
// breaks the rules of store.ValidateKey (every note below such a folder is
// named), a file name not in Unicode NFC, a folder deeper than
// store.MaxCategoryDepth, a symbolic link (never followed), a named pipe or
// another non-regular file, a note directly in a folder named RootCategory,
// and a file that cannot be parsed (the Entry then carries its Category and
// Name). A root folder that has gone is one error wrapping
// store.ErrUnavailable. Cancelling ctx, or closing the store, ends the walk
// with one error item.
func (s *Store) All(ctx context.Context) iter.Seq2[store.Entry, error] {
	return func(yield func(store.Entry, error) bool) {
		if err := s.check(ctx, "all"); err != nil {
			yield(store.Entry{}, err)
			return
		}
		w := walker[store.Entry]{s: s, ctx: ctx, yield: yield, leaf: readLeaf}
		w.walk(s.root, nil, nil)
	}
}

// readLeaf is the leaf of All and AllSorted: the note read whole, passed
// over when it was deleted since the listing.
func readLeaf(path, category, name string) (store.Entry, bool, error) {
	e, err := readEntry(path, category, name)
	return e, errors.Is(err, iofs.ErrNotExist), err
}

// walker is the walk of All, shared with AllStamped so that both follow
// the same rules: it decides which files are notes, with which key, and
// which are reported as unmappable; leaf handles each note (reads it, or
// stamps it), and skip drops a note that has gone meanwhile.
type walker[T any] struct {
	s     *Store
	ctx   context.Context
	leaf  func(path, category, name string) (item T, skip bool, err error)
	yield func(T, error) bool
	flat  bool // only the notes directly in the folder, not below it

	// push, when set (a sorted walk), takes the sub-folders as pending
	// folders instead of walk descending into them, and walk handles a
	// folder's notes in name order; dirsOnly passes over the notes (the
	// root's first pass, see walkSorted).
	push     func(pendingDir)
	dirsOnly bool
}

var _ store.KeyLister = (*Store)(nil)

// Keys lists the identities All would yield by walking the folders' names
// only: no entry file is opened. It maps names and reports the files it
// cannot map exactly as All does; a file whose front matter or content is
// broken is listed (All and Get report it). With a category, only the
// notes directly in that category's folder are listed (RootCategory: the
// root's own notes); a category whose folder is missing has none, and one
// whose folder is a symbolic link or a plain file is one error wrapping
// ErrMalformed.
func (s *Store) Keys(ctx context.Context, category string) iter.Seq2[store.Key, error] {
	return func(yield func(store.Key, error) bool) {
		if err := s.check(ctx, "keys"); err != nil {
			yield(store.Key{}, err)
			return
		}
		w := walker[store.Key]{s: s, ctx: ctx, yield: yield, leaf: func(_, category, name string) (store.Key, bool, error) {
			return store.Key{Category: category, Name: name}, false, nil
		}}
		dir, cat := s.root, []string(nil)
		if category != "" {
			category, _ = store.NormalizeKey(category, "")
			if err := store.ValidateKey(category, "x"); err != nil {
				yield(store.Key{}, fmt.Errorf("keys: %w", err))
				return
			}
			d, err := s.walkDir(category)
			switch {
			case missing(err):
				return
			case err != nil:
				yield(store.Key{}, fmt.Errorf("keys: %w", err))
				return
			}
			dir, w.flat = d, true
			if category != RootCategory {
				cat = strings.Split(category, "/")
			}
		}
		w.walk(dir, cat, nil)
	}
}

// walk yields the entries below dir, whose category levels are cat, and
// reports whether the walk goes on. A non-nil bad is why no note below dir
// can be mapped; each is then reported with it.
func (w *walker[T]) walk(dir string, cat []string, bad error) bool {
	s, ctx := w.s, w.ctx
	var zero T
	files, err := os.ReadDir(dir)
	if err != nil {
		// A vanished root is the store gone, not a category emptied.
		if err := s.checkRoot("all"); err != nil {
			w.yield(zero, err)
			return false
		}
		if len(cat) > 0 && errors.Is(err, iofs.ErrNotExist) { // its last entry was deleted meanwhile
			return true
		}
		return w.yield(zero, fmt.Errorf("all: %s: %w", dir, err))
	}
	var notes []note
	for _, f := range files {
		if err := s.live(ctx, "all"); err != nil {
			w.yield(zero, err)
			return false
		}
		base := f.Name()
		if strings.HasPrefix(base, ".") {
			if f.Type().IsRegular() && isTempName(base) {
				s.removeIfStale(filepath.Join(dir, base), f)
			}
			continue
		}
		path := filepath.Join(dir, base)
		malformed := func(reason error) bool {
			return w.yield(zero, fmt.Errorf("%s: %w: %w", path, ErrMalformed, reason))
		}
		if f.Type()&iofs.ModeSymlink != 0 && !strings.HasSuffix(base, ext) {
			if w.flat {
				continue // it could hide only notes of other categories
			}
			// A link to a folder would hide notes; a link to an attachment
			// hides nothing.
			if fi, err := os.Stat(path); err == nil && fi.IsDir() {
				if !malformed(errSymlink) {
					return false
				}
			}
			continue
		}
		if f.IsDir() {
			if w.flat {
				continue
			}
			sub, subBad := s.subCategory(dir, base, cat, bad)
			if w.push != nil {
				w.push(pendingDir{key: strings.Join(sub, "/"), dir: path, cat: sub, bad: subBad})
				continue
			}
			if !w.walk(path, sub, subBad) {
				return false
			}
			continue
		}
		stem, isNote := strings.CutSuffix(base, ext)
		if !isNote || w.dirsOnly {
			continue
		}
		if bad != nil {
			if !malformed(bad) {
				return false
			}
			continue
		}
		if f.Type()&iofs.ModeSymlink != 0 {
			if !malformed(errSymlink) {
				return false
			}
			continue
		}
		if !f.Type().IsRegular() {
			if !malformed(fmt.Errorf("%w (%s); only regular files are entries", errNotRegular, fileKind(f.Type()))) {
				return false
			}
			continue
		}
		category := RootCategory
		if len(cat) > 0 {
			category = strings.Join(cat, "/")
			if category == RootCategory {
				if !malformed(fmt.Errorf("category %s is the notes in the root folder, so a note in a folder of that name cannot be mapped; move it", RootCategory)) {
					return false
				}
				continue
			}
		}
		name, err := s.segment(dir, base, stem, "name")
		name = store.EscapeName(name) // SPEC §1's name mapping (store/name.go)
		if err == nil {
			err = store.ValidateKey(category, name)
		}
		if err != nil {
			if !malformed(err) {
				return false
			}
			continue
		}
		if w.push != nil {
			notes = append(notes, note{path: path, category: category, name: name})
			continue
		}
		if !w.note(path, category, name) {
			return false
		}
	}
	if w.push == nil {
		return true
	}
	files = nil // only the notes are kept
	slices.SortFunc(notes, func(a, b note) int { return strings.Compare(a.name, b.name) })
	for _, n := range notes {
		if err := s.live(ctx, "all"); err != nil {
			w.yield(zero, err)
			return false
		}
		if !w.note(n.path, n.category, n.name) {
			return false
		}
	}
	return true
}

// note is a mappable note of the folder walk is reading, kept until the
// folder's listing is done when the walk is sorted.
type note struct{ path, category, name string }

// note hands one note to leaf and yields what it gives, and reports whether
// the walk goes on.
func (w *walker[T]) note(path, category, name string) bool {
	item, skip, err := w.leaf(path, category, name)
	if skip {
		return true
	}
	return w.yield(item, err)
}

// subCategory returns the category levels of the folder base inside dir
// (whose levels are cat) and, when its notes cannot be mapped, why.
func (s *Store) subCategory(dir, base string, cat []string, bad error) ([]string, error) {
	if bad != nil {
		return cat, bad
	}
	if len(cat) >= store.MaxCategoryDepth {
		return cat, fmt.Errorf("folder %s is deeper than %d levels, the most a category has", filepath.Join(dir, base), store.MaxCategoryDepth)
	}
	seg, err := s.segment(dir, base, base, "category")
	seg = store.EscapeName(seg)
	if err == nil {
		err = store.ValidateKey(strings.Join(append(cat[:len(cat):len(cat)], seg), "/"), "x")
	}
	if err != nil {
		return cat, fmt.Errorf("folder %s cannot be a category: %w", filepath.Join(dir, base), err)
	}
	sub := append(cat[:len(cat):len(cat)], seg)
	return sub, nil
}

// segment returns the NFC form of a file or folder name's segment (stem:
// base without ".md"). A name stored in another normal form is accepted
// only where the file system finds it under its NFC spelling too (macOS
// does; Linux does not), since every later Get and Put use that spelling.
func (s *Store) segment(dir, base, stem, field string) (string, error) {
	if !utf8.ValidString(stem) || norm.NFC.IsNormalString(stem) {
		return stem, nil
	}
	nfcStem := norm.NFC.String(stem)
	nfcBase := nfcStem + strings.TrimPrefix(base, stem)
	a, err1 := os.Lstat(filepath.Join(dir, base))
	b, err2 := os.Lstat(filepath.Join(dir, nfcBase))
	if err1 == nil && err2 == nil && os.SameFile(a, b) {
		return nfcStem, nil
	}
	return "", &store.FieldError{Field: field, Value: stem,
		Reason: fmt.Sprintf("is not in Unicode NFC, the form recall names are kept in; rename it to %q", nfcStem)}
}
