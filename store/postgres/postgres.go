package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/recallhq/recall/store"
)

// Errors of Open besides connection failures. Callers test them with
// errors.Is.
var (
	// ErrNoSchema is returned by Open with Options.NoCreate when the
	// database holds no recall schema of that name.
	ErrNoSchema = errors.New("no recall schema in the database")
	// ErrNewerSchema is returned by Open for a schema written by a newer
	// recall, whose layout this one cannot use safely.
	ErrNewerSchema = errors.New("database schema is newer than this recall supports")
	// ErrForeignSchema is returned by Open when the schema holds a table
	// named like one of recall's but no recall version table: another
	// program's data, which recall will not touch.
	ErrForeignSchema = errors.New("schema holds tables that are not recall's")
	// ErrUnavailable is wrapped by every error caused by the database being
	// out of reach (connection refused or lost, server shutting down).
	// Such calls fail at once rather than wait; the pool reconnects by
	// itself once the server answers again.
	// It is store.ErrUnavailable itself, so callers that know only the
	// store package (the engine, the servers) recognise it.
	ErrUnavailable = store.ErrUnavailable
)

// Defaults of Options.
const (
	DefaultSchema           = "recall"
	DefaultTimeout          = 10 * time.Second
	DefaultConnectTimeout   = 5 * time.Second
	DefaultChangeLogMaxAge  = 7 * 24 * time.Hour
	DefaultChangeLogMaxRows = 1_000_000
	DefaultTrimInterval     = time.Minute
)

// Options configures Open. The zero value is ready to use.
type Options struct {
	// Schema is the PostgreSQL schema that holds recall's tables, created
	// by Open when missing. Empty means the connection URL's "schema"
	// query parameter, else DefaultSchema. Several memories can share a
	// database under different schemas. Lower-case letters, digits and
	// '_', starting with a letter or '_', at most 48 bytes.
	Schema string

	// Timeout bounds each call (one round trip or one transaction) when
	// the caller's context has no earlier deadline. Zero means
	// DefaultTimeout. PutBatch gets Timeout per 1,000 entries.
	Timeout time.Duration

	// ConnectTimeout bounds each attempt to open a connection when the
	// connection string sets no connect_timeout. Zero means
	// DefaultConnectTimeout.
	ConnectTimeout time.Duration

	// MaxConns caps the connection pool; zero means pgxpool's default (the
	// greater of 4 and the number of CPUs). The change feed's LISTEN
	// connection is not counted.
	MaxConns int32

	// ChangeLogMaxAge and ChangeLogMaxRows bound the change log that
	// Changes reads: rows older than the age, and the oldest rows beyond
	// the count, are trimmed (whole revisions at a time). A reader that
	// falls further behind gets a Reset. Zero means the defaults (a week,
	// a million rows).
	ChangeLogMaxAge  time.Duration
	ChangeLogMaxRows int64

	// TrimInterval is how often a store whose feed is subscribed, or that
	// has written, trims the change log. Zero means DefaultTrimInterval.
	TrimInterval time.Duration

	// NoCreate makes Open fail with ErrNoSchema instead of creating a
	// missing schema (for commands that only read).
	NoCreate bool
}

var schemaRE = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,47}$`)

// Validate reports whether the options are usable.
func (o Options) Validate() error {
	if o.Schema != "" && !schemaRE.MatchString(o.Schema) {
		return fmt.Errorf("postgres options: schema %q: use lower-case letters, digits and '_', starting with a letter or '_', at most 48 bytes", o.Schema)
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"timeout", o.Timeout}, {"connect timeout", o.ConnectTimeout}, {"change log max age", o.ChangeLogMaxAge}, {"trim interval", o.TrimInterval}} {
		if d.v < 0 {
			return fmt.Errorf("postgres options: negative %s %v", d.name, d.v)
		}
	}
	if o.MaxConns < 0 || o.ChangeLogMaxRows < 0 {
		return errors.New("postgres options: negative MaxConns or ChangeLogMaxRows")
	}
	return nil
}

func (o *Options) setDefaults() {
	if o.Schema == "" {
		o.Schema = DefaultSchema
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.ConnectTimeout == 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.ChangeLogMaxAge == 0 {
		o.ChangeLogMaxAge = DefaultChangeLogMaxAge
	}
	if o.ChangeLogMaxRows == 0 {
		o.ChangeLogMaxRows = DefaultChangeLogMaxRows
	}
	if o.TrimInterval == 0 {
		o.TrimInterval = DefaultTrimInterval
	}
}

// Store is a store.Store kept in a PostgreSQL database, shared by every
// process and host that opens the same database and schema. It is safe for
// concurrent use by multiple goroutines.
type Store struct {
	opts    Options
	where   string // the redacted URL and schema, for errors
	pool    *pgxpool.Pool
	connCfg *pgx.ConnConfig // for the LISTEN connection
	q       queries

	// mu guards closed. Every method holds it for reading while it uses
	// the pool, so Close never closes the pool under a running call.
	mu     sync.RWMutex
	closed bool

	// bg is cancelled by Close; it ends the listener and the trimmer.
	bg        context.Context
	stopBG    context.CancelFunc
	bgWG      sync.WaitGroup
	feed      feed
	idleCheck time.Duration // see feed.go
	wrote     atomic.Bool   // a write since the last trim
	trimOnce  sync.Once
}

// Compile-time checks of the capabilities the store offers.
var (
	_ store.Store       = (*Store)(nil)
	_ store.Batcher     = (*Store)(nil)
	_ store.ChangeFeed  = (*Store)(nil)
	_ store.VectorCache = (*Store)(nil)
)

// Open connects to the database connString names, a URL
// (postgres://user:password@host:port/dbname?sslmode=…) or a libpq
// keyword/value string ("host=… dbname=…"). What it leaves out comes from
// the PG* environment variables (PGHOST, PGUSER, PGPASSWORD, …) and
// ~/.pgpass, as in psql. A URL may carry schema=NAME, which recall takes
// out before connecting (Options.Schema wins over it).
//
// Open checks that the server answers (a wrong host or password fails
// here, in one line), then creates or upgrades recall's schema when needed
// (see the package documentation). ctx bounds all of that.
func Open(ctx context.Context, connString string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	connString, urlSchema, err := takeSchemaParam(connString)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	if o.Schema == "" {
		o.Schema = urlSchema
	}
	where := Redact(connString)
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("open %s: %w", where, err)
	}
	o.setDefaults()
	where += " (schema " + o.Schema + ")"

	cfg, err := pgxpool.ParseConfig(connString)
	if err != nil {
		// pgx quotes the connection string in some parse errors; never
		// show a password.
		return nil, fmt.Errorf("open %s: invalid connection string: %s", where, redactIn(oneLine(err), connString))
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = o.ConnectTimeout
	}
	if o.MaxConns > 0 {
		cfg.MaxConns = o.MaxConns
	}
	cfg.ConnConfig.RuntimeParams["application_name"] = appName(cfg.ConnConfig.RuntimeParams["application_name"])
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open %s: %s", where, oneLine(err))
	}
	s := &Store{
		opts:    o,
		where:   where,
		pool:    pool,
		connCfg: cfg.ConnConfig.Copy(),
		q:       newQueries(o.Schema),

		idleCheck: idleCheck,
	}
	s.bg, s.stopBG = context.WithCancel(context.Background())
	s.feed.subs = map[chan struct{}]struct{}{}

	cctx, cancel := s.deadline(ctx)
	defer cancel()
	if err := pool.Ping(cctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open %s: %w", where, connectError(err))
	}
	if err := migrate(cctx, pool, s.q, o.NoCreate); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open %s: %w", where, s.wrapErr(err))
	}
	return s, nil
}

func appName(given string) string {
	if given != "" {
		return given
	}
	return "recall"
}

// takeSchemaParam removes the query parameter "schema" from a URL
// connection string and returns its value.
func takeSchemaParam(connString string) (string, string, error) {
	if !isURL(connString) {
		return connString, "", nil
	}
	u, err := url.Parse(connString)
	if err != nil {
		return "", "", fmt.Errorf("invalid URL %s: %v", Redact(connString), redactIn(err.Error(), connString))
	}
	q := u.Query()
	if !q.Has("schema") {
		return connString, "", nil
	}
	schema := q.Get("schema")
	q.Del("schema")
	u.RawQuery = q.Encode()
	return u.String(), schema, nil
}

// IsURL reports whether s is a PostgreSQL connection URL (postgres:// or
// postgresql://, any case), the form --store accepts.
func IsURL(s string) bool { return isURL(s) }

func isURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// secretParams are the URL query parameters that hold a secret (pgx
// reads a password from ?password= as well as from the user info).
var secretParams = []string{"password", "sslpassword"}

// Redact returns connString with its password replaced by "xxxxx", for
// messages: the URL's user info and its password and sslpassword query
// parameters. A keyword/value string is reduced to its host, port, user
// and dbname.
func Redact(connString string) string {
	if isURL(connString) {
		u, err := url.Parse(connString)
		if err != nil {
			return "postgres://…"
		}
		if q := u.Query(); slices.ContainsFunc(secretParams, q.Has) {
			for _, k := range secretParams {
				if q.Has(k) {
					q.Set(k, "xxxxx")
				}
			}
			u.RawQuery = q.Encode()
		}
		return u.Redacted()
	}
	var kept []string
	for _, f := range strings.Fields(connString) {
		k, _, _ := strings.Cut(f, "=")
		switch k {
		case "host", "port", "user", "dbname":
			kept = append(kept, f)
		}
	}
	if len(kept) == 0 {
		return "postgres (from the PG* environment)"
	}
	return strings.Join(kept, " ")
}

// redactIn removes the password of connString from msg.
func redactIn(msg, connString string) string {
	if isURL(connString) {
		u, err := url.Parse(connString)
		if err != nil {
			return msg
		}
		if u.User != nil {
			if p, ok := u.User.Password(); ok && p != "" {
				msg = strings.ReplaceAll(msg, p, "xxxxx")
			}
		}
		q := u.Query()
		for _, k := range secretParams {
			if p := q.Get(k); p != "" {
				msg = strings.ReplaceAll(msg, p, "xxxxx")
			}
		}
		return msg
	}
	for _, f := range strings.Fields(connString) {
		if v, ok := strings.CutPrefix(f, "password="); ok && v != "" {
			msg = strings.ReplaceAll(msg, v, "xxxxx")
		}
	}
	return msg
}

// Schema returns the schema the store uses.
func (s *Store) Schema() string { return s.opts.Schema }

// deadline bounds ctx by Options.Timeout.
func (s *Store) deadline(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.opts.Timeout)
}

// use runs fn with a bounded context while holding the close guard, after
// checking that the store is open and ctx is live. op names the operation
// in errors; fn's errors are wrapped with it (classified by wrapErr),
// except errors of the caller's own making (see errPassThrough).
func (s *Store) use(ctx context.Context, op string, fn func(ctx context.Context) error) error {
	return s.useFor(ctx, op, s.opts.Timeout, fn)
}

// useFor is use with another deadline than Options.Timeout.
func (s *Store) useFor(ctx context.Context, op string, timeout time.Duration, fn func(ctx context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return fmt.Errorf("%s: %w", op, store.ErrClosed)
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := retry(cctx, func() error { return fn(cctx) })
	var pass errPassThrough
	switch {
	case err == nil:
		return nil
	case errors.As(err, &pass):
		return pass.err
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrInvalid):
		return fmt.Errorf("%s: %w", op, err)
	default:
		return fmt.Errorf("%s: %w", op, s.wrapErr(err))
	}
}

// errPassThrough carries an error that use returns unchanged (the error of
// an Update's function, a LoadVectors callback's).
type errPassThrough struct{ err error }

func (e errPassThrough) Error() string { return e.err.Error() }

// Get returns the entry with the identity. An identity recall would not
// write (not in NFC, or breaking the naming rules) is looked up as given
// first: a row stored so (written with SQL) is the unreadable entry All
// reports, and Get of the key the change feed names says so too. Else
// the NFC form is looked up, and an invalid identity is an error.
func (s *Store) Get(ctx context.Context, category, name string) (store.Entry, error) {
	rawCat, rawName := category, name
	category, name = store.NormalizeKey(category, name) // SPEC §1: identities are NFC
	op := "get " + store.Key{Category: category, Name: name}.String()
	invalid := store.ValidateKey(category, name)
	probe := (rawCat != category || rawName != name || invalid != nil) && storable(rawCat) && storable(rawName)
	if invalid != nil && !probe {
		return store.Entry{}, fmt.Errorf("%s: %w", op, invalid)
	}
	var e store.Entry
	err := s.use(ctx, op, func(ctx context.Context) error {
		if probe {
			var one int
			err := s.pool.QueryRow(ctx, s.q.exists, rawCat, rawName).Scan(&one)
			if err == nil {
				return errPassThrough{checkStoredKey(rawCat, rawName)}
			}
			if !errors.Is(err, pgx.ErrNoRows) {
				return err
			}
			if invalid != nil {
				return errPassThrough{fmt.Errorf("%s: %w", op, invalid)}
			}
		}
		r, found, err := scanRow(s.pool.QueryRow(ctx, s.q.get, category, name))
		if err != nil {
			return err
		}
		if !found {
			return store.ErrNotFound
		}
		e, err = r.entry(category, name)
		return err
	})
	if err != nil {
		return store.Entry{}, err
	}
	return e, nil
}

// storable reports whether a PostgreSQL text column can hold s (and so
// whether looking it up can find anything).
func storable(s string) bool { return s != "" && utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

// Put validates e and inserts or replaces the entry with its identity, in
// one statement; the table's triggers bump the revision, log the change
// and notify listeners in the same transaction. A zero Meta.Created keeps
// the creation time of the entry being replaced (or becomes the
// database's now); a zero Meta.Updated becomes the database's now.
func (s *Store) Put(ctx context.Context, e store.Entry) error {
	e = store.Normalize(e)
	op := "put " + e.Key().String()
	args, err := prepare(op, e)
	if err != nil {
		return err
	}
	err = s.use(ctx, op, func(ctx context.Context) error {
		_, err := s.pool.Exec(ctx, s.q.upsert, args...)
		return err
	})
	if err == nil {
		s.wroteLocally()
	}
	return err
}

// errConflict makes Update try again: another writer created the entry
// between Update's read (which found nothing) and its insert.
var errConflict = errors.New("entry created concurrently")

// maxUpdateAttempts bounds Update's retries after errConflict.
const maxUpdateAttempts = 20

// Update reads the entry with SELECT … FOR UPDATE inside a transaction,
// calls fn and writes its result in the same transaction. An existing
// entry stays locked until the commit, so every other writer of that
// identity, on any host (psql included), waits. When the entry does not
// exist there is no row to lock: the result is then inserted with ON
// CONFLICT DO NOTHING, and if another writer created the entry meanwhile,
// the transaction is rolled back and Update starts again (calling fn
// again with the entry that now exists). fn runs while the transaction is
// open and must not call the store.
func (s *Store) Update(ctx context.Context, category, name string, fn func(old store.Entry, found bool) (store.Entry, error)) error {
	category, name = store.NormalizeKey(category, name) // SPEC §1: identities are NFC
	op := "update " + store.Key{Category: category, Name: name}.String()
	if err := store.ValidateKey(category, name); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	wrote := false
	err := s.use(ctx, op, func(ctx context.Context) error {
		for attempt := 1; ; attempt++ {
			err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
				r, found, err := scanRow(tx.QueryRow(ctx, s.q.getForUpdate, category, name))
				if err != nil {
					return err
				}
				old := store.Entry{Category: category, Name: name}
				if found {
					if old, err = r.entry(category, name); err != nil {
						return err
					}
				}
				e, err := fn(old, found)
				if err != nil {
					return errPassThrough{err}
				}
				e = store.Normalize(e)
				if e.Category != category || e.Name != name {
					return fmt.Errorf("%w: the update function returned %s, another identity", store.ErrInvalid, e.Key())
				}
				args, err := prepare("", e)
				if err != nil {
					return err
				}
				if found {
					_, err = tx.Exec(ctx, s.q.upsert, args...)
					return err
				}
				tag, err := tx.Exec(ctx, s.q.insertNew, args...)
				if err == nil && tag.RowsAffected() == 0 {
					err = errConflict
				}
				return err
			})
			if errors.Is(err, errConflict) && attempt < maxUpdateAttempts {
				continue
			}
			if err == nil {
				wrote = true
			}
			return err
		}
	})
	if errors.Is(err, store.ErrNoChange) {
		return nil
	}
	if wrote {
		s.wroteLocally()
	}
	return err
}

// prepare validates e and returns the arguments of the upsert and
// insertNew statements. op prefixes errors when not empty.
func prepare(op string, e store.Entry) ([]any, error) {
	wrap := func(err error) error {
		if op == "" {
			return err
		}
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := store.Validate(e); err != nil {
		return nil, wrap(err)
	}
	// PostgreSQL's text and jsonb cannot hold NUL: refuse rather than fail
	// half way or mangle.
	if i := strings.IndexByte(e.Content, 0); i >= 0 {
		return nil, wrap(&store.FieldError{Field: "content", Reason: fmt.Sprintf("holds a NUL byte at offset %d, which PostgreSQL text cannot store", i)})
	}
	tags := e.Meta.Tags
	if tags == nil {
		tags = []string{}
	}
	// store.Validate refused tags with NUL (a control character) or
	// invalid UTF-8.
	var extra []byte
	if len(e.Meta.Extra) > 0 {
		var err error
		if extra, err = json.Marshal(e.Meta.Extra); err != nil {
			return nil, wrap(fmt.Errorf("%w: metadata cannot be stored: %v", store.ErrInvalid, err))
		}
		if strings.Contains(string(extra), `\u0000`) {
			return nil, wrap(fmt.Errorf("%w: metadata cannot be stored: it holds a NUL character, which PostgreSQL jsonb cannot store", store.ErrInvalid))
		}
	}
	if n := metaJSONBytes(tags) + len(extra); n > store.MaxMetaBytes {
		return nil, wrap(&store.FieldError{Field: "meta", Value: "tags and extra",
			Reason: fmt.Sprintf("are %d bytes of JSON, the limit is %d", n, store.MaxMetaBytes)})
	}
	return []any{e.Category, e.Name, e.Content, tags, optTime(e.Meta.Created), optTime(e.Meta.Updated), extra, optTime(e.Meta.Date)}, nil
}

// metaJSONBytes is the length of tags as a JSON list, without building it.
func metaJSONBytes(tags []string) int {
	n := 2 + max(len(tags)-1, 0) // [ ] and the commas
	for _, t := range tags {
		n += len(t) + 2 // quotes; escapes ignored (the bound is 4x on read)
	}
	return n
}

// optTime maps the zero time to NULL (the database then stamps now).
// PostgreSQL keeps microseconds; the rest is rounded off here.
func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC().Round(time.Microsecond)
	return &t
}

// Delete removes the entry with the identity. A missing entry is
// ErrNotFound and leaves the revision alone. Rows whose identity is not
// in NFC (written with SQL; All reports them) are removed by their name
// in either form: as given, then, when the NFC form matches no row, every
// row whose identity normalises to it (a scan of the table, paid only by
// a Delete that finds nothing else).
func (s *Store) Delete(ctx context.Context, category, name string) error {
	rawCat, rawName := category, name
	category, name = store.NormalizeKey(category, name) // SPEC §1: identities are NFC
	op := "delete " + store.Key{Category: category, Name: name}.String()
	if err := store.ValidateKey(category, name); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	err := s.use(ctx, op, func(ctx context.Context) error {
		if rawCat != category || rawName != name {
			tag, err := s.pool.Exec(ctx, s.q.delete, rawCat, rawName)
			if err != nil || tag.RowsAffected() > 0 {
				return err
			}
		}
		tag, err := s.pool.Exec(ctx, s.q.delete, category, name)
		if err != nil || tag.RowsAffected() > 0 {
			return err
		}
		tag, err = s.pool.Exec(ctx, s.q.deleteUnnormalized, category, name)
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "22021" {
			// Not a UTF-8 database: no normalisation to match with.
			err = nil
		}
		if err == nil && tag.RowsAffected() == 0 {
			return store.ErrNotFound
		}
		return err
	})
	if err == nil {
		s.wroteLocally()
	}
	return err
}

// Revision returns the revision: one single-row read.
func (s *Store) Revision(ctx context.Context) (uint64, error) {
	var r int64
	err := s.use(ctx, "revision", func(ctx context.Context) error {
		return s.pool.QueryRow(ctx, s.q.revision).Scan(&r)
	})
	return uint64(r), err
}

// chunkSize is how many entries All reads per query.
const chunkSize = 256

// All yields every entry in key order (category, then name, bytewise),
// reading chunkSize entries per query and resuming after the last key
// read, so no transaction stays open while the loop body runs (it may
// write to the store) and each query has its own deadline. It is not a
// snapshot: entries written during the loop may or may not appear.
//
// A row whose identity breaks today's naming rules, or whose metadata
// cannot be decoded (both only possible through SQL written behind
// recall's back), is yielded as an error naming it, and iteration goes on.
func (s *Store) All(ctx context.Context) iter.Seq2[store.Entry, error] {
	return func(yield func(store.Entry, error) bool) {
		walkChunks(ctx, yield, func(first bool, afterCat, afterName string, batch []item) ([]item, error) {
			err := s.use(ctx, "all", func(ctx context.Context) error {
				var err error
				batch, err = s.readChunk(ctx, s.pool, first, afterCat, afterName, batch[:0])
				return err
			})
			return batch, err
		})
	}
}

// rowsQuerier is what readChunk reads with: the pool (All) or one
// transaction (AllSorted).
type rowsQuerier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// readChunk appends to batch the next chunkSize rows in key order: the
// first ones, or those after (afterCat, afterName).
func (s *Store) readChunk(ctx context.Context, q rowsQuerier, first bool, afterCat, afterName string, batch []item) ([]item, error) {
	var rows pgx.Rows
	var err error
	if first {
		rows, err = q.Query(ctx, s.q.allFirst, chunkSize)
	} else {
		rows, err = q.Query(ctx, s.q.allAfter, afterCat, afterName, chunkSize)
	}
	if err != nil {
		return batch, err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			cat, name string
			r         row
		)
		if err := rows.Scan(append([]any{&cat, &name}, r.dest()...)...); err != nil {
			return batch, err
		}
		batch = append(batch, decodeItem(cat, name, r))
	}
	return batch, rows.Err()
}

// walkChunks yields the items fetch reads, chunk after chunk, each
// resuming after the last key of the one before, until a chunk is short;
// an error of fetch is the last item.
func walkChunks(ctx context.Context, yield func(store.Entry, error) bool, fetch func(first bool, afterCat, afterName string, batch []item) ([]item, error)) {
	var (
		afterCat, afterName string
		first               = true
		batch               = make([]item, 0, chunkSize)
	)
	for {
		var err error
		batch, err = fetch(first, afterCat, afterName, batch[:0])
		if err != nil {
			yield(store.Entry{}, err)
			return
		}
		if len(batch) > 0 {
			first = false
			last := batch[len(batch)-1]
			afterCat, afterName = last.cat, last.name
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
		if len(batch) < chunkSize {
			return
		}
	}
}

// item is one element of an All sequence.
type item struct {
	cat, name string
	e         store.Entry
	err       error
}

func decodeItem(cat, name string, r row) item {
	it := item{cat: cat, name: name}
	k := store.Key{Category: cat, Name: name}
	if err := checkStoredKey(cat, name); err != nil {
		it.err = rowError{k, fmt.Errorf("all: %w", err)}
		return it
	}
	e, err := r.entry(cat, name)
	if err != nil {
		it.err = rowError{k, fmt.Errorf("all: entry %s: %w", k, err)}
		return it
	}
	it.e = e
	return it
}

// Close stops the change feed's listener and the trimmer and closes the
// pool. It waits for running calls to finish; later calls, and a second
// Close, fail with store.ErrClosed.
func (s *Store) Close() error {
	// Cancel the background work first, so that a trim in flight does not
	// hold up the lock below.
	s.stopBG()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return fmt.Errorf("close %s: %w", s.where, store.ErrClosed)
	}
	s.closed = true
	s.mu.Unlock()
	s.bgWG.Wait()
	s.pool.Close()
	return nil
}
