package fs

import (
	"sync"

	"github.com/recallhq/recall/store"
)

// keyLocks hands out one mutex per entry, so writes to the same file are
// serialised (Created is read, then the file replaced, as one step) while
// writes to different files, each with its own fsync, run in parallel.
// Readers take no lock: rename makes each file change atomic for them.
type keyLocks struct {
	mu sync.Mutex
	m  map[store.Key]*keyLock
}

type keyLock struct {
	sync.Mutex
	refs int // goroutines holding or waiting; the entry is dropped at zero
}

// lock blocks until the caller holds k's mutex and returns its release.
func (l *keyLocks) lock(k store.Key) (unlock func()) {
	l.mu.Lock()
	if l.m == nil {
		l.m = make(map[store.Key]*keyLock)
	}
	kl := l.m[k]
	if kl == nil {
		kl = &keyLock{}
		l.m[k] = kl
	}
	kl.refs++
	l.mu.Unlock()

	kl.Lock()
	return func() {
		kl.Unlock()
		l.mu.Lock()
		if kl.refs--; kl.refs == 0 {
			delete(l.m, k)
		}
		l.mu.Unlock()
	}
}
