package fs

import (
	iofs "io/fs"
	"syscall"

	"golang.org/x/sys/unix"
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

// stampsTrusted reports whether the file system holding dir keeps file
// times a stamp can rely on: the local file systems, whose lstat answers
// from the inode itself. A network file system (NFS, SMB) may answer from
// attributes cached for up to a minute, so another machine's edit could
// keep its old stamp and be hidden behind the copy; FUSE file systems
// promise nothing either. There every stamp is empty: each start reads
// every entry, as without a copy.
func stampsTrusted(dir string) bool {
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil {
		return false
	}
	return localFSType(int64(st.Type))
}

// localFSType reports whether a statfs type is one of the local file
// systems stamps are trusted on.
func localFSType(t int64) bool {
	switch uint32(t) {
	case unix.EXT4_SUPER_MAGIC, // also ext2 and ext3
		unix.XFS_SUPER_MAGIC,
		unix.BTRFS_SUPER_MAGIC,
		unix.F2FS_SUPER_MAGIC,
		unix.TMPFS_MAGIC,
		unix.OVERLAYFS_SUPER_MAGIC, // containers
		0x2fc12fc1,                 // ZFS
		unix.BCACHEFS_SUPER_MAGIC:
		return true
	}
	return false
}
