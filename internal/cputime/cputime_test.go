//go:build unix

package cputime

import (
	"testing"
	"time"
)

// Process grows with work done and never runs backwards.
func TestProcessGrows(t *testing.T) {
	before := Process()
	x := 0
	for start := time.Now(); time.Since(start) < 30*time.Millisecond; {
		x++
	}
	after := Process()
	if before <= 0 || after <= before {
		t.Fatalf("CPU time %v then %v after %d spins", before, after, x)
	}
}
