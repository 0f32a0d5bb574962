package postgres

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// SchemaVersion is the version of the table layout this package writes
// and reads. Open upgrades older schemas and refuses newer ones.
const SchemaVersion = 4

// migrations[i] brings a schema from version i to i+1. They run in one
// transaction under an advisory lock, so hosts opening the same database
// at once upgrade it once, and a failed upgrade leaves it as it was. In
// each text, {S} is the quoted schema and {CHAN} the notification channel
// as a string literal.
var migrations = []string{
	// 1: entries, and the revision bumped by the table's own triggers, so
	// that writes made with plain SQL count too.
	`CREATE SCHEMA IF NOT EXISTS {S};
CREATE TABLE {S}.schema_version (version integer NOT NULL);
INSERT INTO {S}.schema_version VALUES (0);
CREATE TABLE {S}.entries (
	category text COLLATE "C" NOT NULL,
	name     text COLLATE "C" NOT NULL,
	content  text NOT NULL,
	tags     text[] NOT NULL DEFAULT '{}',
	created  timestamptz NOT NULL DEFAULT now(),
	updated  timestamptz NOT NULL DEFAULT now(),
	extra    jsonb CHECK (extra IS NULL OR jsonb_typeof(extra) = 'object'),
	PRIMARY KEY (category, name)
);
CREATE TABLE {S}.state (
	id       boolean PRIMARY KEY DEFAULT true CHECK (id),
	revision bigint NOT NULL DEFAULT 0
);
INSERT INTO {S}.state DEFAULT VALUES;
CREATE FUNCTION {S}.bump_revision() RETURNS bigint LANGUAGE plpgsql AS $fn$
DECLARE r bigint;
BEGIN
	UPDATE {S}.state SET revision = revision + 1 RETURNING revision INTO r;
	RETURN r;
END
$fn$;
CREATE FUNCTION {S}.entries_written() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
	PERFORM {S}.bump_revision();
	RETURN NULL;
END
$fn$;
CREATE TRIGGER entries_written AFTER INSERT OR UPDATE OR DELETE ON {S}.entries
	FOR EACH STATEMENT EXECUTE FUNCTION {S}.entries_written();`,

	// 2: the change log and notifications. One AFTER … FOR EACH STATEMENT
	// trigger per kind of write reads the statement's transition table,
	// bumps the revision once, logs every identity written and notifies,
	// all in the writer's transaction. Changes before this version were
	// not logged: the floor starts at the current revision.
	`DROP TRIGGER entries_written ON {S}.entries;
DROP FUNCTION {S}.entries_written();
ALTER TABLE {S}.state ADD COLUMN floor bigint NOT NULL DEFAULT 0;
UPDATE {S}.state SET floor = revision;
CREATE TABLE {S}.changes (
	rev      bigint NOT NULL,
	category text COLLATE "C" NOT NULL,
	name     text COLLATE "C" NOT NULL,
	at       timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (rev, category, name)
);
CREATE INDEX changes_at ON {S}.changes (at);
CREATE OR REPLACE FUNCTION {S}.bump_revision() RETURNS bigint LANGUAGE plpgsql AS $fn$
DECLARE r bigint;
BEGIN
	UPDATE {S}.state SET revision = revision + 1 RETURNING revision INTO r;
	PERFORM pg_notify({CHAN}, r::text);
	RETURN r;
END
$fn$;
CREATE FUNCTION {S}.entries_inserted() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE r bigint;
BEGIN
	PERFORM 1 FROM new_rows LIMIT 1;
	IF NOT FOUND THEN RETURN NULL; END IF;
	r := {S}.bump_revision();
	INSERT INTO {S}.changes (rev, category, name) SELECT r, category, name FROM new_rows;
	RETURN NULL;
END
$fn$;
CREATE FUNCTION {S}.entries_updated() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE r bigint;
BEGIN
	PERFORM 1 FROM new_rows LIMIT 1;
	IF NOT FOUND THEN RETURN NULL; END IF;
	r := {S}.bump_revision();
	-- An UPDATE may change an identity: both the old and the new changed.
	INSERT INTO {S}.changes (rev, category, name)
		SELECT r, category, name FROM new_rows UNION SELECT r, category, name FROM old_rows;
	RETURN NULL;
END
$fn$;
CREATE FUNCTION {S}.entries_deleted() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE r bigint;
BEGIN
	PERFORM 1 FROM old_rows LIMIT 1;
	IF NOT FOUND THEN RETURN NULL; END IF;
	r := {S}.bump_revision();
	INSERT INTO {S}.changes (rev, category, name) SELECT r, category, name FROM old_rows;
	RETURN NULL;
END
$fn$;
-- TRUNCATE has no transition table: readers must rebuild.
CREATE FUNCTION {S}.entries_truncated() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE r bigint;
BEGIN
	r := {S}.bump_revision();
	UPDATE {S}.state SET floor = r;
	RETURN NULL;
END
$fn$;
CREATE TRIGGER entries_inserted AFTER INSERT ON {S}.entries
	REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION {S}.entries_inserted();
CREATE TRIGGER entries_updated AFTER UPDATE ON {S}.entries
	REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION {S}.entries_updated();
CREATE TRIGGER entries_deleted AFTER DELETE ON {S}.entries
	REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION {S}.entries_deleted();
CREATE TRIGGER entries_truncated AFTER TRUNCATE ON {S}.entries
	FOR EACH STATEMENT EXECUTE FUNCTION {S}.entries_truncated();
-- Trims the log to max_rows rows and max_age, whole revisions at a time,
-- and raises the floor below which Changes answers Reset.
CREATE FUNCTION {S}.trim_changes(max_age interval, max_rows bigint) RETURNS bigint LANGUAGE plpgsql AS $fn$
DECLARE cut bigint; by_rows bigint;
BEGIN
	SELECT max(rev) INTO cut FROM {S}.changes WHERE at < now() - max_age;
	SELECT rev INTO by_rows FROM {S}.changes ORDER BY rev DESC OFFSET max_rows LIMIT 1;
	cut := GREATEST(cut, by_rows);
	IF cut IS NULL THEN RETURN 0; END IF;
	DELETE FROM {S}.changes WHERE rev <= cut;
	UPDATE {S}.state SET floor = cut WHERE floor < cut;
	RETURN cut;
END
$fn$;`,

	// 3: the embedding vector cache. Vectors are stored uncompressed
	// (floats do not compress) and checked on read against dim and crc.
	`CREATE TABLE {S}.vectors (
	model text COLLATE "C" NOT NULL,
	key   text COLLATE "C" NOT NULL,
	dim   integer NOT NULL,
	vec   bytea NOT NULL,
	crc   bigint NOT NULL,
	PRIMARY KEY (model, key)
);
ALTER TABLE {S}.vectors ALTER COLUMN vec SET STORAGE EXTERNAL;`,

	// 4: the event date (store.Meta.Date), NULL when the entry has none;
	// existing rows have none. The index serves range scans by plain SQL.
	`ALTER TABLE {S}.entries ADD COLUMN date timestamptz;
CREATE INDEX entries_date ON {S}.entries (date) WHERE date IS NOT NULL;`,
}

// channel is the NOTIFY channel of a schema.
func channel(schema string) string { return "recall_changes:" + schema }

// queries holds every statement of the store, with the schema filled in.
type queries struct {
	schema, channel string
	versionTable    string // for to_regclass
	entriesTable    string

	get, getForUpdate, upsert, insertNew, delete, revision string
	exists, deleteUnnormalized, metas                      string
	allFirst, allAfter                                     string
	keysAll, keysCategory                                  string
	changes, trim, listen                                  string
	batchTemp, batchInsert                                 string
	vecLoadFirst, vecLoadAfter, vecPut, vecDelete, vecDrop string
}

func newQueries(schema string) queries {
	S := pgx.Identifier{schema}.Sanitize()
	r := strings.NewReplacer("{S}", S)
	cols := readCols
	values := "VALUES ($1, $2, $3, $4, COALESCE($5::timestamptz, now()), COALESCE($6::timestamptz, now()), $7, $8::timestamptz)"
	ins := "INSERT INTO {S}.entries AS e (category, name, content, tags, created, updated, extra, date) "
	return queries{
		schema:       schema,
		channel:      channel(schema),
		versionTable: S + ".schema_version",
		entriesTable: S + ".entries",

		get:          r.Replace("SELECT " + cols + " FROM {S}.entries WHERE category = $1 AND name = $2"),
		getForUpdate: r.Replace("SELECT " + cols + " FROM {S}.entries WHERE category = $1 AND name = $2 FOR UPDATE"),
		upsert: r.Replace(ins + values + ` ON CONFLICT (category, name) DO UPDATE SET
	content = EXCLUDED.content, tags = EXCLUDED.tags,
	created = COALESCE($5::timestamptz, e.created),
	updated = EXCLUDED.updated, extra = EXCLUDED.extra, date = EXCLUDED.date`),
		insertNew: r.Replace(ins + values + " ON CONFLICT (category, name) DO NOTHING"),
		delete:    r.Replace("DELETE FROM {S}.entries WHERE category = $1 AND name = $2"),
		exists:    r.Replace("SELECT 1 FROM {S}.entries WHERE category = $1 AND name = $2"),
		metas: r.Replace(`SELECT k.i, ` + metaCols + `
FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(category, name, i)
JOIN {S}.entries e ON e.category = k.category AND e.name = k.name`),
		deleteUnnormalized: r.Replace(`DELETE FROM {S}.entries
WHERE NOT (category IS NFC NORMALIZED AND name IS NFC NORMALIZED)
	AND normalize(category, NFC) = $1 AND normalize(name, NFC) = $2`),
		revision: r.Replace("SELECT revision FROM {S}.state"),
		allFirst: r.Replace("SELECT category, name, " + cols + " FROM {S}.entries ORDER BY category, name LIMIT $1"),
		allAfter: r.Replace("SELECT category, name, " + cols +
			" FROM {S}.entries WHERE (category, name) > ($1, $2) ORDER BY category, name LIMIT $3"),
		keysAll: r.Replace("SELECT category, name FROM {S}.entries" +
			" WHERE (category, name) > ($1, $2) ORDER BY category, name LIMIT $3"),
		keysCategory: r.Replace("SELECT category, name FROM {S}.entries" +
			" WHERE category = $1 AND name > $2 ORDER BY name LIMIT $3"),

		// One statement, so one snapshot: the revision, the floor and the
		// log agree. Keys come only when since is within [floor, revision).
		changes: r.Replace(`SELECT st.revision, st.floor, c.category, c.name
FROM {S}.state st
LEFT JOIN LATERAL (
	SELECT DISTINCT ch.category, ch.name FROM {S}.changes ch
	WHERE ch.rev > $1 AND ch.rev <= st.revision AND $1 >= st.floor AND $1 < st.revision
) c ON true`),
		trim:   r.Replace("SELECT {S}.trim_changes($1::interval, $2)"),
		listen: "LISTEN " + pgx.Identifier{channel(schema)}.Sanitize(),

		batchTemp: `CREATE TEMP TABLE recall_batch (
	category text COLLATE "C", name text COLLATE "C", content text, tags text[],
	created timestamptz, updated timestamptz, extra jsonb, date timestamptz
) ON COMMIT DROP`,
		// A zero Created keeps the stored one, read in the same statement.
		batchInsert: r.Replace(ins + `
SELECT b.category, b.name, b.content, b.tags, COALESCE(b.created, old.created, now()), COALESCE(b.updated, now()), b.extra, b.date
FROM recall_batch b LEFT JOIN {S}.entries old ON old.category = b.category AND old.name = b.name
ORDER BY b.category, b.name
ON CONFLICT (category, name) DO UPDATE SET
	content = EXCLUDED.content, tags = EXCLUDED.tags, created = EXCLUDED.created,
	updated = EXCLUDED.updated, extra = EXCLUDED.extra, date = EXCLUDED.date`),

		vecLoadFirst: r.Replace("SELECT key, dim, vec, crc, xmin::text FROM {S}.vectors WHERE model = $1 ORDER BY key LIMIT $2"),
		vecLoadAfter: r.Replace("SELECT key, dim, vec, crc, xmin::text FROM {S}.vectors WHERE model = $1 AND key > $2 ORDER BY key LIMIT $3"),
		vecPut: r.Replace(`INSERT INTO {S}.vectors (model, key, dim, vec, crc)
SELECT $1, k, d, v, c FROM unnest($2::text[], $3::integer[], $4::bytea[], $5::bigint[]) AS t(k, d, v, c)
ORDER BY k
ON CONFLICT (model, key) DO UPDATE SET dim = EXCLUDED.dim, vec = EXCLUDED.vec, crc = EXCLUDED.crc`),
		vecDelete: r.Replace("DELETE FROM {S}.vectors WHERE model = $1 AND key = ANY($2::text[])"),
		// Drops damaged rows unless a PutVectors replaced them since (a
		// new row version has a new xmin).
		vecDrop: r.Replace(`DELETE FROM {S}.vectors v USING unnest($2::text[], $3::text[]) AS bad(k, x)
WHERE v.model = $1 AND v.key = bad.k AND v.xmin::text = bad.x`),
	}
}

// lockKey is the advisory lock that serialises migrations of a schema.
func lockKey(schema string) int64 {
	h := fnv.New64a()
	h.Write([]byte("recall.migrate:" + schema))
	return int64(h.Sum64())
}

// querier is what migrate needs of a pool or a connection.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// schemaVersion returns the version of the schema, or 0 when it holds no
// recall tables.
func schemaVersion(ctx context.Context, db querier, q queries) (int, error) {
	var hasVersion, hasEntries bool
	err := db.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL, to_regclass($2) IS NOT NULL",
		q.versionTable, q.entriesTable).Scan(&hasVersion, &hasEntries)
	if err != nil {
		return 0, err
	}
	if !hasVersion {
		if hasEntries {
			return 0, fmt.Errorf("%w: schema %s has a table named entries but no recall version table; choose another schema", ErrForeignSchema, q.schema)
		}
		return 0, nil
	}
	var v int
	if err := db.QueryRow(ctx, "SELECT version FROM "+q.versionTable).Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

// migrate brings the schema to SchemaVersion. An up-to-date schema costs
// one query and no lock, and needs no privilege beyond reading it.
func migrate(ctx context.Context, pool *pgxpool.Pool, q queries, noCreate bool) error {
	v, err := schemaVersion(ctx, pool, q)
	if err != nil {
		return err
	}
	switch {
	case v == SchemaVersion:
		return nil
	case v > SchemaVersion:
		return fmt.Errorf("%w: schema %s is at version %d, this recall knows up to %d; upgrade recall", ErrNewerSchema, q.schema, v, SchemaVersion)
	case v == 0 && noCreate:
		return fmt.Errorf("%w: %s", ErrNoSchema, q.schema)
	}
	return migrateTo(ctx, pool, q, SchemaVersion)
}

// migrateTo applies the migrations up to version target in one
// transaction. Tests use it to build older schemas.
//
// The advisory lock is a session lock taken before the transaction
// begins: a transaction that began before another host's upgrade
// committed could otherwise keep seeing the catalog as it was (cached
// lookups are refreshed when a transaction starts).
func migrateTo(ctx context.Context, pool *pgxpool.Pool, q queries, target int) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", lockKey(q.schema)); err != nil {
		return err
	}
	defer func() {
		// A connection that cannot unlock is broken: closing it releases
		// the lock on the server.
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if _, err := conn.Exec(uctx, "SELECT pg_advisory_unlock($1)", lockKey(q.schema)); err != nil {
			_ = conn.Conn().Close(uctx)
		}
	}()
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		// Another host may have upgraded it while we waited for the lock.
		v, err := schemaVersion(ctx, tx, q)
		if err != nil {
			return err
		}
		if v > SchemaVersion {
			return fmt.Errorf("%w: schema %s is at version %d, this recall knows up to %d; upgrade recall", ErrNewerSchema, q.schema, v, SchemaVersion)
		}
		r := strings.NewReplacer("{S}", pgx.Identifier{q.schema}.Sanitize(), "{CHAN}", quoteLiteral(q.channel))
		for ; v < target; v++ {
			if _, err := tx.Exec(ctx, r.Replace(migrations[v])); err != nil {
				return fmt.Errorf("upgrade schema %s to version %d: %w", q.schema, v+1, err)
			}
			if _, err := tx.Exec(ctx, "UPDATE "+q.versionTable+" SET version = $1", v+1); err != nil {
				return fmt.Errorf("upgrade schema %s to version %d: %w", q.schema, v+1, err)
			}
		}
		return nil
	})
}

// quoteLiteral quotes s as an SQL string literal (s holds no NUL: it is a
// schema name that Options.Validate accepted, with a prefix).
func quoteLiteral(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
