// Package zipsafe keeps test fixtures whose file names a Go module zip
// cannot hold. The module zip (what `go install ...@version` downloads)
// refuses a path with ';', '\”, '"', '*', ':', '<', '>', '?', '`', '|' or
// a character that is not a letter, digit or one of a few marks (an emoji):
// golang.org/x/mod/module.CheckFilePath. recall's own names allow most of
// them (SPEC §1), and its tests need notes named so.
//
// Such a fixture is kept in the repository with each of those characters
// written as {U+XXXX} ("Tom{U+0027}s notes.md"), and CopyTree makes the
// real tree in a temporary folder.
package zipsafe

import (
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

var escape = regexp.MustCompile(`\{U\+([0-9A-F]{4,6})\}`)

// Decode replaces every {U+XXXX} in name by its character.
func Decode(name string) string {
	return escape.ReplaceAllStringFunc(name, func(m string) string {
		r, err := strconv.ParseUint(escape.FindStringSubmatch(m)[1], 16, 32)
		if err != nil {
			return m
		}
		return string(rune(r))
	})
}

// CopyTree copies the tree at src into dst (which must not exist), with
// every name decoded, keeping modification times.
func CopyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d iofs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, Decode(rel))
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			if err := copyFile(path, target); err != nil {
				return err
			}
			return os.Chtimes(target, info.ModTime(), info.ModTime())
		default:
			return fmt.Errorf("%s: not a regular file", path)
		}
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
