package server

import (
	"runtime"
	"sync"
)

// SyncHeadroom gives the Go runtime one P more (GOMAXPROCS) than the
// machine's CPUs, for as long as a server runs, and returns the function
// that gives it back; `recall serve` and `recall mcp` call it before they
// serve. It changes nothing when GOMAXPROCS is below runtime.NumCPU (a
// container's CPU limit, which the runtime follows, or a setting by hand:
// one more P than a CPU quota would have the process throttled for the
// rest of each period) or when getenv("GOMAXPROCS") is not empty (the
// user's setting stands). Calls nest: the first raises, the last restore
// hands GOMAXPROCS back to the runtime (runtime.SetDefaultGOMAXPROCS).
//
// Why: a store commit waits in fdatasync (a bolt commit syncs twice, and
// its commits run one at a time) while the goroutine that made the call
// keeps its P, the runtime's right to run Go code. The runtime hands that
// P to other goroutines only once its monitor thread sees the call still
// blocked, and the monitor sleeps up to 10 ms when it has had nothing to
// do. On a small machine that is a core's worth of retrieves lost for most
// of every sync: at 100k entries with 10% PUTs on 2 cores, the server kept
// 1.76-1.80 cores busy against 1.92-1.97 read-only, and 1.85-1.89 with the
// extra P (BenchmarkServeWhileWriting, docs/performance.md). The extra P
// costs nothing while the server is not busy; when it is, the operating
// system shares the cores among one more thread, which lengthens a PUT's
// wait (p50 1.1 → 3.4 ms there) while more retrieves get through.
func SyncHeadroom(getenv func(string) string) (restore func()) {
	headroom.mu.Lock()
	defer headroom.mu.Unlock()
	if headroom.n == 0 && (getenv("GOMAXPROCS") != "" || runtime.GOMAXPROCS(0) < runtime.NumCPU()) {
		return func() {}
	}
	if headroom.n == 0 {
		runtime.GOMAXPROCS(runtime.NumCPU() + 1)
	}
	headroom.n++
	var once sync.Once
	return func() {
		once.Do(func() {
			headroom.mu.Lock()
			defer headroom.mu.Unlock()
			if headroom.n--; headroom.n == 0 {
				runtime.SetDefaultGOMAXPROCS()
			}
		})
	}
}

// headroom counts the servers holding SyncHeadroom's extra P.
var headroom struct {
	mu sync.Mutex
	n  int
}
