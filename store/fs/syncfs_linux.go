package fs

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// canSyncFS reports whether PutBatch may make a chunk's temp files durable
// with one syncfs(2) of root's file system instead of an fsync of each:
// only on the local file systems whose sync writes back every file's data
// and metadata and waits for the disk (ext2/3/4, XFS, Btrfs, F2FS), and
// only on Linux 5.8 or later, where syncfs reports a writeback error
// instead of returning success regardless. Elsewhere (network and FUSE
// mounts, older kernels) each file is fsynced.
func canSyncFS(root string) bool {
	var st unix.Statfs_t
	if unix.Statfs(root, &st) != nil {
		return false
	}
	switch uint32(st.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.F2FS_SUPER_MAGIC:
	default:
		return false
	}
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	return kernelAtLeast(unix.ByteSliceToString(u.Release[:]), 5, 8)
}

// kernelAtLeast reports whether a release string such as "6.1.0-18-amd64"
// is major.minor or later.
func kernelAtLeast(release string, major, minor int) bool {
	parts := strings.SplitN(release, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	digits := parts[1]
	if i := strings.IndexFunc(digits, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		digits = digits[:i] // "8-rc1"
	}
	mi, err2 := strconv.Atoi(digits)
	if err1 != nil || err2 != nil {
		return false
	}
	return ma > major || ma == major && mi >= minor
}

// syncFS writes back everything dirty on f's file system and waits for it.
// Its error covers every writeback failure on that file system since f was
// opened, so f is opened before the files it must make durable are written.
func syncFS(f *os.File) error { return unix.Syncfs(int(f.Fd())) }
