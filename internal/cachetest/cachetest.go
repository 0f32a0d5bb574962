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

// ownerEnv marks, for child processes, that a test process made the
// cache folder: a child leaves it alone. (RECALL_CACHE_DIR alone may be
// the user's own.)
const ownerEnv = "RECALL_TEST_CACHE_OWNER"

// Main is a TestMain: it points RECALL_CACHE_DIR at a temp folder for the
// whole run (subprocesses the tests start inherit it), runs the tests and
// removes the folder.
func Main(m *testing.M) {
	os.Exit(Run(m))
}

// Run is Main without the exit, for a TestMain that does more. A test
// binary started by a test (a child process, which may be killed) keeps
// the folder it inherits, which its parent removes.
func Run(m *testing.M) int {
	if os.Getenv(ownerEnv) != "" {
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "recall-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "cachetest:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	for _, kv := range [][2]string{{"RECALL_CACHE_DIR", dir}, {ownerEnv, dir}} {
		if err := os.Setenv(kv[0], kv[1]); err != nil {
			fmt.Fprintln(os.Stderr, "cachetest:", err)
			return 1
		}
	}
	return m.Run()
}
