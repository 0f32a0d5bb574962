//go:build !unix

package fs

import iofs "io/fs"

// Without O_NOFOLLOW, readEntry's Lstat check alone keeps links out.
const (
	openNoFollow = 0
	openNonBlock = 0
)

func deviceOf(iofs.FileInfo) (uint64, bool) { return 0, false }

// fileID returns zeros: a folder's cache is keyed by its path alone here.
func fileID(iofs.FileInfo) (dev, ino uint64) { return 0, 0 }

// ownedByUs reports true: there are no owners to tell apart.
func ownedByUs(iofs.FileInfo) bool { return true }
