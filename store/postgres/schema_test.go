package postgres

import (
	"errors"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/recallhq/recall/store"
)

func schemaVersionOf(t *testing.T, admin *pgxpool.Pool, schema string) int {
	t.Helper()
	var v int
	if err := admin.QueryRow(ctx, "SELECT version FROM "+pgx.Identifier{schema, "schema_version"}.Sanitize()).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// A schema of version 1 (entries and revision, no change log, no vectors)
// with rows written by plain SQL is upgraded on Open: rows and revision
// kept, history before the upgrade reported as lost, later writes logged.
func TestUpgradeFromVersion1(t *testing.T) {
	schema := newSchema(t)
	admin := adminPool(t)
	q := newQueries(schema)
	if err := migrateTo(ctx, admin, q, 1); err != nil {
		t.Fatal(err)
	}
	tbl := pgx.Identifier{schema, "entries"}.Sanitize()
	if _, err := admin.Exec(ctx, "INSERT INTO "+tbl+` (category, name, content, tags, extra) VALUES
		('people', 'alice', 'Alice likes the sea.', '{friend}', '{"mood": "sunny"}'),
		('people', 'bob', 'Bob', '{}', NULL)`); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, "UPDATE "+tbl+" SET content = 'Bob likes hills.' WHERE name = 'bob'"); err != nil {
		t.Fatal(err)
	}
	if v := schemaVersionOf(t, admin, schema); v != 1 {
		t.Fatalf("built version %d, want 1", v)
	}

	s := openSchema(t, schema, nil)
	if v := schemaVersionOf(t, admin, schema); v != SchemaVersion {
		t.Fatalf("version after Open = %d, want %d", v, SchemaVersion)
	}
	r := revision(t, s)
	if r != 2 {
		t.Fatalf("revision after upgrade = %d, want the 2 writes made under version 1", r)
	}
	e, err := s.Get(ctx, "people", "alice")
	if err != nil || e.Content != "Alice likes the sea." || e.Meta.Tags[0] != "friend" || e.Meta.Extra["mood"] != "sunny" {
		t.Fatalf("alice after upgrade: %+v, %v", e, err)
	}
	if cs := changes(t, s, 0); !cs.Reset {
		t.Fatalf("changes from before the upgrade = %+v, want Reset (they were never logged)", cs)
	}
	mustPut(t, s, "people", "carol", "Carol")
	if cs := changes(t, s, r); cs.Reset || !keySet(cs)["people:carol"] {
		t.Fatalf("changes after the upgrade = %+v", cs)
	}
	storeVectorsWork(t, s)

	// Opening an up-to-date schema changes nothing.
	s2 := openSchema(t, schema, nil)
	if got := revision(t, s2); got != r+1 {
		t.Fatalf("revision seen by a second store = %d, want %d", got, r+1)
	}
}

func storeVectorsWork(t *testing.T, s *Store) {
	t.Helper()
	key := strings.Repeat("ab", 32)
	if err := s.PutVectors(ctx, "m", []string{key}, [][]float32{{1, 2}}); err != nil {
		t.Fatalf("vectors after upgrade: %v", err)
	}
}

// Hosts that open a fresh database at once create the schema once.
func TestConcurrentCreate(t *testing.T) {
	schema := newSchema(t)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			s, err := Open(ctx, testURL(t), &Options{Schema: schema})
			if err == nil {
				err = s.Put(ctx, store.Entry{Category: "a", Name: "b", Content: "c"})
				_ = s.Close()
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestOpenRefuses(t *testing.T) {
	admin := adminPool(t)

	t.Run("newer schema", func(t *testing.T) {
		schema := newSchema(t)
		s := openSchema(t, schema, nil)
		_ = s.Close()
		if _, err := admin.Exec(ctx, "UPDATE "+pgx.Identifier{schema, "schema_version"}.Sanitize()+" SET version = 99"); err != nil {
			t.Fatal(err)
		}
		_, err := Open(ctx, testURL(t), &Options{Schema: schema})
		if !errors.Is(err, ErrNewerSchema) || !strings.Contains(err.Error(), "99") {
			t.Fatalf("Open of a newer schema = %v, want ErrNewerSchema naming version 99", err)
		}
	})
	t.Run("foreign tables", func(t *testing.T) {
		schema := newSchema(t)
		if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema+"; CREATE TABLE "+schema+".entries (id int)"); err != nil {
			t.Fatal(err)
		}
		_, err := Open(ctx, testURL(t), &Options{Schema: schema})
		if !errors.Is(err, ErrForeignSchema) {
			t.Fatalf("Open of a schema with another program's entries table = %v, want ErrForeignSchema", err)
		}
	})
	t.Run("no create", func(t *testing.T) {
		schema := newSchema(t)
		_, err := Open(ctx, testURL(t), &Options{Schema: schema, NoCreate: true})
		if !errors.Is(err, ErrNoSchema) {
			t.Fatalf("Open with NoCreate of a missing schema = %v, want ErrNoSchema", err)
		}
		var exists bool
		_ = admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)", schema).Scan(&exists)
		if exists {
			t.Fatal("Open with NoCreate created the schema")
		}
	})
	t.Run("bad schema name", func(t *testing.T) {
		_, err := Open(ctx, testURL(t), &Options{Schema: "Bad-Name"})
		if err == nil || !strings.Contains(err.Error(), "Bad-Name") {
			t.Fatalf("Open with schema Bad-Name = %v, want an error naming it", err)
		}
	})
}

// The URL's schema parameter chooses the schema and is not sent to the
// server (which would refuse an unknown parameter).
func TestSchemaFromURL(t *testing.T) {
	schema := newSchema(t)
	u, err := url.Parse(testURL(t))
	if err != nil {
		t.Fatal(err)
	}
	qv := u.Query()
	qv.Set("schema", schema)
	u.RawQuery = qv.Encode()
	s, err := Open(ctx, u.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Schema() != schema {
		t.Fatalf("schema %q, want %q from the URL", s.Schema(), schema)
	}
}

// A wrong password, host or database gives one line that says what is
// wrong and never shows the password.
func TestConnectErrors(t *testing.T) {
	base, err := url.Parse(testURL(t))
	if err != nil {
		t.Fatal(err)
	}
	admin := adminPool(t)
	const role, right, wrong = "recall_test_password", "right-Secret-1", "wrong-Secret-2"
	if _, err := admin.Exec(ctx, `DO $$ BEGIN
		IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'recall_test_password') THEN
			CREATE ROLE recall_test_password LOGIN PASSWORD 'right-Secret-1';
		END IF;
	END $$`); err != nil {
		t.Fatal(err)
	}
	// Registered before the schemas below, so it runs after they are
	// dropped (a role that owns objects cannot be dropped).
	t.Cleanup(func() {
		_, _ = admin.Exec(ctx, "REVOKE ALL ON DATABASE "+pgx.Identifier{strings.TrimPrefix(base.Path, "/")}.Sanitize()+" FROM "+role)
		_, _ = admin.Exec(ctx, "DROP ROLE IF EXISTS "+role)
	})

	with := func(user, password, db string, q map[string]string) string {
		u := *base
		u.User = url.UserPassword(user, password)
		if db != "" {
			u.Path = "/" + db
		}
		v := u.Query()
		v.Del("user")
		for k, x := range q {
			v.Set(k, x)
		}
		u.RawQuery = v.Encode()
		return u.String()
	}
	tests := []struct {
		name, url string
		want      string
		unavail   bool
	}{
		{"wrong password", with(role, wrong, "", nil), "password authentication failed", false},
		{"missing database", with("postgres", wrong, "recall_no_such_db", nil), `database "recall_no_such_db" does not exist`, false},
		{"no server there", with("postgres", wrong, "", map[string]string{"host": t.TempDir()}), "cannot connect", true},
		{"unknown host", "postgres://postgres:" + wrong + "@recall-no-such-host.invalid:5432/postgres?connect_timeout=3", "cannot connect", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			s, err := Open(ctx, tt.url, &Options{Schema: "recall_never_created"})
			if err == nil {
				_ = s.Close()
				if tt.name == "wrong password" {
					skipOrFail(t, "the server accepted a wrong password: its pg_hba.conf trusts local connections for "+role+" (.ci/postgres.sh configures it to ask)")
				}
				t.Fatalf("Open succeeded")
			}
			msg := err.Error()
			t.Logf("%s (%v)", msg, time.Since(start).Round(time.Millisecond))
			if !strings.Contains(msg, tt.want) {
				t.Errorf("error %q does not say %q", msg, tt.want)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error is more than one line: %q", msg)
			}
			if strings.Contains(msg, wrong) || strings.Contains(msg, right) {
				t.Errorf("error shows the password: %q", msg)
			}
			if errors.Is(err, ErrUnavailable) != tt.unavail {
				t.Errorf("errors.Is(err, ErrUnavailable) = %v, want %v", !tt.unavail, tt.unavail)
			}
		})
	}
	t.Run("right password", func(t *testing.T) {
		if _, err := admin.Exec(ctx, "GRANT CREATE ON DATABASE "+pgx.Identifier{strings.TrimPrefix(base.Path, "/")}.Sanitize()+" TO "+role); err != nil {
			t.Logf("grant: %v", err)
		}
		schema := newSchema(t)
		s, err := Open(ctx, with(role, right, "", nil), &Options{Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		mustPut(t, s, "a", "b", "c")
	})
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:secret@h:5432/db?sslmode=disable":        "postgres://u:xxxxx@h:5432/db?sslmode=disable",
		"postgresql://h/db":                                    "postgresql://h/db",
		"postgres://u@h/db?sslmode=disable&password=secret":    "postgres://u@h/db?password=xxxxx&sslmode=disable",
		"postgres://u@h/db?sslpassword=secret&sslmode=require": "postgres://u@h/db?sslmode=require&sslpassword=xxxxx",
		"host=h user=u password=secret dbname=d":               "host=h user=u dbname=d",
		"":                                                     "postgres (from the PG* environment)",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// Options.Validate and the URL test used by the CLI.
func TestOptionsAndIsURL(t *testing.T) {
	if err := (Options{Timeout: -1}).Validate(); err == nil {
		t.Error("negative timeout accepted")
	}
	if err := (Options{Schema: "ok_name1"}).Validate(); err != nil {
		t.Error(err)
	}
	for s, want := range map[string]bool{"postgres://x": true, "POSTGRESQL://x": true, "postgres:": false, "memory.db": false, "./postgres://x": false} {
		if IsURL(s) != want {
			t.Errorf("IsURL(%q) = %v", s, !want)
		}
	}
}

// A schema of version 3 (before event dates) with rows written by plain
// SQL is upgraded on Open to one with the date column: old rows read with
// no date, a dated entry round-trips, and plain SQL sees the column.
func TestUpgradeFromVersion3(t *testing.T) {
	schema := newSchema(t)
	admin := adminPool(t)
	q := newQueries(schema)
	if err := migrateTo(ctx, admin, q, 3); err != nil {
		t.Fatal(err)
	}
	tbl := pgx.Identifier{schema, "entries"}.Sanitize()
	if _, err := admin.Exec(ctx, "INSERT INTO "+tbl+` (category, name, content, extra) VALUES ('diary', 'old', 'before dates', '{"date": "last spring"}')`); err != nil {
		t.Fatal(err)
	}
	s := openSchema(t, schema, nil)
	if v := schemaVersionOf(t, admin, schema); v != SchemaVersion || SchemaVersion != 4 {
		t.Fatalf("version after Open = %d, want 4", v)
	}
	e, err := s.Get(ctx, "diary", "old")
	if err != nil || !e.Meta.Date.IsZero() || e.Meta.Extra["date"] != "last spring" {
		t.Fatalf("old row after upgrade: %+v, %v; want no date, the extra key kept", e, err)
	}
	day := time.Date(2024, 5, 3, 0, 0, 0, 0, time.UTC)
	if err := s.Put(ctx, store.Entry{Category: "diary", Name: "new", Content: "dated", Meta: store.Meta{Date: day}}); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := admin.QueryRow(ctx, "SELECT count(*) FROM "+tbl+" WHERE date >= '2024-05-03T00:00:00Z' AND date < '2024-05-04T00:00:00Z'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("plain SQL over the date column: %d rows, %v; want 1", n, err)
	}
}
