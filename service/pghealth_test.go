package service_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/recallhq/recall/service"
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
