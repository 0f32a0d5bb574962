//go:build !unix

package service_test

import (
	"testing"
	"time"
)

// processCPU is not measured here: the CPU ratios report NaN.
func processCPU(*testing.B) time.Duration { return 0 }
