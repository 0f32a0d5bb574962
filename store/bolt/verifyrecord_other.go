//go:build !linux

package bolt

import "os"

// statIdentity has no inode or status-change time to give here: no
// verification record is kept, and Open checks the file every time.
func statIdentity(os.FileInfo) (fileStamp, bool) { return fileStamp{}, false }
