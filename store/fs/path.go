package fs

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/recallhq/recall/store"
)

// RootCategory is the category of the notes that sit directly in the
// store's root folder (<root>/<name>.md), as notes at the top of an
// Obsidian vault do (store.RootCategory). Put and Get of this exact
// category use the root folder; a folder <root>/_root/ holds no entries of
// its own (All reports any note in it), though its sub-folders are
// ordinary categories ("_root/x").
const RootCategory = store.RootCategory

// CaseMode says whether the file system under the root tells names apart
// by case. The zero value asks Open to find out.
type CaseMode int

const (
	// CaseAuto: Open probes the root folder (it creates and removes a
	// small file in <root>/.recall).
	CaseAuto CaseMode = iota
	// CaseSensitive: "Note.md" and "note.md" are two files (Linux).
	CaseSensitive
	// CaseInsensitive: they are one file (the macOS and Windows
	// defaults, FAT). Put then refuses an identity that differs from an
	// existing one only by case.
	CaseInsensitive
)

// Errors about the shape of the folder. They wrap ErrMalformed.
var (
	errSymlink    = errors.New("is a symbolic link, which a folder store never follows")
	errNotRegular = errors.New("is not a regular file")
	errNotFolder  = errors.New("is a file where a category folder belongs")
)

// relDir is the folder of category below the root, in the OS's syntax:
// each level as written (store.CategoryPath undoes the name mapping).
func relDir(category string) string {
	if category == RootCategory {
		return ""
	}
	return filepath.FromSlash(store.CategoryPath(category))
}

// checkRoot reports whether the root folder is still there and is the one
// Open found: a folder store whose root was deleted or unmounted is
// unavailable, not empty.
func (s *Store) checkRoot(op string) error {
	fi, err := os.Stat(s.root)
	if err != nil {
		return fmt.Errorf("%s: %w: root folder %s: %v", op, store.ErrUnavailable, s.root, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: %w: root %s is no longer a folder", op, store.ErrUnavailable, s.root)
	}
	if dev, ok := deviceOf(fi); ok && s.rootDev != 0 && dev != s.rootDev {
		return fmt.Errorf("%s: %w: root folder %s is on another file system than when the store was opened (unmounted?)", op, store.ErrUnavailable, s.root)
	}
	return nil
}

// walkDir checks the folders of category from the root down, never
// following a symbolic link. It returns the category's folder. Errors:
// iofs.ErrNotExist for a missing folder, and wrapping ErrMalformed a
// symbolic link or a plain file in the way (each naming the path).
func (s *Store) walkDir(category string) (string, error) {
	dir := s.root
	if category == RootCategory {
		return dir, nil
	}
	for _, seg := range strings.Split(category, "/") {
		dir = filepath.Join(dir, store.UnescapeName(seg))
		fi, err := os.Lstat(dir)
		switch {
		case err != nil:
			return dir, err
		case fi.Mode()&iofs.ModeSymlink != 0:
			return dir, fmt.Errorf("%s: %w: %w", dir, ErrMalformed, errSymlink)
		case !fi.IsDir():
			return dir, fmt.Errorf("%s: %w: %w", dir, ErrMalformed, errNotFolder)
		}
	}
	return dir, nil
}

// checkRecallDir refuses a <root>/.recall, or a folder in it on the way to
// dir (dir is below <root>/.recall), that is a symbolic link: the store
// keeps its lock file and vector cache there, and a memory kept in git could
// carry a link that sends those writes out of the root. Missing folders
// are fine; they are made when needed.
func (s *Store) checkRecallDir(dir string) error {
	base := filepath.Join(s.root, ".recall")
	rel, err := filepath.Rel(base, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return fmt.Errorf("%s is not below %s", dir, base)
	}
	p := base
	segs := []string{}
	if rel != "." {
		segs = strings.Split(rel, string(filepath.Separator))
	}
	for i := 0; ; i++ {
		fi, err := os.Lstat(p)
		if errors.Is(err, iofs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&iofs.ModeSymlink != 0 {
			return fmt.Errorf("%s: %w: %w", p, ErrMalformed, errSymlink)
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s: %w: is not a folder", p, ErrMalformed)
		}
		if i == len(segs) {
			return nil
		}
		p = filepath.Join(p, segs[i])
	}
}

// missing reports whether err from walkDir or an open means "no entry".
func missing(err error) bool {
	return errors.Is(err, iofs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, errNotFolder)
}

// checkCase refuses, on a case-insensitive file system, a new identity that
// differs only by case from an existing one: the file it would write is
// that entry's file. Each level of the category and the file name are
// compared with what the folder lists.
func (s *Store) checkCase(e store.Entry) error {
	if s.foldsCase() != CaseInsensitive {
		return nil
	}
	dir := s.root
	var segs []string
	if e.Category != RootCategory {
		segs = strings.Split(store.CategoryPath(e.Category), "/")
	}
	for i, seg := range append(segs, store.UnescapeName(e.Name)+ext) {
		found, err := spelling(dir, seg)
		if err != nil || found == "" {
			return nil // missing from here down: nothing to clash with
		}
		if found != seg {
			field, value, what := "category", e.Category, strings.Join(append(segs[:i:i], found), "/")
			if i == len(segs) {
				field, value, what = "name", e.Name, strings.TrimSuffix(found, ext)
			}
			return &store.FieldError{Field: field, Value: value,
				Reason: fmt.Sprintf("differs only by case from the existing %q, and this folder's file system does not tell case apart", what)}
		}
		dir = filepath.Join(dir, seg)
	}
	return nil
}

// spelling returns the name in dir that equals want when case and Unicode
// normalisation are ignored, preferring an exact match; "" when none.
func spelling(dir, want string) (string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return "", err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return "", err
	}
	found := ""
	for _, n := range names {
		n = norm.NFC.String(n)
		if n == want {
			return n, nil
		}
		if strings.EqualFold(n, want) {
			found = n
		}
	}
	return found, nil
}

// foldsCase returns Options.Case, or finds out once, at the first Put, so
// that opening a store (a vault, read-only) writes nothing.
func (s *Store) foldsCase() CaseMode {
	s.caseOnce.Do(func() {
		s.caseMode = s.opts.Case
		if s.caseMode == CaseAuto {
			s.caseMode = probeCase(s.root)
		}
	})
	return s.caseMode
}

// probeCase finds out whether the file system of root folds case: by
// looking up a name the root holds in another case, or, when it holds none
// with letters, by creating a file in <root>/.recall and looking that up.
func probeCase(root string) CaseMode {
	if names, err := readNames(root); err == nil {
		for _, n := range names {
			other := swapCase(n)
			if other == n {
				continue
			}
			a, err1 := os.Lstat(filepath.Join(root, n))
			b, err2 := os.Lstat(filepath.Join(root, other))
			if err1 == nil && err2 == nil && os.SameFile(a, b) {
				return CaseInsensitive
			}
			if err1 == nil {
				return CaseSensitive
			}
		}
	}
	dir := filepath.Join(root, ".recall")
	if fi, err := os.Lstat(dir); err == nil && !fi.IsDir() {
		return CaseSensitive // a link or a file: see checkRecallDir
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return CaseSensitive
	}
	f, err := os.CreateTemp(dir, ".case-probe-*")
	if err != nil {
		return CaseSensitive
	}
	name := f.Name()
	f.Close()
	defer os.Remove(name)
	base := filepath.Base(name)
	other := filepath.Join(dir, strings.ToUpper(base))
	if other == name {
		return CaseSensitive
	}
	a, err1 := os.Stat(name)
	b, err2 := os.Stat(other)
	if err1 == nil && err2 == nil && os.SameFile(a, b) {
		return CaseInsensitive
	}
	return CaseSensitive
}

func readNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(64)
}

// swapCase turns upper-case letters to lower case and the others to upper.
func swapCase(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, s)
}
