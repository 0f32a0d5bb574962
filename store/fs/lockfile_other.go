//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fs

import "context"

// lockFile does nothing here: without flock, vector files are guarded only
// within the process (see the Caveats in doc.go).
func lockFile(ctx context.Context, path string) (unlock func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return func() {}, nil
}
