package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"iter"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	bbolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/recallhq/recall/store"
)

// Errors of Open besides store.ErrLocked. Callers test them with errors.Is.
var (
	// ErrNotDatabase is returned by Open for a file that is not a recall
	// database: not a bbolt file at all, or a bbolt file that another
	// program uses.
	ErrNotDatabase = errors.New("not a recall database")
	// ErrNewerFormat is returned by Open for a database written by a newer
	// recall, whose format this one cannot read safely.
	ErrNewerFormat = errors.New("database format is newer than this recall supports")
)

// FormatVersion is the version of the file layout this package writes and
// reads. Open refuses files with a higher version and migrates files of
// version 1 (entry values without a checksum), 2 (without the event date)
// and 3 (without the change history, history.go) to it.
const FormatVersion = 4

// Bucket names (bucketVectors is in vectors.go). A bucket added to
// initBuckets later is created in older files on their next Open.
var (
	bucketMeta    = []byte("recall.meta")
	bucketEntries = []byte("recall.entries")

	initBuckets = [][]byte{bucketEntries, bucketVectors, bucketChanges}

	keyFormat = []byte("format")
)

// DefaultTimeout is how long Open waits for another process to release the
// file when Options.Timeout is zero.
const DefaultTimeout = time.Second

// chunkSize is how many entries All reads per read transaction.
const chunkSize = 256

// Options configures Open. The zero value is ready to use.
type Options struct {
	// Timeout bounds how long Open waits for the file lock held by another
	// process before failing with store.ErrLocked. Zero means
	// DefaultTimeout. Waiting forever is deliberately not offered.
	Timeout time.Duration

	// NoSync skips the fsync after each write. UNSAFE: a crash of the
	// machine (not just of the process) can lose writes or corrupt the
	// file. Meant for benchmarks only.
	NoSync bool

	// ChangeLogSize is how many changed keys the change feed remembers
	// (see Store.Changes); zero means store.DefaultChangeLogSize.
	ChangeLogSize int

	// History is how many revisions of changed keys the file itself keeps
	// (see history.go), so that a later process brings an index copy that
	// many writes behind up to date by re-reading only the changed
	// entries; zero means DefaultHistory, a negative value keeps none
	// (every later process then rebuilds its index after a write).
	History int

	// ReadOnly opens the file for reading only (a file on read-only media,
	// or one this process may not write): bbolt maps it without writing,
	// under a shared lock, so other read-only processes may read it at the
	// same time, while a writer holds it exclusively. Writes fail with an
	// error wrapping ErrReadOnly; the index and vector caches are not
	// saved. A file that needs writing before it can be used (an older
	// format, a missing bucket) cannot be opened so.
	ReadOnly bool
}

// ErrReadOnly is wrapped by the error of every write to a store opened
// with Options.ReadOnly.
var ErrReadOnly = errors.New("store file was opened read-only")

// Validate reports whether the options are usable.
func (o Options) Validate() error {
	if o.Timeout < 0 {
		return fmt.Errorf("bolt options: negative timeout %v", o.Timeout)
	}
	return nil
}

// Store is a store.Store kept in one bbolt file. It is safe for concurrent
// use by multiple goroutines; only one process can have the file open.
type Store struct {
	path  string
	ident fileIdent // the file's device and inode (indexmap.go)

	// mu guards closed. Every method holds it for reading while it uses db,
	// so Close (which takes it for writing) never pulls the file from
	// under a running transaction.
	mu     sync.RWMutex
	closed bool
	db     *bbolt.DB

	// broken is set when bbolt panicked or faulted on the file's
	// structure; from then on every call fails with it (see use).
	broken atomic.Pointer[error]

	// feed holds the revision this process has committed and the keys
	// written at each recent revision; see feed.go. wmu serialises entry
	// writes from their transaction to their record in feed; queue holds
	// the Puts and Deletes waiting for a group commit (commit.go), under
	// qmu.
	wmu     sync.Mutex
	feed    *store.ChangeLog
	history int // Options.History with the default applied
	qmu     sync.Mutex
	queue   []*request
}

var (
	_ store.Store         = (*Store)(nil)
	_ store.ChangeFeed    = (*Store)(nil)
	_ store.AckRevisioner = (*Store)(nil)
	_ store.VectorCache   = (*Store)(nil)
)

// Open opens the recall database at path, creating the file (mode 0600,
// since memories are personal) if it does not exist. The parent directory
// must exist.
//
// If another process has the file open, Open waits up to opts.Timeout and
// then fails with an error wrapping store.ErrLocked. A file that is not a
// recall database yields ErrNotDatabase, one from a newer recall
// ErrNewerFormat. A nil opts means the zero Options.
func Open(path string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.History == 0 {
		o.History = DefaultHistory
	}
	if err := verifyOnce(path); err != nil {
		return nil, fmt.Errorf("open %s: store file %s is %w: %v; restore it from a backup", path, path, store.ErrCorrupt, err)
	}
	var db *bbolt.DB
	err := guarded(func() error {
		var err error
		db, err = bbolt.Open(path, 0o600, &bbolt.Options{
			Timeout:      o.Timeout,
			NoSync:       o.NoSync,
			ReadOnly:     o.ReadOnly,
			FreelistType: bbolt.FreelistMapType,
		})
		return err
	})
	var pe *panicError
	switch {
	case errors.As(err, &pe):
		return nil, fmt.Errorf("open %s: store file %s is %w: bbolt failed reading it (%v); restore it from a backup", path, path, store.ErrCorrupt, pe.v)
	case errors.Is(err, berrors.ErrChecksum):
		return nil, fmt.Errorf("open %s: store file %s is %w: both of its meta pages fail their checksum (%v)", path, path, store.ErrCorrupt, err)
	case errors.Is(err, berrors.ErrTimeout):
		return nil, fmt.Errorf("open %s: %w (waited %v; another recall command or server is using it; wait or talk to that server)",
			path, store.ErrLocked, o.Timeout)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrVersionMismatch):
		return nil, fmt.Errorf("open %s: %w: the file is not a bbolt database (%v)", path, ErrNotDatabase, err)
	case err != nil:
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := guarded(func() error { return initialise(db) }); err != nil {
		_ = db.Close()
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("open %s: store file %s is %w: bbolt failed reading it (%v); restore it from a backup", path, path, store.ErrCorrupt, pe.v)
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	rev, err := fileRevision(db)
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return &Store{path: path, ident: identify(path), db: db, feed: store.NewChangeLog(rev, o.ChangeLogSize), history: o.History}, nil
}

// initialise checks the file's format, creates missing buckets and
// migrates a file of an older format. It only writes when something is
// missing or old, so opening an up-to-date file costs no fsync, and it
// never writes to a file it refuses.
func initialise(db *bbolt.DB) error {
	needWrite, migrate, from := false, false, uint64(0)
	err := db.View(func(tx *bbolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			var foreign []string
			_ = tx.ForEach(func(name []byte, _ *bbolt.Bucket) error {
				foreign = append(foreign, string(name))
				return nil
			})
			if len(foreign) > 0 {
				return fmt.Errorf("%w: it is a bbolt file with buckets %q but without recall's", ErrNotDatabase, foreign)
			}
			needWrite = true
			return nil
		}
		v, err := formatVersion(meta)
		if err != nil {
			return err
		}
		if v > FormatVersion {
			return fmt.Errorf("%w: format version %d, this recall reads up to %d; upgrade recall", ErrNewerFormat, v, FormatVersion)
		}
		if v < FormatVersion {
			needWrite, migrate, from = true, true, v
		}
		for _, name := range initBuckets {
			if tx.Bucket(name) == nil {
				needWrite = true
			}
		}
		return nil
	})
	if err != nil || !needWrite {
		return err
	}
	if db.IsReadOnly() {
		return fmt.Errorf("%w, but it needs an update first (an older format, or a missing bucket): open it once where it can be written", ErrReadOnly)
	}
	return db.Update(func(tx *bbolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		for _, name := range initBuckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		if migrate && from < 3 {
			if err := migrateValues(tx.Bucket(bucketEntries), from); err != nil {
				return fmt.Errorf("migrate from format version %d: %w", from, err)
			}
		}
		if meta.Get(keyFormat) == nil || migrate {
			if err := meta.Put(keyFormat, binary.AppendUvarint(nil, FormatVersion)); err != nil {
				return err
			}
		}
		return nil
	})
}

// Version 3 differs from 4 only by the change history bucket, created
// above with the others: it starts empty, so an index copy saved before
// the migration is brought up to date only if no write came after it.
//
// migrateValues rewrites the entry values of format version 1 (no
// checksum) or 2 (no event date) as the current version, inside the
// transaction that also records the new format version: after a crash the
// file is wholly old or wholly new. The fields are kept byte for byte
// (the current layout only adds an optional field); only the version byte
// changes and the CRC is added or recomputed. A value that does not
// decode as the old version is left as it is, and is reported as damaged
// when read, as any damaged value is. The revision does not move: no
// entry changed.
func migrateValues(entries *bbolt.Bucket, from uint64) error {
	type kv struct{ k, v []byte }
	var todo []kv
	c := entries.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		var fields []byte
		switch {
		case len(v) == 0:
			continue
		case from <= 1 && v[0] == valueVersionV1:
			if _, _, err := decodeValueV1(v); err != nil {
				continue
			}
			fields = v[1:]
		case v[0] == valueVersionV2:
			if _, _, err := decodeValueV2(k, v); err != nil {
				continue
			}
			fields = v[1 : len(v)-crcSize]
		default:
			continue
		}
		nv := make([]byte, 0, len(fields)+1+crcSize)
		nv = append(nv, valueVersion)
		nv = append(nv, fields...)
		nv = binary.LittleEndian.AppendUint32(nv, crc32.Update(crc32.Checksum(k, castagnoli), castagnoli, nv))
		todo = append(todo, kv{bytes.Clone(k), nv})
	}
	// Written after the walk: bbolt cursors do not survive writes.
	for _, e := range todo {
		if err := entries.Put(e.k, e.v); err != nil {
			return err
		}
	}
	return nil
}

func formatVersion(meta *bbolt.Bucket) (uint64, error) {
	raw := meta.Get(keyFormat)
	v, n := binary.Uvarint(raw)
	if n <= 0 || n != len(raw) || v == 0 {
		return 0, fmt.Errorf("%w: recall's meta bucket has no valid format version", ErrNotDatabase)
	}
	return v, nil
}

// Path returns the file name the store was opened with.
func (s *Store) Path() string { return s.path }

// use runs fn while holding the close guard, after checking that the store
// is open and ctx is live, and turns a panic or memory fault inside bbolt
// into an error (see guarded). op names the operation in errors.
func (s *Store) use(ctx context.Context, op string, fn func() error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return fmt.Errorf("%s %s: %w", op, s.path, store.ErrClosed)
	}
	if p := s.broken.Load(); p != nil {
		return fmt.Errorf("%s: %w", op, *p)
	}
	err := guarded(fn)
	if errors.Is(err, berrors.ErrDatabaseReadOnly) {
		return fmt.Errorf("%s: %w (%s is not writable here)", op, ErrReadOnly, s.path)
	}
	var pe *panicError
	if errors.As(err, &pe) {
		damage := fmt.Errorf("store file %s is %w: bbolt failed reading it (%v); restore it from a backup", s.path, store.ErrCorrupt, pe.v)
		s.broken.CompareAndSwap(nil, &damage)
		return fmt.Errorf("%s: %w", op, damage)
	}
	return err
}

// panicError is a panic, or a memory fault, that guarded recovered.
type panicError struct{ v any }

func (e *panicError) Error() string { return fmt.Sprintf("panic: %v", e.v) }

// updatePanic carries a panic of the function given to Update through
// guarded, which re-raises it: only bbolt's own panics mean damage.
type updatePanic struct{ v any }

// guarded runs fn with memory faults turned into panics
// (debug.SetPanicOnFault) and recovers any panic into a *panicError.
//
// bbolt reads the file through a memory map and trusts what it finds: a
// page damaged after Open's verification (verify.go) can make it index out
// of range, or touch memory past the end of the file, which without
// SetPanicOnFault kills the process with SIGBUS or SIGSEGV. bbolt's View
// and Update roll their transaction back while the panic unwinds.
func guarded(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if up, ok := r.(updatePanic); ok {
			panic(up.v)
		}
		err = &panicError{v: r}
	}()
	return fn()
}

// callUpdateFunc calls the function given to Update, marking a panic of
// its own so that guarded does not take it for damage.
func callUpdateFunc(fn func(store.Entry, bool) (store.Entry, error), old store.Entry, found bool) (store.Entry, error) {
	defer func() {
		if r := recover(); r != nil {
			panic(updatePanic{r})
		}
	}()
	return fn(old, found)
}

// Get returns the entry with the identity.
func (s *Store) Get(ctx context.Context, category, name string) (store.Entry, error) {
	category, name = store.NormalizeKey(category, name)
	op := "get " + store.Key{Category: category, Name: name}.String()
	if err := store.ValidateKey(category, name); err != nil {
		return store.Entry{}, fmt.Errorf("%s: %w", op, err)
	}
	e := store.Entry{Category: category, Name: name}
	err := s.use(ctx, op, func() error {
		return s.db.View(func(tx *bbolt.Tx) error {
			key := encodeKey(category, name)
			v := tx.Bucket(bucketEntries).Get(key)
			if v == nil {
				return fmt.Errorf("%s: %w", op, store.ErrNotFound)
			}
			var err error
			if e.Content, e.Meta, err = decodeValue(key, v); err != nil {
				return fmt.Errorf("%s: entry in %s: %w", op, s.path, err)
			}
			return nil
		})
	})
	if err != nil {
		return store.Entry{}, err
	}
	return e, nil
}

// Put validates e and inserts or replaces the entry with its identity. The
// write and the revision bump commit in one transaction. A zero
// Meta.Created keeps the creation time of the entry being replaced (or
// becomes now); a zero Meta.Updated becomes now.
func (s *Store) Put(ctx context.Context, e store.Entry) error {
	e = store.Normalize(e)
	op := "put " + e.Key().String()
	extra, err := prepare(op, e)
	if err != nil {
		return err
	}
	return s.use(ctx, op, func() error {
		return s.commit(ctx, func(tx *bbolt.Tx) error {
			return putTx(tx, op, e, extra)
		}, e.Key(), len(e.Content)+len(extra))
	})
}

// Update reads the entry, calls fn and writes its result, all inside one
// write transaction: bbolt admits one writer at a time, so nothing lands in
// between. It commits in a group with other writes, as Put does
// (commit.go), so fn may run on another caller's goroutine, and more than
// once (when another write of its group fails, the group runs again
// without it); a panic of fn fails this Update alone and is raised again
// on its caller's goroutine. fn runs while the transaction is open and
// must not call the store.
func (s *Store) Update(ctx context.Context, category, name string, fn func(old store.Entry, found bool) (store.Entry, error)) error {
	category, name = store.NormalizeKey(category, name)
	op := "update " + store.Key{Category: category, Name: name}.String()
	if err := store.ValidateKey(category, name); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	key := encodeKey(category, name)
	return s.use(ctx, op, func() error {
		var up *updatePanic
		err := s.commit(ctx, func(tx *bbolt.Tx) (err error) {
			defer func() {
				// fn's own panic fails this write alone (the group runs
				// again without it); bbolt's goes on to commitGroup.
				if r := recover(); r != nil {
					p, ok := r.(updatePanic)
					if !ok {
						panic(r)
					}
					up, err = &p, errUpdatePanic
				}
			}()
			old := store.Entry{Category: category, Name: name}
			v := tx.Bucket(bucketEntries).Get(key)
			found := v != nil
			if found {
				var err error
				if old.Content, old.Meta, err = decodeValue(key, v); err != nil {
					return fmt.Errorf("%s: entry in %s: %w", op, s.path, err)
				}
			}
			e, err := callUpdateFunc(fn, old, found)
			if errors.Is(err, store.ErrNoChange) {
				return nil // nothing written, the revision stays
			}
			if err != nil {
				return err
			}
			e = store.Normalize(e)
			if e.Category != category || e.Name != name {
				return fmt.Errorf("%s: %w: the update function returned %s, another identity", op, store.ErrInvalid, e.Key())
			}
			extra, err := prepare(op, e)
			if err != nil {
				return err
			}
			return putTx(tx, op, e, extra)
		}, store.Key{Category: category, Name: name}, updateSize)
		if up != nil {
			panic(*up) // guarded raises fn's panic on this goroutine
		}
		return err
	})
}

// updateSize is what an Update counts for in its group's bound: its entry
// is known only once its function has run, so it counts as the largest
// content an entry may hold.
const updateSize = store.MaxContentBytes

// errUpdatePanic fails, inside its group, an Update whose function
// panicked; its caller then raises the panic.
var errUpdatePanic = errors.New("the update function panicked")

// prepare validates e and encodes its extra metadata, before any
// transaction work.
func prepare(op string, e store.Entry) ([]byte, error) {
	if err := store.Validate(e); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	// Unrepresentable metadata fails here, before anything is written.
	extra, err := marshalExtra(e.Meta.Extra)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: metadata cannot be stored: %v", op, store.ErrInvalid, err)
	}
	return extra, nil
}

// putTx writes e in tx and bumps the revision: the one upsert rule of this
// backend (timestamps included), shared by Put, Update and PutBatch.
func putTx(tx *bbolt.Tx, op string, e store.Entry, extra []byte) error {
	entries := tx.Bucket(bucketEntries)
	key := encodeKey(e.Category, e.Name)
	m := e.Meta
	now := time.Now().UTC().Round(0)
	if m.Created.IsZero() {
		if old := entries.Get(key); old != nil {
			// A damaged old record only loses its creation time.
			m.Created, _ = decodeCreated(key, old)
		}
		if m.Created.IsZero() {
			m.Created = now
		}
	}
	if m.Updated.IsZero() {
		m.Updated = now
	}
	if err := entries.Put(key, appendValue(nil, key, e.Content, m, extra)); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return bump(tx)
}

// Delete removes the entry with the identity. A missing entry is
// ErrNotFound and leaves the revision alone.
func (s *Store) Delete(ctx context.Context, category, name string) error {
	category, name = store.NormalizeKey(category, name)
	op := "delete " + store.Key{Category: category, Name: name}.String()
	if err := store.ValidateKey(category, name); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	key := encodeKey(category, name)
	return s.use(ctx, op, func() error {
		return s.commit(ctx, func(tx *bbolt.Tx) error {
			entries := tx.Bucket(bucketEntries)
			if entries.Get(key) == nil {
				return fmt.Errorf("%s: %w", op, store.ErrNotFound)
			}
			if err := entries.Delete(key); err != nil {
				return fmt.Errorf("%s: %w", op, err)
			}
			return bump(tx)
		}, store.Key{Category: category, Name: name}, 0)
	})
}

// bump raises the revision inside the write transaction tx, so the write and
// its revision commit or vanish together.
func bump(tx *bbolt.Tx) error {
	if _, err := tx.Bucket(bucketMeta).NextSequence(); err != nil {
		return fmt.Errorf("bump revision: %w", err)
	}
	return nil
}

// Revision returns the revision stored in the file. It survives Close and
// reopening; it rises by one per successful Put or Delete. Only this
// process can have the file open, so it is read from memory, where each
// write sets it after it has committed, together with its change-feed
// record.
func (s *Store) Revision(ctx context.Context) (uint64, error) {
	var r uint64
	err := s.use(ctx, "revision", func() error {
		r = s.feed.Rev()
		return nil
	})
	return r, err
}

// ReadOnly reports whether the store was opened for reading only
// (Options.ReadOnly): every write
// fails, and the index and vector caches are not saved, so a caller need
// not make a copy to save.
func (s *Store) ReadOnly() bool { return s.db.IsReadOnly() }

// AckedRevision returns the revision p must reach to hold every write
// acknowledged so far but its own (store.AckRevisioner): Revision, less
// the newest writes p made with a store.CallerPublishes context.
func (s *Store) AckedRevision(ctx context.Context, p *store.Publisher) (uint64, error) {
	var r uint64
	err := s.use(ctx, "revision", func() error {
		r = s.feed.Acked(p)
		return nil
	})
	return r, err
}

// All yields every entry in key order (category, then name, bytewise).
//
// It reads chunkSize entries per read transaction and yields them after the
// transaction has ended, resuming past the last key read. So the loop body
// may write to the store, and a slow consumer never pins a transaction (a
// read transaction held open would block a write that needs to grow the
// memory map, which in the same goroutine is a deadlock). The price: it is
// not a snapshot; entries written during the loop may or may not appear.
//
// An entry whose record cannot be decoded is yielded as an error naming it
// and iteration goes on. Cancelling ctx or closing the store ends the
// iteration with that error.
func (s *Store) All(ctx context.Context) iter.Seq2[store.Entry, error] {
	return func(yield func(store.Entry, error) bool) {
		var (
			after []byte // last key read; nil before the first chunk
			batch = make([]item, 0, chunkSize)
		)
		for {
			batch = batch[:0]
			err := s.use(ctx, "all", func() error {
				return s.db.View(func(tx *bbolt.Tx) error {
					c := tx.Bucket(bucketEntries).Cursor()
					var k, v []byte
					if after == nil {
						k, v = c.First()
					} else if k, v = c.Seek(after); k != nil && bytes.Equal(k, after) {
						k, v = c.Next()
					}
					for ; k != nil && len(batch) < chunkSize; k, v = c.Next() {
						after = append(after[:0], k...)
						if v == nil {
							continue // a nested bucket: not ours
						}
						batch = append(batch, decodeItem(k, v))
					}
					if k == nil {
						after = nil // reached the end
					}
					return nil
				})
			})
			if err != nil {
				yield(store.Entry{}, err)
				return
			}
			for _, it := range batch {
				if err := ctx.Err(); err != nil {
					yield(store.Entry{}, fmt.Errorf("all: %w", err))
					return
				}
				if !yield(it.e, it.err) {
					return
				}
			}
			if after == nil {
				return
			}
		}
	}
}

// item is one element of an All sequence, decoded inside the transaction.
type item struct {
	e   store.Entry
	err error
}

func decodeItem(k, v []byte) (it item) {
	cat, name, err := decodeKey(k)
	if err != nil {
		it.err = fmt.Errorf("all: %w", err)
		return it
	}
	it.e.Category, it.e.Name = cat, name
	if it.e.Content, it.e.Meta, err = decodeValue(k, v); err != nil {
		it.err = fmt.Errorf("all: entry %s: %w", it.e.Key(), err)
	}
	return it
}

// Close releases the file and its lock. It waits for running calls to
// finish; later calls, and a second Close, fail with store.ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return fmt.Errorf("close %s: %w", s.path, store.ErrClosed)
	}
	s.closed = true
	defer s.feed.Close() // followers wake up and learn that it is closed
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close %s: %w", s.path, err)
	}
	return nil
}
