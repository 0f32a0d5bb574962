package service_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/postgres"
)

// A running server's /healthz count of unreadable entries follows rows
// that an administrator adds and removes with SQL, through the change
// feed: 9 after 9 bad rows were added, 0 after they were removed.
func TestHealthUnreadableFollowsPostgresRows(t *testing.T) {
	url := os.Getenv("RECALL_TEST_POSTGRES_URL")
	if url == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true: the PostgreSQL tests must run")
		}
		t.Skip(`no PostgreSQL: set RECALL_TEST_POSTGRES_URL (eval "$(bash .ci/postgres.sh start)")`)
	}
	ctx := context.Background()
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "test_" + hex.EncodeToString(b[:])
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec(context.Background(), "DROP SCHEMA IF EXISTS "+schema+" CASCADE")
		admin.Close(context.Background())
	})
	st, err := postgres.Open(ctx, url, &postgres.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m := service.New(st, service.Options{})
	t.Cleanup(func() { m.Close() })
	if _, err := m.Add(ctx, service.AddRequest{Category: "ok", Name: "one", Content: "fine"}); err != nil {
		t.Fatal(err)
	}
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	waitUnreadable := func(want int) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			h, err := m.Health(ctx)
			if err == nil && h.Indexed && h.Unreadable == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("health: %+v, %v; want %d unreadable", h, err, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitUnreadable(0)

	table := schema + ".entries"
	bad := []string{
		// over the content bound
		fmt.Sprintf(`INSERT INTO %s (category, name, content) SELECT 'big', 'b' || i, repeat('x', 1048577) FROM generate_series(1, 3) i`, table),
		// identities not in NFC
		fmt.Sprintf(`INSERT INTO %s (category, name, content) SELECT 'nfd', 'cafe`+"\u0301"+`' || i, 'ghost' FROM generate_series(1, 3) i`, table),
		// names that break the rules
		fmt.Sprintf(`INSERT INTO %s (category, name, content) SELECT 'badname', 'a:' || i, 'y' FROM generate_series(1, 3) i`, table),
	}
	for _, q := range bad {
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	waitUnreadable(9)
	if _, err := admin.Exec(ctx, fmt.Sprintf(`DELETE FROM %s WHERE category <> 'ok'`, table)); err != nil {
		t.Fatal(err)
	}
	waitUnreadable(0)
	if h, _ := m.Health(ctx); h.Unreadable != 0 {
		t.Fatalf("health after the rows went: %+v", h)
	}
}

// countingStore is a PostgreSQL store that counts full reads of one entry.
type countingStore struct {
	*postgres.Store
	gets atomic.Int64
}

func (c *countingStore) Get(ctx context.Context, category, name string) (store.Entry, error) {
	c.gets.Add(1)
	return c.Store.Get(ctx, category, name)
}

// A page of a started Memory over PostgreSQL reads its entries' metadata
// in one query and no entry in full: GET /v1/entries?limit=10000 used to
// cost one query per entry listed, each fetching the whole content.
func TestListPageReadsNoContentOnPostgres(t *testing.T) {
	url := os.Getenv("RECALL_TEST_POSTGRES_URL")
	if url == "" {
		t.Skip(`no PostgreSQL: set RECALL_TEST_POSTGRES_URL (eval "$(bash .ci/postgres.sh start)")`)
	}
	ctx := context.Background()
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "test_" + hex.EncodeToString(b[:])
	pg, err := postgres.Open(ctx, url, &postgres.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if admin, err := pgx.Connect(context.Background(), url); err == nil {
			_, _ = admin.Exec(context.Background(), "DROP SCHEMA IF EXISTS "+schema+" CASCADE")
			admin.Close(context.Background())
		}
	})
	t.Cleanup(func() { pg.Close() })
	var batch []store.Entry
	for i := range 300 {
		e := store.Entry{Category: "notes", Name: fmt.Sprintf("n%03d", i), Content: strings.Repeat("word ", 100)}
		e.Meta.Tags = []string{"t" + fmt.Sprint(i%7)}
		e.Meta.Extra = map[string]any{"n": i}
		batch = append(batch, e)
	}
	if err := pg.PutBatch(ctx, batch); err != nil {
		t.Fatal(err)
	}
	st := &countingStore{Store: pg}
	m := service.New(st, service.Options{})
	t.Cleanup(func() { m.Close() })
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for h, _ := m.Health(ctx); !h.Indexed; h, _ = m.Health(ctx) {
		if time.Now().After(deadline) {
			t.Fatal("not indexed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	before := st.gets.Load()
	page, err := m.List(ctx, service.ListRequest{Limit: 10000})
	if err != nil {
		t.Fatal(err)
	}
	if n := st.gets.Load() - before; n != 0 {
		t.Errorf("a page of %d entries read %d entries in full", len(page.Entries), n)
	}
	if len(page.Entries) != 300 || page.Total != 300 {
		t.Fatalf("page: %d entries, total %d", len(page.Entries), page.Total)
	}
	it := page.Entries[42]
	if it.Name != "n042" || it.TokensEst == 0 || fmt.Sprint(it.Meta["tags"]) != "[t0]" || fmt.Sprint(it.Meta["n"]) != "42" || it.Meta["updated"] == nil {
		t.Errorf("entry 42: %+v", it)
	}
}
