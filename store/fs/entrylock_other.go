//go:build !linux

package fs

import "context"

// lockRange falls back to a lock of the whole file (flock where the system
// has it, see lockFile): writers of different entries wait for each other
// across processes, which costs speed, not safety.
func lockRange(ctx context.Context, path string, _ int64) (unlock func(), err error) {
	return lockFile(ctx, path)
}

// lockRanges is lockRange for many bytes: the one lock of the whole file.
func lockRanges(ctx context.Context, path string, _ []int64) (unlock func(), err error) {
	return lockFile(ctx, path)
}
