package fs

import (
	iofs "io/fs"
	"syscall"
)

// inodeSupported: stamps carry the inode and change time.
const inodeSupported = true

// inodeOf returns a file's inode number and change time (ns).
func inodeOf(fi iofs.FileInfo) (ino uint64, ctime int64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return st.Ino, st.Ctim.Nano()
}
