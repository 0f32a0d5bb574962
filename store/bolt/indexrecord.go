package bolt

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"time"
)

// The copy's record: a process that maps the index copy (indexmap.go) and
// checks it whole (index.Open: the checksum of the payload, every posting
// and table slot) reads all of it, 0.3 s at 1M entries, on every start.
// After such a check passed, the store writes <path>.verified-index: the
// file's stamp as the verification record keeps it (verifyrecord.go:
// device, inode, size, modification and status-change times, meta pages),
// the copy's key, its length and a checksum of its first bytes. The next
// MapCheckedIndex of the very same file, in the very same state, tells its
// caller the copy was checked (index.OpenChecked then skips the reading).
// The rules are the verification record's: any write to the file moves its
// times, a file put in its place moves the inode, a check is recorded only
// when the file had been left alone for verifiedQuiet before it and is
// unchanged after it, and a record that cannot be read, fails its checksum
// or names another copy or another state is ignored (the copy is checked
// whole again). Deleting the record is always safe.

const indexVerifiedSuffix = ".verified-index"

const indexVerifiedMagic = "RCLVIDX1"

// copyMark is what the record keeps of a copy: its key in the file, its
// length and a checksum of its header.
type copyMark struct {
	key  [8]byte
	n    uint64
	head uint32
}

func markOf(key [8]byte, data []byte) copyMark {
	return copyMark{key: key, n: uint64(len(data)), head: crc32.Checksum(data[:min(len(data), 64)], castagnoli)}
}

func encodeIndexRecord(st fileStamp, m copyMark) []byte {
	b := []byte(indexVerifiedMagic)
	for _, v := range []uint64{st.dev, st.ino, st.size, st.mtime, st.ctime, st.meta[0], st.meta[1]} {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	b = append(b, m.key[:]...)
	b = binary.LittleEndian.AppendUint64(b, m.n)
	b = binary.LittleEndian.AppendUint32(b, m.head)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func decodeIndexRecord(b []byte) (fileStamp, copyMark, bool) {
	const size = len(indexVerifiedMagic) + 7*8 + 8 + 8 + 4 + 4
	if len(b) != size || string(b[:len(indexVerifiedMagic)]) != indexVerifiedMagic {
		return fileStamp{}, copyMark{}, false
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return fileStamp{}, copyMark{}, false
	}
	le := binary.LittleEndian
	at := len(indexVerifiedMagic)
	var v [7]uint64
	for i := range v {
		v[i] = le.Uint64(body[at+8*i:])
	}
	at += 7 * 8
	var m copyMark
	copy(m.key[:], body[at:at+8])
	m.n = le.Uint64(body[at+8:])
	m.head = le.Uint32(body[at+16:])
	return fileStamp{dev: v[0], ino: v[1], size: v[2], mtime: v[3], ctime: v[4], meta: [2]uint64{v[5], v[6]}}, m, true
}

// indexCheckedBefore reports whether the record beside path says copy m
// was checked with the file as it is now (stamp now, taken before the
// copy was read).
func indexCheckedBefore(path string, now fileStamp, m copyMark) bool {
	b, err := os.ReadFile(path + indexVerifiedSuffix)
	if err != nil {
		return false
	}
	st, rm, ok := decodeIndexRecord(b)
	return ok && st == now && rm == m
}

// recordIndexChecked writes the record of copy m, checked whole from
// checkedAt with the file at stamp before. Best effort, as recordVerified.
func recordIndexChecked(path string, before fileStamp, checkedAt time.Time, m copyMark) {
	if !quietBefore(before, checkedAt) {
		return
	}
	if after, ok := stampFile(path); !ok || after != before {
		return
	}
	rec := path + indexVerifiedSuffix
	tmp := rec + ".tmp"
	if err := os.WriteFile(tmp, encodeIndexRecord(before, m), 0o600); err != nil {
		_ = os.Remove(tmp)
		return
	}
	if err := os.Rename(tmp, rec); err != nil {
		_ = os.Remove(tmp)
	}
}
