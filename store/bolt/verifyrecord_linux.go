//go:build linux

package bolt

import (
	"os"
	"syscall"
)

// statIdentity returns the device, inode, size and times of fi.
func statIdentity(fi os.FileInfo) (fileStamp, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStamp{}, false
	}
	return fileStamp{
		dev: uint64(st.Dev), ino: uint64(st.Ino), size: uint64(st.Size),
		mtime: uint64(st.Mtim.Nano()), ctime: uint64(st.Ctim.Nano()),
	}, true
}
