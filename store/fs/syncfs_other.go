//go:build !linux

package fs

import (
	"errors"
	"os"
)

// canSyncFS: only Linux has syncfs(2); elsewhere PutBatch fsyncs each file.
func canSyncFS(string) bool { return false }

func syncFS(*os.File) error { return errors.ErrUnsupported }
