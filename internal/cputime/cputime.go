// Package cputime gives benchmarks the CPU time their process has used,
// the figure that a shared, loaded machine disturbs least (see
// docs/performance.md): compare two such figures as a ratio.
package cputime

import "time"

// Process returns the user and system CPU time this process has used
// so far, every goroutine's; 0 where the platform does not say (so a
// ratio of two comes out NaN, not a false figure).
func Process() time.Duration { return process() }
