package fs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// lockRange takes an exclusive open-file-description lock on byte off of
// path. Each call opens its own description, so two goroutines of one
// process exclude each other too. It polls so that ctx can end the wait.
func lockRange(ctx context.Context, path string, off int64) (unlock func(), err error) {
	return lockRanges(ctx, path, []int64{off})
}

// lockRanges takes exclusive open-file-description locks on the bytes offs
// of path (sorted and distinct, so that every caller takes them in one
// order), all on one new description: they never conflict with each other,
// and closing it releases them all. It polls so that ctx can end the wait.
func lockRanges(ctx context.Context, path string, offs []int64) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|openNoFollow, 0o666)
	if err != nil {
		return nil, err
	}
	for _, off := range offs {
		if err := lockByte(ctx, f, path, off); err != nil {
			f.Close()
			return nil, err
		}
	}
	return func() { f.Close() }, nil // closing the description releases it
}

func lockByte(ctx context.Context, f *os.File, path string, off int64) error {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: off, Len: 1}
	delay := 50 * time.Microsecond
	for waited := false; ; waited = true {
		err := unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
		if err == nil {
			return nil
		}
		if !errors.Is(err, unix.EAGAIN) && !errors.Is(err, unix.EACCES) && !errors.Is(err, unix.EINTR) {
			return fmt.Errorf("lock %s: %w", path, err)
		}
		if !waited && testHookLockWait != nil {
			testHookLockWait(off)
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		delay = min(2*delay, 20*time.Millisecond)
	}
}
