// Package treetest takes snapshots of a folder tree, for tests that a
// command leaves a folder exactly as it was.
package treetest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Snapshot describes every file and folder below dir, dir itself and
// names starting with a dot included: path (slash-separated, relative) ->
// type, permissions, modification time, and the SHA-256 of a file's
// content or a link's target. Two snapshots are equal only if nothing was
// created, removed, renamed, rewritten or touched in between.
func Snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		var sum [sha256.Size]byte
		switch {
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum = sha256.Sum256(b)
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			sum = sha256.Sum256([]byte(target))
		}
		snap[filepath.ToSlash(rel)] = fmt.Sprintf("%v %d %s", fi.Mode(), fi.ModTime().UnixNano(), hex.EncodeToString(sum[:8]))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// Diff lists the paths where two snapshots differ, sorted, each with what
// happened to it.
func Diff(before, after map[string]string) []string {
	var d []string
	for p, b := range before {
		switch a, ok := after[p]; {
		case !ok:
			d = append(d, p+": removed")
		case a != b:
			d = append(d, fmt.Sprintf("%s: changed (%s -> %s)", p, b, a))
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			d = append(d, p+": created")
		}
	}
	slices.Sort(d)
	return d
}
