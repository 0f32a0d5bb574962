//go:build unix

package fs

import (
	iofs "io/fs"
	"os"
	"syscall"
)

// Flags for opening entry files: never through a symbolic link, and never
// blocking on a named pipe that sits where an entry belongs.
const (
	openNoFollow = syscall.O_NOFOLLOW
	openNonBlock = syscall.O_NONBLOCK
)

// deviceOf returns the device a file is on.
func deviceOf(fi iofs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true //nolint:unconvert // int32 on some platforms
}

// fileID returns the device and inode of a file, zeros where unknown.
func fileID(fi iofs.FileInfo) (dev, ino uint64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return uint64(st.Dev), uint64(st.Ino) //nolint:unconvert // narrower on some platforms
}

// ownedByUs reports whether a file belongs to the process's effective user.
func ownedByUs(fi iofs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
