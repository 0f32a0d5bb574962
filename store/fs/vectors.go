package fs

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	iofs "io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/recallhq/recall/store"
)

// The embedding vector cache: LoadVectors, PutVectors and DeleteVectors
// implement the persistent backend that package embed/cache finds by type
// assertion. Each model has one append-only file under
// <root>/.recall/vectors; the leading dot keeps it out of All (and out of
// anything else that skips hidden names). doc.go describes the format.

// The limits (model, key, dimension) are store's, shared with every backend.
const (
	maxVectorDim = store.MaxVectorDim
	vectorKeyLen = store.VectorKeyLen
)

const (
	vectorMagic   = "RCVECTOR"
	vectorVersion = 1
	// headerFixed is the header up to the model string: magic, version,
	// uint16 model length.
	headerFixed = len(vectorMagic) + 1 + 2
	// rawKeyLen is a key as stored: the 32 bytes the hex digits spell.
	rawKeyLen = vectorKeyLen / 2
	// recordOverhead is a record without its values: key, dim, CRC.
	recordOverhead = rawKeyLen + 4 + 4

	vectorExt = ".vec"
	// vectorTempMarker sits in the names createTemp gives a model file's
	// temp files: ".<stem>.vec.tmp-<16 hex digits>".
	vectorTempMarker = vectorExt + ".tmp-"
	// maxStemBytes caps the model part of a file name, well below the usual
	// 255-byte limit even with the temp suffix.
	maxStemBytes = 100
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errVectorHeader is wrapped when a file's header is not that of this
// model's file in this format; such a file is set aside, never read.
var errVectorHeader = errors.New("not a vector file of this model and format")

func (s *Store) vectorDir() string { return filepath.Join(s.cache, "vectors") }

// vectorStem turns a model identity into a file name: bytes outside
// [a-z0-9._-] become %XX (upper-case hex). Upper-case letters are escaped
// too, so two models differing only in case get different files on a
// case-insensitive file system; '%' is escaped, so the mapping is
// one-to-one. A stem longer than maxStemBytes is cut and ends in '~' plus
// 16 hex digits of the model's SHA-256 ('~' never appears otherwise). The
// header names the model anyway, so even a collision is detected.
func vectorStem(model string) string {
	var b strings.Builder
	for i := 0; i < len(model); i++ {
		c := model[i]
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-' {
			b.WriteByte(c)
			continue
		}
		const digits = "0123456789ABCDEF"
		b.WriteByte('%')
		b.WriteByte(digits[c>>4])
		b.WriteByte(digits[c&15])
	}
	stem := b.String()
	if len(stem) > maxStemBytes {
		sum := sha256.Sum256([]byte(model))
		stem = stem[:maxStemBytes-17] + "~" + hex.EncodeToString(sum[:8])
	}
	return stem
}

// isVectorTempName reports whether a name in the vectors folder is a temp
// file of createTemp.
func isVectorTempName(name string) bool {
	i := strings.LastIndex(name, vectorTempMarker)
	if !strings.HasPrefix(name, ".") || i < 1 {
		return false
	}
	suffix := name[i+len(vectorTempMarker):]
	_, err := strconv.ParseUint(suffix, 16, 64)
	return len(suffix) == 16 && err == nil
}

// removeStaleVectorTemps removes the temp files crashed writers left in
// the vectors folder of the cache folder cache.
func removeStaleVectorTemps(cache string, maxAge time.Duration) {
	dir := filepath.Join(cache, "vectors")
	files, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	cutoff := time.Now().Add(-maxAge)
	for _, f := range files {
		if !f.Type().IsRegular() || !isVectorTempName(f.Name()) {
			continue
		}
		if fi, err := f.Info(); err == nil && fi.ModTime().Before(cutoff) {
			os.Remove(filepath.Join(dir, f.Name()))
		}
	}
}

// --- format ---

func appendHeader(b []byte, model string) []byte {
	start := len(b)
	b = append(b, vectorMagic...)
	b = append(b, vectorVersion)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(model)))
	b = append(b, model...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli))
}

// parseHeader returns the length of the header data starts with, or an
// error wrapping errVectorHeader unless it is model's header in this
// format.
func parseHeader(data []byte, model string) (int, error) {
	if len(data) < headerFixed+4 {
		return 0, fmt.Errorf("%w: %d bytes are too few for a header", errVectorHeader, len(data))
	}
	if string(data[:len(vectorMagic)]) != vectorMagic {
		return 0, fmt.Errorf("%w: bad magic %q", errVectorHeader, data[:len(vectorMagic)])
	}
	if v := data[len(vectorMagic)]; v != vectorVersion {
		return 0, fmt.Errorf("%w: format version %d, this recall writes %d", errVectorHeader, v, vectorVersion)
	}
	n := int(binary.LittleEndian.Uint16(data[len(vectorMagic)+1:]))
	end := headerFixed + n + 4
	if len(data) < end {
		return 0, fmt.Errorf("%w: truncated header", errVectorHeader)
	}
	if crc32.Checksum(data[:end-4], castagnoli) != binary.LittleEndian.Uint32(data[end-4:]) {
		return 0, fmt.Errorf("%w: header checksum mismatch", errVectorHeader)
	}
	if got := string(data[headerFixed : headerFixed+n]); got != model {
		return 0, fmt.Errorf("%w: written for model %.80q", errVectorHeader, got)
	}
	return end, nil
}

// appendRecord appends the record of key (raw) and vec.
func appendRecord(b []byte, key *[rawKeyLen]byte, vec []float32) []byte {
	start := len(b)
	b = append(b, key[:]...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(vec)))
	for _, x := range vec {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli))
}

// record locates one checked record in a file's bytes.
type record struct {
	off int // where the record starts
	dim int
}

func (r record) size() int { return recordOverhead + 4*r.dim }

func (r record) key(data []byte) (k [rawKeyLen]byte) {
	copy(k[:], data[r.off:])
	return k
}

// values decodes the record's vector into dst (len r.dim).
func (r record) values(data []byte, dst []float32) {
	p := data[r.off+rawKeyLen+4:]
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(p[4*i:]))
	}
}

// scanRecords checks the records of data from off on and returns them,
// with the end of the last good one. It stops at the first record that is
// truncated, has an impossible dim, or fails its checksum: the framing of
// anything after it cannot be trusted. It never reads past data and
// allocates only for records that are wholly present.
func scanRecords(data []byte, off int) (recs []record, end int) {
	end = off
	for {
		rest := data[end:]
		if len(rest) < recordOverhead {
			return recs, end
		}
		dim := binary.LittleEndian.Uint32(rest[rawKeyLen:])
		if dim == 0 || dim > maxVectorDim {
			return recs, end
		}
		r := record{off: end, dim: int(dim)}
		size := r.size()
		if len(rest) < size ||
			crc32.Checksum(rest[:size-4], castagnoli) != binary.LittleEndian.Uint32(rest[size-4:]) {
			return recs, end
		}
		recs = append(recs, r)
		end += size
	}
}

// vectorData is one read of a model's file, checked.
type vectorData struct {
	data      []byte
	hdr       int      // header length
	end       int      // end of the last good record; len(data) unless damaged
	live      []record // the last record of each key, in file order
	liveBytes int
}

// parseVectorFile checks a whole file. A header that is not model's yields
// an error wrapping errVectorHeader; damage after the header only shortens
// the valid part (end).
func parseVectorFile(data []byte, model string) (vectorData, error) {
	hdr, err := parseHeader(data, model)
	if err != nil {
		return vectorData{}, err
	}
	recs, end := scanRecords(data, hdr)
	last := make(map[[rawKeyLen]byte]int, len(recs))
	for i, r := range recs {
		last[r.key(data)] = i
	}
	d := vectorData{data: data, hdr: hdr, end: end, live: make([]record, 0, len(last))}
	for i, r := range recs {
		if last[r.key(data)] == i {
			d.live = append(d.live, r)
			d.liveBytes += r.size()
		}
	}
	return d, nil
}

// damaged reports whether bytes follow the last good record.
func (d *vectorData) damaged() bool { return d.end < len(d.data) }

// bloated reports whether superseded records take more room than live ones.
func (d *vectorData) bloated() bool { return d.end-d.hdr-d.liveBytes > d.liveBytes }

// --- validation (the same rules as store/bolt) ---

// decodeVectorKey accepts exactly what a hex-encoded SHA-256 looks like, in
// lower case, so a key reads back spelled as it was written.
func decodeVectorKey(key string) ([rawKeyLen]byte, error) {
	var raw [rawKeyLen]byte
	if err := store.ValidateVectorKey(key); err != nil {
		return raw, err
	}
	_, err := hex.Decode(raw[:], []byte(key))
	return raw, err
}

// --- per-model state and locking ---

// vectorFiles hands out the state of each model's file. Entries are never
// dropped: a process uses a handful of models.
type vectorFiles struct {
	mu sync.Mutex
	m  map[string]*vectorFile
}

// vectorFile serialises the operations on one model's file within the
// process; lockFile does it across processes.
type vectorFile struct {
	mu    sync.Mutex
	model string
	path  string
	// known is the file as this Store last left it, checked. While the file
	// at path has the same identity, size and modification time, it is a
	// good header and good records, and PutVectors appends without reading
	// it first. Another process's write changes one of the three.
	known iofs.FileInfo
}

func (v *vectorFiles) file(dir, model string) *vectorFile {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil {
		v.m = make(map[string]*vectorFile)
	}
	vf := v.m[model]
	if vf == nil {
		vf = &vectorFile{model: model, path: filepath.Join(dir, vectorStem(model)+vectorExt)}
		v.m[model] = vf
	}
	return vf
}

func (vf *vectorFile) isKnown(fi iofs.FileInfo) bool {
	k := vf.known
	return k != nil && os.SameFile(k, fi) && k.Size() == fi.Size() && k.ModTime().Equal(fi.ModTime())
}

func (vf *vectorFile) remember(f *os.File) {
	vf.known = nil
	if fi, err := f.Stat(); err == nil {
		vf.known = fi
	}
}

// withFile runs fn on the model's file, opened for reading and writing
// (nil when it does not exist), holding the model's mutex and its lock
// file. With create unset, a missing file means fn is not called at all and
// nothing is created on disk.
func (s *Store) withFile(ctx context.Context, vf *vectorFile, create bool, fn func(f *os.File) error) error {
	vf.mu.Lock()
	defer vf.mu.Unlock()
	dir := filepath.Dir(vf.path)
	legacy := ""
	if _, err := os.Lstat(vf.path); missing(err) {
		// A vector file an earlier recall kept in the folder is taken
		// over once: embeddings cost money.
		if legacy = s.legacyVectorPath(vf.path); legacy != "" {
			if fi, err := os.Lstat(legacy); err != nil || !fi.Mode().IsRegular() {
				legacy = ""
			}
		}
		if !create && legacy == "" {
			vf.known = nil
			return nil
		}
	}
	if create || legacy != "" {
		if err := s.cacheFolder(dir); err != nil {
			if legacy != "" && !create {
				return nil // an unwritable cache: nothing to load
			}
			return err
		}
	}
	unlock, err := lockFile(ctx, vf.path+".lock")
	if err != nil {
		return err
	}
	defer unlock()
	if legacy != "" {
		if _, err := os.Lstat(vf.path); errors.Is(err, iofs.ErrNotExist) {
			if _, err := adoptLegacy(legacy, vf.path); err != nil {
				return err
			}
		}
	}
	// Never through a symbolic link, never blocking on a named pipe.
	f, err := os.OpenFile(vf.path, os.O_RDWR|openNoFollow|openNonBlock, 0)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		vf.known = nil
		if !create {
			return nil
		}
		return fn(nil)
	case err != nil:
		if fi, lerr := os.Lstat(vf.path); lerr == nil && fi.Mode()&iofs.ModeSymlink != 0 {
			return fmt.Errorf("%s: %w: %w", vf.path, ErrMalformed, errSymlink)
		}
		return err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return err
	} else if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %w: %w (%s)", vf.path, ErrMalformed, errNotRegular, fileKind(fi.Mode()))
	}
	return fn(f)
}

// --- file operations; the caller holds the model's locks ---

// read reads the whole file from its start and checks it.
func (vf *vectorFile) read(f *os.File) (vectorData, error) {
	fi, err := f.Stat()
	if err != nil {
		return vectorData{}, err
	}
	// Sized up front: growing a buffer of many megabytes step by step
	// costs more than decoding it.
	var b bytes.Buffer
	b.Grow(int(fi.Size()) + bytes.MinRead)
	if _, err := b.ReadFrom(f); err != nil {
		return vectorData{}, err
	}
	return parseVectorFile(b.Bytes(), vf.model)
}

// setAside moves a file whose header is not trusted to <file>.bad (replacing
// an earlier one), so it is neither read nor lost without a trace: it may
// be a newer recall's format.
func (vf *vectorFile) setAside() error {
	vf.known = nil
	if err := os.Rename(vf.path, vf.path+".bad"); err != nil {
		return err
	}
	return syncDir(filepath.Dir(vf.path))
}

// rewrite replaces the file atomically with a header, the records keep
// (located in d.data), then tail (encoded records): temp file, fsync,
// rename, fsync of the folder. With nothing to write it removes the file.
func (vf *vectorFile) rewrite(d *vectorData, keep []record, tail []byte) error {
	dir := filepath.Dir(vf.path)
	vf.known = nil
	if len(keep) == 0 && len(tail) == 0 {
		if err := os.Remove(vf.path); err != nil && !errors.Is(err, iofs.ErrNotExist) {
			return err
		}
		return syncDir(dir)
	}
	f, err := createTemp(dir, filepath.Base(vf.path))
	if err != nil {
		return err
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return err
	}
	w := bufio.NewWriterSize(f, 1<<16)
	_, err = w.Write(appendHeader(nil, vf.model))
	for _, r := range keep {
		if err == nil {
			_, err = w.Write(d.data[r.off : r.off+r.size()])
		}
	}
	if err == nil {
		_, err = w.Write(tail)
	}
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		return fail(err)
	}
	fi, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, vf.path); err != nil {
		os.Remove(tmp)
		return err
	}
	vf.known = fi // a rename keeps the identity and modification time
	return syncDir(dir)
}

// truncate cuts a damaged tail off, so the next append lands right after
// the last good record.
func (vf *vectorFile) truncate(f *os.File, end int) error {
	vf.known = nil
	if err := f.Truncate(int64(end)); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	vf.remember(f)
	return nil
}

// appendAt writes buf at end with one write and fsyncs it.
func (vf *vectorFile) appendAt(f *os.File, end int64, buf []byte) error {
	vf.known = nil
	if _, err := f.WriteAt(buf, end); err != nil {
		// Best effort: leave no partial record for a later append to follow.
		_ = f.Truncate(end)
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	vf.remember(f)
	return nil
}

// settle repairs what a read found: a damaged tail is cut off, a file with
// more dead records than live ones is compacted.
func (vf *vectorFile) settle(f *os.File, d *vectorData) error {
	switch {
	case d.bloated():
		return vf.rewrite(d, d.live, nil)
	case d.damaged():
		return vf.truncate(f, d.end)
	default:
		vf.remember(f)
		return nil
	}
}

// --- the methods ---

// LoadVectors calls fn for every valid vector stored for model, in the
// order they were first written (a replaced vector keeps no position).
// Each vec is fn's to keep. A model with nothing stored yields nothing.
//
// The file is read whole and checked under the model's lock, and repaired
// before fn is called: a header that is not this model's in this format
// moves the file aside to <file>.bad (nothing is returned); a record that
// is truncated or fails its checksum ends the good part of the file, and
// the file is cut there; a file in which replaced records outweigh live
// ones is compacted. fn runs after the lock is released, so it may call
// any method of the store. An error from fn stops the load and is
// returned as is.
func (s *Store) LoadVectors(ctx context.Context, model string, fn func(key string, vec []float32) error) error {
	_, err := s.LoadVectorsReport(ctx, model, fn)
	return err
}

// LoadVectorsReport is LoadVectors, and also returns how many records it
// dropped as damaged (embed/cache.DamageReporter). The records after the
// first damaged one cannot be framed, so a cut tail is counted as the
// number of records of the last good record's size it could hold, rounded
// up (at least 1; exactly 1 when no good record is left to size by); a
// file set aside (its header is not trusted) counts as 1.
func (s *Store) LoadVectorsReport(ctx context.Context, model string, fn func(key string, vec []float32) error) (int, error) {
	op := fmt.Sprintf("load vectors for %q", model)
	if err := s.check(ctx, op); err != nil {
		return 0, err
	}
	if err := store.ValidateModel(model); err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	if err := s.checkCacheRead(s.vectorDir()); err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	vf := s.vectors.file(s.vectorDir(), model)
	var (
		d       vectorData
		dropped int
	)
	err := s.withFile(ctx, vf, false, func(f *os.File) error {
		var err error
		d, err = vf.read(f)
		if errors.Is(err, errVectorHeader) {
			dropped = 1
			return vf.setAside()
		}
		if err != nil {
			return err
		}
		if d.damaged() {
			var last *record
			if n := len(d.live); n > 0 {
				last = &d.live[n-1]
			}
			dropped = estimateRecords(d.data, d.end, last)
		}
		return vf.settle(f, &d)
	})
	if err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	total := 0
	for _, r := range d.live {
		total += r.dim
	}
	slab := make([]float32, total)
	for i, r := range d.live {
		if i%4096 == 4095 {
			if err := ctx.Err(); err != nil {
				return dropped, fmt.Errorf("%s: %w", op, err)
			}
		}
		var vec []float32
		vec, slab = slab[:r.dim:r.dim], slab[r.dim:]
		r.values(d.data, vec)
		if err := fn(hex.EncodeToString(d.data[r.off:r.off+rawKeyLen]), vec); err != nil {
			return dropped, err
		}
	}
	return dropped, nil
}

// estimateRecords is how many records the damaged bytes of data from off
// on could hold at the size of like, rounded up; at least 1, and 1 when
// like is nil.
func estimateRecords(data []byte, off int, like *record) int {
	if like == nil {
		return 1
	}
	size := like.size()
	return max((len(data)-off+size-1)/size, 1)
}

// PutVectors stores vecs[i] under keys[i] for model, replacing existing
// ones; when a key appears twice the later vector wins. The records are
// appended with one write and one fsync (a new file is created whole, with
// its header, by temp file and rename). A crash during the write may keep
// a prefix of the call's records, each of them intact, and never harms
// records written before. The revision is not bumped. Keys must be 64
// lower-case hex digits and vectors 1 to 65536 long; otherwise nothing is
// written and the error wraps store.ErrInvalid.
func (s *Store) PutVectors(ctx context.Context, model string, keys []string, vecs [][]float32) error {
	op := fmt.Sprintf("put vectors for %q", model)
	if err := s.check(ctx, op); err != nil {
		return err
	}
	if err := store.ValidateModel(model); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if len(keys) != len(vecs) {
		return fmt.Errorf("%s: %w: %d keys but %d vectors", op, store.ErrInvalid, len(keys), len(vecs))
	}
	size := 0
	for i, k := range keys {
		if _, err := decodeVectorKey(k); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		n := len(vecs[i])
		if n == 0 || n > maxVectorDim {
			return fmt.Errorf("%s: %w", op, &store.FieldError{Field: "vector", Value: k,
				Reason: fmt.Sprintf("has %d dimensions, want 1 to %d", n, maxVectorDim)})
		}
		size += recordOverhead + 4*n
	}
	if len(keys) == 0 {
		return nil
	}
	buf := make([]byte, 0, size)
	for i, k := range keys {
		raw, _ := decodeVectorKey(k)
		buf = appendRecord(buf, &raw, vecs[i])
	}
	if err := s.cacheFolder(s.vectorDir()); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	vf := s.vectors.file(s.vectorDir(), model)
	err := s.withFile(ctx, vf, true, func(f *os.File) error {
		if f == nil {
			return vf.rewrite(nil, nil, buf)
		}
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		if vf.isKnown(fi) {
			return vf.appendAt(f, fi.Size(), buf)
		}
		// Written by another process, or not seen yet: check before
		// appending, or the new records could land after damage and be
		// lost to the next load.
		d, err := vf.read(f)
		switch {
		case errors.Is(err, errVectorHeader):
			if err := vf.setAside(); err != nil {
				return err
			}
			return vf.rewrite(nil, nil, buf)
		case err != nil:
			return err
		case d.bloated():
			return vf.rewrite(&d, d.live, buf)
		}
		if d.damaged() {
			if err := f.Truncate(int64(d.end)); err != nil {
				return err
			}
		}
		return vf.appendAt(f, int64(d.end), buf)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// DeleteVectors removes the keys of model; missing keys are fine. When any
// is present the file is rewritten without them (temp file, fsync, rename,
// fsync of the folder), and removed once it holds nothing. Keys that cannot
// exist (not 64 lower-case hex digits) are an error wrapping
// store.ErrInvalid. The revision is not bumped.
func (s *Store) DeleteVectors(ctx context.Context, model string, keys []string) error {
	op := fmt.Sprintf("delete vectors for %q", model)
	if err := s.check(ctx, op); err != nil {
		return err
	}
	if err := store.ValidateModel(model); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	drop := make(map[[rawKeyLen]byte]bool, len(keys))
	for _, k := range keys {
		raw, err := decodeVectorKey(k)
		if err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		drop[raw] = true
	}
	if len(drop) == 0 {
		return nil
	}
	if err := s.checkCacheRead(s.vectorDir()); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	vf := s.vectors.file(s.vectorDir(), model)
	err := s.withFile(ctx, vf, false, func(f *os.File) error {
		d, err := vf.read(f)
		if errors.Is(err, errVectorHeader) {
			return vf.setAside()
		}
		if err != nil {
			return err
		}
		keep := make([]record, 0, len(d.live))
		for _, r := range d.live {
			if !drop[r.key(d.data)] {
				keep = append(keep, r)
			}
		}
		if len(keep) == len(d.live) {
			return vf.settle(f, &d)
		}
		return vf.rewrite(&d, keep, nil)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}
