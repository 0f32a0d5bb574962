package importer

import (
	iofs "io/fs"
	"syscall"
	"time"
)

// birthTime is when the file was created, else its modification time.
func birthTime(_ string, info iofs.FileInfo) time.Time {
	if a, ok := info.Sys().(*syscall.Win32FileAttributeData); ok && a.CreationTime.Nanoseconds() > 0 {
		return time.Unix(0, a.CreationTime.Nanoseconds())
	}
	return info.ModTime()
}
