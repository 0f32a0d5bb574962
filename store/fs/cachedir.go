package fs

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The cache folder. A folder store is often a folder the user keeps for
// themselves (an Obsidian vault, a git checkout), so it writes nothing
// there on a read: the files it only keeps to go faster (the index copy,
// its clock probe, the vector cache) live in a folder of the user's cache
// directory that belongs to this one folder,
//
//	<CacheDir>/folders/<base name>-<16 hex digits>
//
// where CacheDir is Options.CacheDir, else $RECALL_CACHE_DIR, else
// os.UserCacheDir()/recall (~/.cache/recall on Linux, ~/Library/Caches/
// recall on macOS, %LocalAppData%\recall on Windows). The hex digits are
// the start of the SHA-256 of the folder's identity: its absolute path
// with symbolic links resolved, its device and its inode. So two folders
// never share a cache; and a folder that is moved, copied (cp -a, a git
// clone, a restore) or deleted and made again gets a fresh one rather
// than another folder's (whose stamps would not match anyway: see
// indexcache.go). The base name is there for a person looking at the
// cache directory, as is the file "folder" in it, which names the folder
// it serves. Any of it may be deleted at any time.
//
// Options.CacheInFolder keeps them in <root>/.recall instead, as earlier
// versions of recall did (for a memory that carries its cache with it). The lock
// file that makes writers wait for each other stays in <root>/.recall
// either way (entrylock.go): every writer of the folder, whatever its
// cache directory, must find the same one.

// cacheKeyDigits is how many hex digits of the identity's SHA-256 name a
// folder's cache: 64 bits.
const cacheKeyDigits = 16

// maxCacheBaseBytes caps the readable part of a cache folder's name.
const maxCacheBaseBytes = 40

// errNoCache is returned by the cache's operations when the store has no
// cache folder (no user cache directory is known).
var errNoCache = errors.New("no cache folder: the user's cache directory is unknown (set RECALL_CACHE_DIR)")

// cacheLocation returns the folder of root's cache, and whether it is in
// root itself; "" when there is none to be had.
func cacheLocation(root string, fi iofs.FileInfo, o Options) (string, bool) {
	if o.CacheInFolder {
		return filepath.Join(root, ".recall"), true
	}
	base := o.CacheDir
	if base == "" {
		base = os.Getenv("RECALL_CACHE_DIR")
	}
	if base == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", false
		}
		base = filepath.Join(dir, "recall")
	}
	base, err := filepath.Abs(base)
	if err != nil {
		return "", false
	}
	return filepath.Join(base, "folders", cacheName(root, fi)), false
}

// cacheName is the name of root's folder in the cache directory.
func cacheName(root string, fi iofs.FileInfo) string {
	h := sha256.New()
	h.Write([]byte(root))
	h.Write([]byte{0})
	dev, ino := fileID(fi)
	h.Write(binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, dev), ino))
	sum := hex.EncodeToString(h.Sum(nil))[:cacheKeyDigits]
	return readableBase(filepath.Base(root)) + "-" + sum
}

// readableBase is name with what a file name should not hold (separators,
// control characters, a leading dot) replaced by '_', cut to
// maxCacheBaseBytes on a character boundary.
func readableBase(name string) string {
	var b strings.Builder
	for _, r := range name {
		if b.Len()+utf8.RuneLen(r) > maxCacheBaseBytes {
			break
		}
		if strings.ContainsRune(`/\:*?"<>|`, r) || unicode.IsControl(r) || r == utf8.RuneError {
			r = '_'
		}
		b.WriteRune(r)
	}
	s := strings.TrimLeft(b.String(), ".")
	if s == "" {
		s = "folder"
	}
	return s
}

// CacheDir returns the folder that holds the store's index copy and vector
// cache (see the package doc, "Cache folder"), or "" when it has none.
// The folder may not exist yet.
func (s *Store) CacheDir() string { return s.cache }

// cacheFolder returns the cache folder, made when missing, for a write
// into it; dir, when not empty, is a folder below it to check (and make)
// as well. A cache folder in the root must not be a symbolic link (see
// checkRecallDir); one in the user's cache directory may be (a cache
// directory moved to another disk and linked back).
func (s *Store) cacheFolder(dir string) error {
	if s.cache == "" {
		return errNoCache
	}
	if s.cacheInRoot {
		if err := s.checkRecallDir(dir); err != nil {
			return err
		}
		return os.MkdirAll(dir, 0o777)
	}
	if _, err := os.Stat(s.cache); errors.Is(err, iofs.ErrNotExist) {
		// Mode 0700: it holds the content of the notes, which may be
		// private whatever the notes' own modes.
		if err := os.MkdirAll(s.cache, 0o700); err != nil {
			return err
		}
		// For a person looking at the cache directory: whose is this?
		_ = os.WriteFile(filepath.Join(s.cache, "folder"), []byte(s.root+"\n"), 0o600)
	} else if err != nil {
		return err
	}
	return os.MkdirAll(dir, 0o700)
}

// checkCacheRead is the check before reading from the cache folder (or
// dir below it): nothing is made.
func (s *Store) checkCacheRead(dir string) error {
	switch {
	case s.cache == "":
		return errNoCache
	case s.cacheInRoot:
		return s.checkRecallDir(dir)
	}
	return nil
}

// legacyVectorPath is where a recall that kept its cache in the folder
// kept a model's vector file, when the cache now lives elsewhere; "" when
// there is nothing to take from there. The file is read (copied into the
// cache folder once, by adoptLegacy), never changed or removed: it is in
// the user's folder.
func (s *Store) legacyVectorPath(path string) string {
	if s.cacheInRoot {
		return ""
	}
	dir := filepath.Join(s.root, ".recall", "vectors")
	if s.checkRecallDir(dir) != nil {
		return ""
	}
	return filepath.Join(dir, filepath.Base(path))
}

// adoptLegacy copies the vector file at legacy (a regular file, never
// through a link) to path, whole, by temp file, fsync and rename; it
// reports whether it did. The caller holds the model's locks and found no
// file at path. Its records are checked by the load that follows, as any.
func adoptLegacy(legacy, path string) (bool, error) {
	src, err := os.OpenFile(legacy, os.O_RDONLY|openNoFollow|openNonBlock, 0)
	if err != nil {
		return false, nil // none, or not ours to read: start empty
	}
	defer src.Close()
	if fi, err := src.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false, nil
	}
	dir := filepath.Dir(path)
	f, err := createTemp(dir, filepath.Base(path))
	if err != nil {
		return false, err
	}
	tmp := f.Name()
	_, err = f.ReadFrom(src)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return false, fmt.Errorf("copy vectors from %s: %w", legacy, err)
	}
	return true, syncDir(dir)
}
