// Package cachetest keeps the tests of a package out of the user's cache
// directory: a folder store keeps its index copy and vector cache there
// (store/fs, "Cache folder"), and a test run must not leave one folder
// there per temp folder it opened.
package cachetest

import (
	"fmt"
	"os"
	"testing"
)

// Main is a TestMain: it points RECALL_CACHE_DIR at a temp folder for the
// whole run (subprocesses the tests start inherit it), runs the tests and
// removes the folder.
func Main(m *testing.M) {
	os.Exit(Run(m))
}

// Run is Main without the exit, for a TestMain that does more.
func Run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "recall-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "cachetest:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := os.Setenv("RECALL_CACHE_DIR", dir); err != nil {
		fmt.Fprintln(os.Stderr, "cachetest:", err)
		return 1
	}
	return m.Run()
}
