package bolt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
)

// verifyFile checks the structure of a bbolt file before bbolt maps it.
//
// bbolt trusts its file: it checksums only the two meta pages, and reads
// every other page straight from its memory map. A truncated file makes it
// read past the end of the file (SIGBUS, SIGSEGV: the process dies, no
// recover helps); a damaged page header or element makes it index out of
// range, or read memory outside the map, or recurse forever. So before
// bbolt sees the file, verifyFile reads it with plain reads and checks
// what bbolt would trust: the meta page bbolt will use (the valid one with
// the higher transaction id) against the file's size, the freelist page,
// and every page reachable from the root bucket, nested buckets included:
// page type, bounds, element offsets, no page referenced twice. It reads
// each reachable page once, so it costs about one sequential read of the
// live data.
//
// A file without a valid meta page is left to bbolt, which refuses it.
// Values are not checked here; their checksums are (codec.go).
func verifyFile(path string) error {
	_, err := checkFile(path)
	return err
}

// checkFile is verifyFile, and says whether it checked the file's pages
// (it does not for a missing or empty file, one another process holds, or
// one without a valid meta page).
func checkFile(path string) (checked bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	unlock, ok := tryLockShared(f)
	if !ok {
		return false, nil
	}
	defer unlock()
	fi, err := f.Stat()
	if err != nil {
		return false, err
	}
	v := verifier{f: f, size: fi.Size(), seen: make(map[uint64]bool)}
	if v.size == 0 {
		return false, nil // a new file
	}
	fileChecks.Add(1)
	m, ok := v.meta()
	if !ok {
		return false, nil // not a bbolt file, or both meta pages damaged: bbolt says which
	}
	v.pageSize, v.hwm = int64(m.pageSize), m.pgid
	if need := int64(m.pgid) * int64(m.pageSize); need > v.size || m.pgid < 2 {
		return false, fmt.Errorf("the file is %d bytes, but its header says it holds %d pages of %d bytes (truncated?)", v.size, m.pgid, m.pageSize)
	}
	if m.freelist != noFreelist {
		if err := v.freelist(m.freelist); err != nil {
			return false, err
		}
	}
	if err := v.tree(m.root, 0); err != nil {
		return false, err
	}
	return true, nil
}

const (
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	noFreelist     = ^uint64(0)
	pageHeaderSize = 16
	elementSize    = 16 // branch and leaf elements alike
	flagBranch     = 0x01
	flagLeaf       = 0x02
	flagFreelist   = 0x10
	leafBucket     = 0x01
	// maxTreeDepth bounds nesting (pages within a bucket, buckets within
	// buckets); a B+tree of a realistic file is a handful of levels.
	maxTreeDepth = 64
)

type boltMeta struct {
	pageSize                   uint32
	root, freelist, pgid, txid uint64
}

type verifier struct {
	f        io.ReaderAt
	size     int64
	pageSize int64
	hwm      uint64 // pages below this id exist
	seen     map[uint64]bool
}

// meta returns the meta page bbolt will use: of the valid ones, the one
// with the higher transaction id.
func (v *verifier) meta() (boltMeta, bool) {
	var best boltMeta
	found := false
	m0, ok0 := v.readMeta(0)
	if ok0 {
		best, found = m0, true
	}
	// The second meta page sits one page in; try the page size of the
	// first, then the usual ones.
	sizes := []int64{4096, 16384, 32768, 65536, int64(os.Getpagesize())}
	if ok0 {
		sizes = []int64{int64(m0.pageSize)}
	}
	for _, ps := range sizes {
		if m1, ok := v.readMeta(ps); ok && int64(m1.pageSize) == ps {
			if !found || m1.txid > best.txid {
				best = m1
			}
			found = true
			break
		}
	}
	return best, found
}

func (v *verifier) readMeta(off int64) (boltMeta, bool) {
	var b [pageHeaderSize + 64]byte
	if _, err := v.f.ReadAt(b[:], off); err != nil {
		return boltMeta{}, false
	}
	m := b[pageHeaderSize:]
	le := binary.LittleEndian
	h := fnv.New64a()
	h.Write(m[:56])
	if le.Uint32(m[0:]) != boltMagic || le.Uint32(m[4:]) != boltVersion || le.Uint64(m[56:]) != h.Sum64() {
		return boltMeta{}, false
	}
	ps := le.Uint32(m[8:])
	if ps < 512 || ps > 1<<20 || ps&(ps-1) != 0 {
		return boltMeta{}, false
	}
	return boltMeta{pageSize: ps, root: le.Uint64(m[16:]), freelist: le.Uint64(m[32:]),
		pgid: le.Uint64(m[40:]), txid: le.Uint64(m[48:])}, true
}

// page reads page id with its overflow pages, after checking that it lies
// within the high-water mark and the file.
func (v *verifier) page(id uint64, what string) ([]byte, error) {
	p, err := v.pagePrefix(id, what, -1)
	return p, err
}

// pagePrefix checks page id as page does and reads its first min bytes
// (all of it when min < 0 or the page is shorter): one read for a page
// without overflow pages.
func (v *verifier) pagePrefix(id uint64, what string, min int64) ([]byte, error) {
	if id < 2 || id >= v.hwm {
		return nil, fmt.Errorf("%s: page %d is outside the file's %d pages", what, id, v.hwm)
	}
	first := make([]byte, v.pageSize)
	if _, err := v.f.ReadAt(first, int64(id)*v.pageSize); err != nil {
		return nil, fmt.Errorf("%s: page %d: %v", what, id, err)
	}
	le := binary.LittleEndian
	if got := le.Uint64(first[0:]); got != id {
		return nil, fmt.Errorf("%s: page %d says it is page %d", what, id, got)
	}
	overflow := uint64(le.Uint32(first[12:]))
	if id+overflow >= v.hwm {
		return nil, fmt.Errorf("%s: page %d runs %d pages past the file's end", what, id, id+overflow+1-v.hwm)
	}
	n := int64(overflow+1) * v.pageSize
	if min >= 0 && min < n {
		n = min
	}
	if n <= v.pageSize {
		return first[:n], nil
	}
	p := make([]byte, n)
	copy(p, first)
	if _, err := v.f.ReadAt(p[v.pageSize:], int64(id)*v.pageSize+v.pageSize); err != nil {
		return nil, fmt.Errorf("%s: page %d: %v", what, id, err)
	}
	return p, nil
}

func (v *verifier) freelist(id uint64) error {
	p, err := v.page(id, "freelist")
	if err != nil {
		return err
	}
	le := binary.LittleEndian
	if flags := le.Uint16(p[8:]); flags != flagFreelist {
		return fmt.Errorf("freelist: page %d has type %#x, not a freelist", id, flags)
	}
	count, start := uint64(le.Uint16(p[10:])), uint64(pageHeaderSize)
	if count == 0xFFFF {
		count, start = le.Uint64(p[pageHeaderSize:]), pageHeaderSize+8
	}
	if count > (uint64(len(p))-start)/8 {
		return fmt.Errorf("freelist: page %d claims %d ids, more than it holds", id, count)
	}
	for i := range count {
		if free := le.Uint64(p[start+8*i:]); free < 2 || free >= v.hwm {
			return fmt.Errorf("freelist: page %d lists page %d, outside the file", id, free)
		}
	}
	return nil
}

// tree checks the B+tree rooted at page id.
func (v *verifier) tree(id uint64, depth int) error {
	if depth > maxTreeDepth {
		return fmt.Errorf("page %d: the tree is more than %d levels deep", id, maxTreeDepth)
	}
	if v.seen[id] {
		return fmt.Errorf("page %d is referenced twice", id)
	}
	v.seen[id] = true
	// A page with overflow pages holds a large value (the index copy, a
	// big entry): read its first page only, and the rest of what node
	// looks at on demand, so that the check does not read the values.
	p, err := v.pagePrefix(id, "tree", v.pageSize)
	if err != nil {
		return err
	}
	size := (uint64(binary.LittleEndian.Uint32(p[12:])) + 1) * uint64(v.pageSize)
	return v.nodeAt(p, size, int64(id)*v.pageSize, id, depth)
}

// node checks one branch or leaf page p (an inline bucket's page has id 0).
func (v *verifier) node(p []byte, id uint64, depth int) error {
	return v.nodeAt(p, uint64(len(p)), -1, id, depth)
}

// nodeAt checks a branch or leaf page of size bytes at file offset off
// whose first bytes p holds (all of it when off < 0), reading what else it
// needs: the element table, and the headers of nested buckets.
func (v *verifier) nodeAt(p []byte, size uint64, off int64, id uint64, depth int) error {
	le := binary.LittleEndian
	if len(p) < pageHeaderSize {
		return fmt.Errorf("page %d: shorter than its header", id)
	}
	flags, count := le.Uint16(p[8:]), int(le.Uint16(p[10:]))
	if flags != flagBranch && flags != flagLeaf {
		return fmt.Errorf("page %d has type %#x, want a branch or a leaf", id, flags)
	}
	if uint64(pageHeaderSize+count*elementSize) > size {
		return fmt.Errorf("page %d: %d elements do not fit", id, count)
	}
	// get returns bytes [lo, hi) of the page, within size.
	get := func(lo, hi uint64) ([]byte, error) {
		if hi <= uint64(len(p)) || off < 0 {
			return p[lo:hi], nil
		}
		b := make([]byte, hi-lo)
		if _, err := v.f.ReadAt(b, off+int64(lo)); err != nil {
			return nil, fmt.Errorf("page %d: %v", id, err)
		}
		return b, nil
	}
	if n := uint64(pageHeaderSize + count*elementSize); n > uint64(len(p)) {
		table, err := get(0, n)
		if err != nil {
			return err
		}
		p = table
	}
	if flags == flagBranch && count == 0 {
		return fmt.Errorf("page %d: an empty branch", id)
	}
	for i := range count {
		at := pageHeaderSize + i*elementSize
		e := p[at : at+elementSize]
		var pos, ksize, vsize uint64
		if flags == flagBranch {
			pos, ksize = uint64(le.Uint32(e[0:])), uint64(le.Uint32(e[4:]))
		} else {
			pos, ksize, vsize = uint64(le.Uint32(e[4:])), uint64(le.Uint32(e[8:])), uint64(le.Uint32(e[12:]))
		}
		if uint64(at)+pos+ksize+vsize > size {
			return fmt.Errorf("page %d: element %d points past the page", id, i)
		}
		if flags == flagBranch {
			if err := v.tree(le.Uint64(e[8:]), depth+1); err != nil {
				return err
			}
			continue
		}
		if le.Uint32(e[0:])&leafBucket == 0 {
			continue
		}
		val, err := get(uint64(at)+pos+ksize, uint64(at)+pos+ksize+vsize)
		if err != nil {
			return err
		}
		if len(val) < 16 {
			return fmt.Errorf("page %d: element %d is a bucket of %d bytes", id, i, len(val))
		}
		if root := le.Uint64(val); root != 0 {
			if err := v.tree(root, depth+1); err != nil {
				return err
			}
			continue
		}
		// An inline bucket: its one leaf page follows the bucket header.
		inline := val[16:]
		if len(inline) < pageHeaderSize || le.Uint16(inline[8:]) != flagLeaf || depth+1 > maxTreeDepth {
			return fmt.Errorf("page %d: element %d is a damaged inline bucket", id, i)
		}
		if err := v.node(inline, id, depth+1); err != nil {
			return err
		}
	}
	return nil
}
