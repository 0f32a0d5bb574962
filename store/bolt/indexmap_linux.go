//go:build linux

package bolt

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

const canMap = true

var osPageSize = os.Getpagesize()

// mapFile maps n bytes of the file at path from offset off (a multiple of
// the page size), read-only and shared: the bytes are the file's.
func mapFile(path string, off int64, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close() // the mapping outlives the descriptor
	return unix.Mmap(int(f.Fd()), off, n, unix.PROT_READ, unix.MAP_SHARED)
}

func unmapFile(b []byte) { _ = unix.Munmap(b) }

// dropResident drops the whole pages within b (part of a mapping of
// mapFile's) from the resident set; they stay valid, as the file's.
func dropResident(b []byte) {
	if len(b) == 0 {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	ps := uintptr(osPageSize)
	lo, hi := (p+ps-1)&^(ps-1), (p+uintptr(len(b)))&^(ps-1)
	if hi <= lo {
		return
	}
	_ = unix.Madvise(b[lo-p:hi-p], unix.MADV_DONTNEED)
}
