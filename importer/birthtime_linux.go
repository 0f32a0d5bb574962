package importer

import (
	iofs "io/fs"
	"time"

	"golang.org/x/sys/unix"
)

// birthTime is when the file was created, where the file system records
// it (statx), else its modification time.
func birthTime(path string, info iofs.FileInfo) time.Time {
	var st unix.Statx_t
	err := unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_BTIME, &st)
	if err != nil || st.Mask&unix.STATX_BTIME == 0 || st.Btime.Sec == 0 {
		return info.ModTime()
	}
	return time.Unix(st.Btime.Sec, int64(st.Btime.Nsec))
}
