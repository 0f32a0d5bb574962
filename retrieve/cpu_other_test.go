//go:build !unix

package retrieve_test

import (
	"testing"
	"time"
)

// processCPU is not measured here: cpu-slowdown reports NaN.
func processCPU(*testing.B) time.Duration { return 0 }
