package fs

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/recallhq/recall/store"
)

var _ store.StampedIndexCache = (*Store)(nil)

// The persisted index (store.StampedIndexCache). A folder's revision lives
// in the process, so a copy of the index kept between processes is tied
// to the files instead: the reader (package retrieve) records with the
// copy each entry's stamp, and at the next start takes from the copy only
// the entries whose stamp is unchanged, reading the others.
//
// The copy is one file, index, in the store's cache folder (cachedir.go:
// in the user's cache directory, not in the folder), written whole to a
// temp file beside it and renamed over the old one, so a reader finds one
// copy or the other. It is not fsynced: it is disposable, and its reader
// checks its length and checksum, so a copy that a crash damaged is
// rebuilt. It holds the content of every entry its writer could read,
// whatever the entry files' modes, so it is readable by that user only
// (mode 0600), and a copy another user owns is not loaded: that user's
// reads are not this one's. A cache folder that cannot be written costs
// the next process a full read, nothing else.
//
// A stamp is the entry file's size, modification time and, where the
// system has them (Linux), its inode and change time, from one lstat per
// file, taken before the file is read (so the content read is at least
// as new as its stamp). An edit keeps that stamp only if it keeps the size
// and lands in the same tick of the file system's clock as the previous
// change, with the change time forged too, which only the kernel can do.
// That leaves the "racily clean" file of git (Documentation/technical/
// racy-git.txt): one changed in the same tick as the walk that stamped it
// may change again, in that tick, after it was read, and keep its stamp.
// git's rule applies: a file whose modification or change time is not
// before the walk's time gets an empty stamp, which no reader trusts, so
// it is read at every start until a later walk finds it older. The walk's
// time is the file system's own clock when it can be read without writing
// into the folder: AllStamped writes a probe file, index.clock, in the
// cache folder, and when that is on the folder's file system takes the
// probe's modification time. Otherwise (the cache on another disk, or
// not writable) it is the system clock less clockMargin, more than the
// coarsest granularity of file times (FAT's two seconds) plus the lag of
// the kernel's file clock behind the system's. On a file system whose
// times a stamp cannot trust (NFS, SMB, FUSE: see stampsTrusted) every
// stamp is empty, and so is the stamp of a file on another file system
// than the root's (a category folder that is a mount point): its clock
// may not be the one the walk's time was taken from.

// clockMargin (a variable for tests) is how far before the system clock's now the walk's time is
// put when the file system's own clock cannot be read.
var clockMargin = 3 * time.Second

const (
	indexFile = "index"
	clockFile = "index.clock"
)

// AllStamped is All with each entry's stamp; see store.StampedIndexCache.
//
// It walks the tree first, noting the notes and the errors in order, then
// stamps every note, several files at a time (a stat each, most of the
// walk's time), and only then calls fresh and reads, in order. So a caller
// may prepare what fresh needs (decode its copy) while the tree is walked.
func (s *Store) AllStamped(ctx context.Context, fresh func(k store.Key, stamp string) bool) iter.Seq2[store.StampedEntry, error] {
	return func(yield func(store.StampedEntry, error) bool) {
		if err := s.check(ctx, "all"); err != nil {
			yield(store.StampedEntry{}, err)
			return
		}
		clock, clockOK := s.probeClock()
		type item struct {
			path, category, name string
			err                  error
			stamp                string
			gone                 bool
		}
		var items []item
		w := walker[struct{}]{s: s, ctx: ctx,
			leaf: func(path, category, name string) (struct{}, bool, error) {
				items = append(items, item{path: path, category: category, name: name})
				return struct{}{}, true, nil
			},
			yield: func(_ struct{}, err error) bool {
				items = append(items, item{err: err})
				return true
			},
		}
		w.walk(s.root, nil, nil)
		parallel(len(items), func(lo, hi int) {
			var buf [stampSize]byte
			for i := lo; i < hi; i++ {
				it := &items[i]
				if it.err != nil {
					continue
				}
				fi, err := os.Lstat(it.path)
				switch {
				case errors.Is(err, iofs.ErrNotExist):
					it.gone = true // deleted since the listing
				case err == nil && clockOK && fi.Mode().IsRegular() && s.onRootDevice(fi):
					// A file on another file system (below a mount
					// point) has its own clock and granularity: no stamp.
					it.stamp = makeStamp(buf[:0], fi, clock)
				}
			}
		})
		for _, it := range items {
			if it.err != nil {
				if !yield(store.StampedEntry{}, it.err) {
					return
				}
				continue
			}
			if it.gone {
				continue
			}
			if err := s.live(ctx, "all"); err != nil {
				yield(store.StampedEntry{}, err)
				return
			}
			k := store.Key{Category: it.category, Name: it.name}
			if it.stamp != "" && fresh != nil && fresh(k, it.stamp) {
				if !yield(store.StampedEntry{Entry: store.Entry{Category: it.category, Name: it.name}, Stamp: it.stamp, Cached: true}, nil) {
					return
				}
				continue
			}
			e, err := readEntry(it.path, it.category, it.name)
			if errors.Is(err, iofs.ErrNotExist) { // deleted since the listing
				continue
			}
			if !yield(store.StampedEntry{Entry: e, Stamp: it.stamp}, err) {
				return
			}
		}
	}
}

// parallel runs fn over [0, n) in chunks on a few goroutines.
func parallel(n int, fn func(lo, hi int)) {
	const chunk = 512
	workers := min(runtime.GOMAXPROCS(0)*2, (n+chunk-1)/chunk)
	if workers <= 1 {
		fn(0, n)
		return
	}
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= n {
					return
				}
				fn(lo, min(lo+chunk, n))
			}
		})
	}
	wg.Wait()
}

// probeClock returns the walk's time in nanoseconds (see above) and
// whether stamps may be given at all.
func (s *Store) probeClock() (int64, bool) {
	if !stampsTrusted(s.root) {
		return 0, false
	}
	if t, ok := s.fileSystemClock(); ok {
		return t, true
	}
	return time.Now().Add(-clockMargin).UnixNano(), true
}

// fileSystemClock writes the probe file in the cache folder and returns
// its modification time, when the cache folder is on the root's file
// system.
func (s *Store) fileSystemClock() (int64, bool) {
	if s.cacheFolder(s.cache) != nil {
		return 0, false
	}
	// Never blocking on a named pipe put there.
	f, err := os.OpenFile(filepath.Join(s.cache, clockFile), os.O_WRONLY|os.O_CREATE|os.O_TRUNC|openNoFollow|openNonBlock, 0o666)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || !s.onRootDevice(fi) {
		return 0, false
	}
	// A write, unlike a truncation of an empty file, always moves the
	// modification time.
	if _, err := f.Write([]byte{'\n'}); err != nil {
		return 0, false
	}
	fi, err := f.Stat()
	if err != nil {
		return 0, false
	}
	return fi.ModTime().UnixNano(), true
}

// makeStamp returns the stamp of a regular file, or "" when it changed at
// or after clock (racily clean).
func makeStamp(b []byte, fi iofs.FileInfo, clock int64) string {
	mtime := fi.ModTime().UnixNano()
	ino, ctime := inodeOf(fi)
	if mtime >= clock || ctime >= clock {
		return ""
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(fi.Size()))
	b = binary.LittleEndian.AppendUint64(b, uint64(mtime))
	b = binary.LittleEndian.AppendUint64(b, ino)
	b = binary.LittleEndian.AppendUint64(b, uint64(ctime))
	return string(b)
}

const stampSize = 32

// SaveStampedIndex replaces the index copy in the cache folder with data.
func (s *Store) SaveStampedIndex(ctx context.Context, data []byte) error {
	if err := s.check(ctx, "save index"); err != nil {
		return err
	}
	dir := s.cache
	if err := s.cacheFolder(dir); err != nil {
		return fmt.Errorf("save index: %w", err)
	}
	f, err := createTemp(dir, indexFile)
	if err != nil {
		return fmt.Errorf("save index: %w", err)
	}
	tmp := f.Name()
	// The copy holds every entry its writer could read, whatever the
	// entry files' modes: only that user may read it.
	err = f.Chmod(0o600)
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, indexFile))
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("save index: %w", err)
	}
	return nil
}

// removeStaleIndexTemps removes the temp files of SaveStampedIndex that
// crashed writers left in the cache folder cache.
func removeStaleIndexTemps(cache string, maxAge time.Duration) {
	files, err := os.ReadDir(cache)
	if err != nil {
		return
	}
	cutoff := time.Now().Add(-maxAge)
	for _, f := range files {
		if !f.Type().IsRegular() || !strings.HasPrefix(f.Name(), "."+indexFile+".tmp-") {
			continue
		}
		if fi, err := f.Info(); err == nil && fi.ModTime().Before(cutoff) {
			os.Remove(filepath.Join(cache, f.Name()))
		}
	}
}

// LoadStampedIndex returns the index copy in the cache folder, or nil.
// The copy an earlier recall kept in <root>/.recall is not read: it is
// rebuilt in the cache folder once.
func (s *Store) LoadStampedIndex(ctx context.Context) ([]byte, error) {
	if err := s.check(ctx, "load index"); err != nil {
		return nil, err
	}
	dir := s.cache
	if err := s.checkCacheRead(dir); errors.Is(err, errNoCache) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("load index: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, indexFile), os.O_RDONLY|openNoFollow|openNonBlock, 0)
	if errors.Is(err, iofs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load index: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("load index: %w", err)
	}
	if !fi.Mode().IsRegular() || !ownedByUs(fi) {
		// Another user's copy holds what that user could read, which is
		// not what this one can: not trusted.
		return nil, nil
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("load index: %w", err)
	}
	return b, nil
}
