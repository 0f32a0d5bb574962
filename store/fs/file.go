package fs

import (
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/recallhq/recall/store"
)

const (
	ext = ".md"
	// tempMarker sits between the entry's file name and a random suffix:
	// ".<name>.md.tmp-<16 hex digits>". The leading dot keeps temp files out
	// of All even without the marker.
	tempMarker = ext + ".tmp-"
	// maxFrontMatterBytes bounds the metadata block, so a file can be
	// read with a fixed limit instead of trusting whatever sits in the folder.
	maxFrontMatterBytes = 256 << 10
	maxFileBytes        = store.MaxContentBytes + maxFrontMatterBytes
)

// readEntry reads and parses one entry file. A missing file, or a folder
// where the file should be, yields an error wrapping iofs.ErrNotExist. It
// never follows a symbolic link and never blocks on a named pipe: both,
// and anything else that is not a regular file, are errors wrapping
// ErrMalformed that name the path.
func readEntry(path, category, name string) (store.Entry, error) {
	e := store.Entry{Category: category, Name: name}
	b, err := readEntryBytes(path)
	if err != nil {
		return e, err
	}
	meta, content, err := parseFile(b)
	if err != nil {
		return e, fmt.Errorf("%s: %w: %v", path, ErrMalformed, err)
	}
	if err := store.ValidateContent(content); err != nil {
		// Not wrapped: the caller's key is fine, the file is not.
		return e, fmt.Errorf("%s: %w: %v", path, ErrMalformed, err)
	}
	e.Content, e.Meta = content, meta
	return e, nil
}

// readEntryBytes reads an entry file whole, by the rules of readEntry.
func readEntryBytes(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNoFollow|openNonBlock, 0)
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) { // the category is a plain file
			return nil, fmt.Errorf("%s: %w", path, iofs.ErrNotExist)
		}
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&iofs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s: %w: %w", path, ErrMalformed, errSymlink)
		}
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: is a folder: %w", path, iofs.ErrNotExist)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w: %w (%s)", path, ErrMalformed, errNotRegular, fileKind(fi.Mode()))
	}
	if openNoFollow == 0 { // no O_NOFOLLOW: check after the fact
		if li, err := os.Lstat(path); err == nil && li.Mode()&iofs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s: %w: %w", path, ErrMalformed, errSymlink)
		}
	}
	b, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxFileBytes {
		return nil, fmt.Errorf("%s: %w: larger than %d bytes", path, ErrMalformed, maxFileBytes)
	}
	return b, nil
}

// writeFileAtomic replaces dir/base with data so that a reader, or the
// folder after a crash, holds either the old file or the new one, never a
// mix: temp file in the same folder, write, fsync, rename (the caller
// fsyncs the folder). perm, when non-zero, is applied to the new file (to
// keep the mode of the file it replaces).
func (s *Store) writeFileAtomic(dir, base string, data []byte, perm iofs.FileMode) error {
	t, err := s.writeTemp(dir, base, data, perm, true)
	if err != nil {
		return err
	}
	return s.commitTemp(t)
}

// tempFile is a complete temp file waiting to be renamed over its entry's
// file.
type tempFile struct {
	tmp, final string
	own        fileState // its size and modification time, for the watch
}

// writeTemp writes data to a new temp file beside dir/base, fsyncs it when
// sync is set, and closes it. A caller that passes sync=false must make the
// file durable another way (PutBatch: one syncfs) before commitTemp, or a
// crash could leave a torn entry. On error nothing is left behind.
func (s *Store) writeTemp(dir, base string, data []byte, perm iofs.FileMode, sync bool) (tempFile, error) {
	var (
		f   *os.File
		err error
	)
	// A concurrent Delete (here or in another process) may remove the
	// folders between ensureDir and the create when it held their last
	// entry; recreate and retry.
	for range 20 {
		if err = s.ensureDir(dir); errors.Is(err, iofs.ErrNotExist) {
			continue
		} else if err != nil {
			return tempFile{}, err
		}
		if f, err = createTemp(dir, base); !errors.Is(err, iofs.ErrNotExist) {
			break
		}
	}
	if err != nil {
		return tempFile{}, err
	}
	tmp := f.Name()
	fail := func(err error) (tempFile, error) {
		f.Close()
		os.Remove(tmp)
		return tempFile{}, err
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if perm != 0 {
		if err := f.Chmod(perm); err != nil {
			return fail(err)
		}
	}
	fi, statErr := f.Stat()
	if !sync && (statErr != nil || !s.onRootDevice(fi)) {
		// One syncfs of the root's file system does not cover a file on
		// another (a category folder that is a mount point).
		sync = true
	}
	if sync {
		if err := f.Sync(); err != nil {
			return fail(err)
		}
		if testHookTempSynced != nil {
			testHookTempSynced(filepath.Join(dir, base))
		}
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return tempFile{}, err
	}
	t := tempFile{tmp: tmp, final: filepath.Join(dir, base)}
	// A rename keeps size and modification time, so a watch recognises the
	// entry file this write is about to produce.
	if statErr == nil {
		t.own = stateOf(fi)
	}
	return t, nil
}

// testHookTempSynced, when set by a test, is called with the entry's path
// after writeTemp fsynced its temp file.
var testHookTempSynced func(final string)

// onRootDevice reports whether fi is on the root's file system (true when
// that is unknown).
func (s *Store) onRootDevice(fi iofs.FileInfo) bool {
	dev, ok := deviceOf(fi)
	return !ok || s.rootDev == 0 || dev == s.rootDev
}

// sameDevice reports whether a and b are on one file system (true when
// that is unknown).
func sameDevice(a, b iofs.FileInfo) bool {
	da, ok1 := deviceOf(a)
	db, ok2 := deviceOf(b)
	return !ok1 || !ok2 || da == db
}

// commitTemp renames a durable temp file over its entry's file; on error
// the temp file is removed.
func (s *Store) commitTemp(t tempFile) error {
	if t.own.exists {
		s.noteOwn(t.final, t.own)
	}
	if err := os.Rename(t.tmp, t.final); err != nil {
		if t.own.exists {
			s.forgetOwn(t.final, t.own)
		}
		os.Remove(t.tmp)
		return err
	}
	return nil
}

// ensureDir creates a category folder and the missing folders above it,
// one level at a time, never through a symbolic link. The lock makes a
// second writer wait until the first has made each new folder durable
// (fsync of its parent), so no writer can report success for an entry
// whose folder a crash could lose.
func (s *Store) ensureDir(dir string) error {
	s.mkdirMu.Lock()
	defer s.mkdirMu.Unlock()
	rel, err := filepath.Rel(s.root, dir)
	if err != nil || rel == "." {
		return err
	}
	cur := s.root
	for _, seg := range strings.Split(rel, string(filepath.Separator)) {
		parent := cur
		cur = filepath.Join(cur, seg)
		s.noteOwn(cur, fileState{exists: true, dir: true})
		err := os.Mkdir(cur, 0o777)
		switch {
		case err == nil:
			if err := syncDir(parent); err != nil {
				return err
			}
			continue
		case !errors.Is(err, iofs.ErrExist):
			s.forgetOwn(cur, fileState{exists: true, dir: true})
			return err
		}
		s.forgetOwn(cur, fileState{exists: true, dir: true})
		fi, err := os.Lstat(cur)
		switch {
		case err != nil:
			return err
		case fi.Mode()&iofs.ModeSymlink != 0:
			return fmt.Errorf("%s: %w: %w", cur, ErrMalformed, errSymlink)
		case !fi.IsDir():
			return fmt.Errorf("%s: %w: %w", cur, ErrMalformed, errNotFolder)
		}
	}
	return nil
}

// fileKind names what a non-regular file is, for messages.
func fileKind(m iofs.FileMode) string {
	switch {
	case m&iofs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&iofs.ModeSocket != 0:
		return "a socket"
	case m&iofs.ModeDevice != 0:
		return "a device"
	case m&iofs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a folder"
	default:
		return "not a plain file"
	}
}

func createTemp(dir, base string) (*os.File, error) {
	for {
		name := "." + base + ".tmp-" + fmt.Sprintf("%016x", rand.Uint64())
		// 0o666 less the umask, as any editor creating a file would get.
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, iofs.ErrExist) {
			continue
		}
		return f, err
	}
}

// isTempName reports whether a file name is one createTemp makes.
func isTempName(name string) bool {
	if !strings.HasPrefix(name, ".") {
		return false
	}
	i := strings.LastIndex(name, tempMarker)
	if i < 1 {
		return false
	}
	suffix := name[i+len(tempMarker):]
	if len(suffix) != 16 {
		return false
	}
	_, err := strconv.ParseUint(suffix, 16, 64)
	return err == nil
}

// syncDir makes renames and removals in dir durable.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" { // directories cannot be opened for fsync there
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = syncOpenDir(d)
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncOpenDir is syncDir for a folder opened beforehand, which stays
// valid even if another goroutine removes the folder meanwhile.
func syncOpenDir(d *os.File) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	err := d.Sync()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		return nil // the file system cannot sync folders; nothing more to do
	}
	return err
}

// mkdirAll is os.MkdirAll that also syncs the parent of each folder it
// creates, so a new store's root survives a crash together with its first
// entries.
func mkdirAll(dir string) error {
	fi, err := os.Stat(dir)
	if err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("%s: not a folder", dir)
		}
		return nil
	}
	parent := filepath.Dir(dir)
	if parent != dir {
		if err := mkdirAll(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o777); err != nil && !errors.Is(err, iofs.ErrExist) {
		return err
	}
	return syncDir(parent)
}

// removeIfStale deletes path, a temp file (isTempName) that a walk came
// across, when a crashed writer left it: when it is older than the
// store's StaleTempAge. A younger one may belong to a write in flight in
// another process. It is best effort: a walk skips temp files anyway.
func (s *Store) removeIfStale(path string, f iofs.DirEntry) {
	age := s.opts.StaleTempAge
	if age == 0 {
		age = defaultStaleTempAge
	}
	if age < 0 {
		return
	}
	if fi, err := f.Info(); err == nil && fi.ModTime().Before(time.Now().Add(-age)) {
		os.Remove(path)
	}
}
