package server

import (
	"runtime"
	"testing"
)

func TestSyncHeadroom(t *testing.T) {
	base := runtime.GOMAXPROCS(0)
	none := func(string) string { return "" }
	r1 := SyncHeadroom(none)
	if got := runtime.GOMAXPROCS(0); got != base+1 {
		t.Fatalf("GOMAXPROCS %d while serving, want %d", got, base+1)
	}
	r2 := SyncHeadroom(none) // a second server in the process: still one more
	if got := runtime.GOMAXPROCS(0); got != base+1 {
		t.Fatalf("GOMAXPROCS %d with two servers, want %d", got, base+1)
	}
	r1()
	r1() // twice is once
	if got := runtime.GOMAXPROCS(0); got != base+1 {
		t.Fatalf("GOMAXPROCS %d after one of two servers stopped, want %d", got, base+1)
	}
	r2()
	if got := runtime.GOMAXPROCS(0); got != base {
		t.Fatalf("GOMAXPROCS %d after both stopped, want %d", got, base)
	}
	// The user's GOMAXPROCS stands.
	r := SyncHeadroom(func(k string) string {
		if k == "GOMAXPROCS" {
			return "1"
		}
		return ""
	})
	if got := runtime.GOMAXPROCS(0); got != base {
		t.Fatalf("GOMAXPROCS %d with $GOMAXPROCS set, want %d unchanged", got, base)
	}
	r()
	if got := runtime.GOMAXPROCS(0); got != base {
		t.Fatalf("GOMAXPROCS %d, want %d", got, base)
	}
}
