package fs

import (
	"testing"

	"golang.org/x/sys/unix"
)

// Stamps are trusted only on local file systems: NFS may answer lstat
// from attributes cached for up to a minute, hiding another machine's
// edit behind the copy.
func TestLocalFSType(t *testing.T) {
	for _, c := range []struct {
		name  string
		magic int64
		want  bool
	}{
		{"ext4", unix.EXT4_SUPER_MAGIC, true},
		{"xfs", unix.XFS_SUPER_MAGIC, true},
		{"btrfs", unix.BTRFS_SUPER_MAGIC, true},
		{"tmpfs", unix.TMPFS_MAGIC, true},
		{"overlay", unix.OVERLAYFS_SUPER_MAGIC, true},
		{"nfs", unix.NFS_SUPER_MAGIC, false},
		{"smb2", unix.SMB2_SUPER_MAGIC, false},
		{"cifs", unix.CIFS_SUPER_MAGIC, false},
		{"fuse", unix.FUSE_SUPER_MAGIC, false},
		{"9p", unix.V9FS_MAGIC, false},
	} {
		if got := localFSType(c.magic); got != c.want {
			t.Errorf("%s: trusted = %v, want %v", c.name, got, c.want)
		}
	}
}
