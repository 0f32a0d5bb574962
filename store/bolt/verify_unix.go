//go:build unix

package bolt

import (
	"os"
	"syscall"
)

// tryLockShared takes a shared flock on f without waiting. False means
// another process holds the file (bbolt's exclusive lock): it is being
// written, so it is not verified now, and Open then reports it locked.
func tryLockShared(f *os.File) (unlock func(), ok bool) {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return nil, false
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }, true
}
