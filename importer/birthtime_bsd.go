//go:build darwin || freebsd || netbsd

package importer

import (
	iofs "io/fs"
	"syscall"
	"time"
)

// birthTime is when the file was created (st_birthtime), else its
// modification time.
func birthTime(_ string, info iofs.FileInfo) time.Time {
	if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Birthtimespec.Sec > 0 {
		return time.Unix(st.Birthtimespec.Unix())
	}
	return info.ModTime()
}
