//go:build !linux

package timeexpr

func threadCPU() int64 { return 0 }
