package bolt

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"sync/atomic"
	"time"
)

// The verification record: Open's structure check (verify.go) reads every
// reachable page of the file, 77 ms at 100k entries and 0.8 s at 1M, on
// every start. After a check that passed, Open writes what it checked into
// a file beside the store, <path>.verified; the next Open skips the check
// when the store file is still exactly that file:
//
//   - the same device and inode, size, modification and status-change
//     times (any write to the file, by recall or by anything else, moves
//     both times; replacing the file moves the inode);
//   - the same two meta pages (bbolt rewrites one on every commit);
//   - and the file had been left alone for at least verifiedQuiet before
//     the check, so that a write right after the check cannot share the
//     check's timestamp: file systems stamp times with a coarse clock (a
//     few milliseconds on Linux, two seconds on FAT).
//
// An unclean shutdown needs no rule of its own: a process that wrote
// moved the file's times, so the record no longer matches. A store that
// took writes is therefore checked in full at its next Open, once, and the
// opens after that skip it. A record that cannot be read, fails its
// checksum or names another file is ignored, and one that cannot be
// written (a read-only directory) is not written: the check then runs on
// every Open, as before. Deleting the record is always safe.
//
// What a record does not cover is damage that changes no timestamp (a
// disk's bit rot, a write through another path that restores both times
// is not possible for the status-change time): pages bbolt reads later
// are still guarded (guarded, in bolt.go), and values carry checksums.

// verifiedQuiet is how long a file must have been unchanged before a check
// for the check to be recorded (a variable for tests, which cannot wait).
var verifiedQuiet = 2 * time.Second

// fileChecks counts the checks that read a file's pages (for tests).
var fileChecks atomic.Int64

// verifiedSuffix names the record beside the store file.
const verifiedSuffix = ".verified"

const verifiedMagic = "RCLVRFY1"

// fileStamp is what the record keeps of the file.
type fileStamp struct {
	dev, ino, size, mtime, ctime uint64
	meta                         [2]uint64 // CRC-32C of each meta page's first bytes
}

func (s fileStamp) encode() []byte {
	b := []byte(verifiedMagic)
	for _, v := range []uint64{s.dev, s.ino, s.size, s.mtime, s.ctime, s.meta[0], s.meta[1]} {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func decodeStamp(b []byte) (fileStamp, bool) {
	if len(b) != len(verifiedMagic)+7*8+4 || string(b[:len(verifiedMagic)]) != verifiedMagic {
		return fileStamp{}, false
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return fileStamp{}, false
	}
	var v [7]uint64
	for i := range v {
		v[i] = binary.LittleEndian.Uint64(body[len(verifiedMagic)+8*i:])
	}
	return fileStamp{dev: v[0], ino: v[1], size: v[2], mtime: v[3], ctime: v[4], meta: [2]uint64{v[5], v[6]}}, true
}

// stampFile returns the stamp of the file at path, or false where the
// platform gives no inode and status-change time (no record is kept then).
func stampFile(path string) (fileStamp, bool) {
	f, err := os.Open(path)
	if err != nil {
		return fileStamp{}, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fileStamp{}, false
	}
	st, ok := statIdentity(fi)
	if !ok {
		return fileStamp{}, false
	}
	// The meta pages sit at offset 0 and one page in; hash the first
	// bytes of both for the page sizes bbolt may use (the same few reads
	// whatever the file, so a changed page size changes the stamp too).
	var buf [pageHeaderSize + 64]byte
	for i, off := range []int64{0, int64(os.Getpagesize())} {
		n, _ := f.ReadAt(buf[:], off)
		st.meta[i] = uint64(crc32.Checksum(buf[:n], castagnoli))<<32 | uint64(n)
	}
	return st, true
}

// verifiedBefore reports whether the record beside path says the file was
// checked as it is now.
func verifiedBefore(path string) bool {
	b, err := os.ReadFile(path + verifiedSuffix)
	if err != nil {
		return false
	}
	rec, ok := decodeStamp(b)
	if !ok {
		return false
	}
	now, ok := stampFile(path)
	return ok && now == rec
}

// recordVerified writes the record for the file at path, checked with
// stamp before (taken before the check, so that a write during the check
// makes it unequal). Best effort: a record that is not written costs the
// next Open a check.
func recordVerified(path string, before fileStamp, checkedAt time.Time) {
	if !quietBefore(before, checkedAt) {
		return
	}
	if after, ok := stampFile(path); !ok || after != before {
		return
	}
	rec := path + verifiedSuffix
	tmp := rec + ".tmp"
	if err := os.WriteFile(tmp, before.encode(), 0o600); err != nil {
		_ = os.Remove(tmp)
		return
	}
	if err := os.Rename(tmp, rec); err != nil {
		_ = os.Remove(tmp)
	}
}

// quietBefore reports whether the file stamped before had been left alone
// for verifiedQuiet at checkedAt: a file changed more recently could take
// a later write under the same coarse timestamps, so its check is not
// recorded.
func quietBefore(before fileStamp, checkedAt time.Time) bool {
	return checkedAt.UnixNano()-int64(before.mtime) >= int64(verifiedQuiet) &&
		checkedAt.UnixNano()-int64(before.ctime) >= int64(verifiedQuiet)
}

// verifyOnce is verifyFile unless the record says the file was checked as
// it is now; a check that read the file's pages and passed is recorded,
// and a failed one removes the record.
func verifyOnce(path string) error {
	if verifiedBefore(path) {
		return nil
	}
	before, stamped := stampFile(path)
	start := time.Now()
	checked, err := checkFile(path)
	if err != nil {
		_ = os.Remove(path + verifiedSuffix)
		return err
	}
	if checked && stamped {
		recordVerified(path, before, start)
	}
	return nil
}
