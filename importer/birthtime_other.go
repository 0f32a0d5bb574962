//go:build !linux && !darwin && !freebsd && !netbsd && !windows

package importer

import (
	iofs "io/fs"
	"time"
)

// birthTime is the modification time: this system records no birth time
// that Go can read.
func birthTime(_ string, info iofs.FileInfo) time.Time { return info.ModTime() }
