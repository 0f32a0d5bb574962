package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/recallhq/recall/store"
)

var ctx = context.Background()

// urlEnv names the database the tests use; .ci/postgres.sh prints it.
const urlEnv = "RECALL_TEST_POSTGRES_URL"

// skipOrFail skips the test, unless it runs in CI (CI=true), where a
// skipped PostgreSQL test would hide that the backend went untested.
func skipOrFail(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: the PostgreSQL tests must run; .ci/run starts a server)", why)
	}
	t.Skip(why)
}

// testURL returns the test database's URL, or skips.
func testURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(urlEnv)
	if u == "" {
		skipOrFail(t, "no PostgreSQL to test against: set "+urlEnv+` (eval "$(bash .ci/postgres.sh start)" starts a throwaway server and prints it)`)
	}
	return u
}

// adminPool is a plain pool on the test database, for checks and edits
// behind the store's back. Closed at the end of the test.
func adminPool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	p, err := pgxpool.New(ctx, testURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// newSchema returns a fresh schema name that is dropped when the test
// ends, so tests can run in parallel and leave nothing behind.
func newSchema(t testing.TB) string {
	t.Helper()
	u := testURL(t)
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "test_" + hex.EncodeToString(b[:])
	t.Cleanup(func() {
		c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(c, u)
		if err != nil {
			t.Logf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(c)
		if _, err := conn.Exec(c, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
			t.Logf("drop schema %s: %v", schema, err)
		}
	})
	return schema
}

// openSchema opens a store on schema; the test closes it at the end
// (a second Close is harmless).
func openSchema(t testing.TB, schema string, opts *Options) *Store {
	t.Helper()
	o := Options{}
	if opts != nil {
		o = *opts
	}
	o.Schema = schema
	s, err := Open(ctx, testURL(t), &o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// openNew opens a store on a new schema.
func openNew(t testing.TB) *Store {
	t.Helper()
	return openSchema(t, newSchema(t), nil)
}

func mustPut(t testing.TB, s store.Store, category, name, content string) {
	t.Helper()
	if err := s.Put(ctx, store.Entry{Category: category, Name: name, Content: content}); err != nil {
		t.Fatal(err)
	}
}

func revision(t testing.TB, s store.Store) uint64 {
	t.Helper()
	r, err := s.Revision(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func changes(t testing.TB, s *Store, since uint64) store.ChangeSet {
	t.Helper()
	cs, err := s.Changes(ctx, since)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// keySet renders a change set's keys for comparison.
func keySet(cs store.ChangeSet) map[string]bool {
	m := map[string]bool{}
	for _, k := range cs.Keys {
		m[k.String()] = true
	}
	return m
}

// waitFired waits up to d for a value on ch.
func waitFired(ch <-chan struct{}, d time.Duration) bool {
	select {
	case <-ch:
		return true
	case <-time.After(d):
		return false
	}
}

// drain empties a subscription channel.
func drain(ch <-chan struct{}) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}
