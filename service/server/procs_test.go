package server

import (
	"runtime"
	"testing"
)

func TestSyncHeadroom(t *testing.T) {
	defer runtime.SetDefaultGOMAXPROCS()
	runtime.SetDefaultGOMAXPROCS()
	def, cpus := runtime.GOMAXPROCS(0), runtime.NumCPU()
	none := func(string) string { return "" }
	want := func(what string, n int) {
		t.Helper()
		if got := runtime.GOMAXPROCS(0); got != n {
			t.Fatalf("%s: GOMAXPROCS %d, want %d", what, got, n)
		}
	}
	if def == cpus { // no CPU limit: the runtime's default is the CPUs
		r1 := SyncHeadroom(none)
		want("while serving", cpus+1)
		r2 := SyncHeadroom(none) // a second server in the process
		want("two servers", cpus+1)
		r1()
		r1() // twice is once
		want("one of two servers stopped", cpus+1)
		r2()
		want("both stopped", def)
	}
	// The user's GOMAXPROCS stands.
	r := SyncHeadroom(func(k string) string {
		if k == "GOMAXPROCS" {
			return "1"
		}
		return ""
	})
	want("$GOMAXPROCS set", def)
	r()
	want("after", def)
	// Below the CPUs (a container's limit, a setting by hand): unchanged.
	if cpus > 1 {
		runtime.GOMAXPROCS(cpus - 1)
		r := SyncHeadroom(none)
		want("under a limit", cpus-1)
		r()
		want("after, under a limit", cpus-1)
	}
}
