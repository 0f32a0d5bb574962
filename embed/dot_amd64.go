//go:build amd64 && !purego

package embed

import "golang.org/x/sys/cpu"

// The fused retrieve scans every cached vector per query, so Dot is its
// hot loop. Go does not vectorise loops; with AVX2 and FMA, eight lanes of
// fused multiply-adds make the scan bound by memory rather than by float
// adds (about twice the speed of the unrolled Go loop here).
var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dotAVX2 is implemented in dot_amd64.s. len(a) must equal len(b).
//
//go:noescape
func dotAVX2(a, b []float32) float32
