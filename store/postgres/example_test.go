package postgres_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/postgres"
)

// Two hosts share one memory: a write through one reaches the other's
// change feed. (The example needs a database, so go test only compiles
// it; TestExample runs it against the test server and checks what it
// prints:
//
//	host b was told: [people:alice]
//	Alice likes the sea.
//
// )
func Example() {
	ctx := context.Background()
	// For example postgres://recall@db.internal/recall?schema=team; the
	// PG* environment variables fill in what the URL leaves out.
	dsn := os.Getenv("RECALL_EXAMPLE_POSTGRES_URL")

	a, err := postgres.Open(ctx, dsn, nil) // host a
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
	b, err := postgres.Open(ctx, dsn, nil) // host b, elsewhere
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()

	changed, cancel := b.Subscribe()
	defer cancel()
	since, err := b.Revision(ctx)
	if err != nil {
		log.Fatal(err)
	}

	if err := a.Put(ctx, store.Entry{Category: "people", Name: "alice", Content: "Alice likes the sea."}); err != nil {
		log.Fatal(err)
	}

	// Host b wakes up and asks what moved since the revision it knew.
	for {
		select {
		case <-changed:
		case <-time.After(5 * time.Second):
			log.Fatal("no notification")
		}
		cs, err := b.Changes(ctx, since)
		if err != nil {
			log.Fatal(err)
		}
		if len(cs.Keys) == 0 {
			continue // woken by the listener's start, before the write
		}
		fmt.Println("host b was told:", cs.Keys)
		break
	}
	e, err := b.Get(ctx, "people", "alice")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(e.Content)
}

// TestExample runs Example against the test server, in a schema of its
// own, and checks its output.
func TestExample(t *testing.T) {
	base := os.Getenv("RECALL_TEST_POSTGRES_URL")
	if base == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("RECALL_TEST_POSTGRES_URL is not set (CI=true: .ci/run starts a server)")
		}
		t.Skip(`no PostgreSQL to test against: set RECALL_TEST_POSTGRES_URL (eval "$(bash .ci/postgres.sh start)")`)
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	schema := fmt.Sprintf("example_%d", time.Now().UnixNano())
	q := u.Query()
	q.Set("schema", schema)
	u.RawQuery = q.Encode()
	t.Setenv("RECALL_EXAMPLE_POSTGRES_URL", u.String())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Log(err)
			return
		}
		defer conn.Close(ctx)
		_, _ = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE")
	})

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	func() {
		defer func() { os.Stdout = stdout }()
		Example()
	}()
	w.Close()
	out, _ := io.ReadAll(r)
	want := "host b was told: [people:alice]\nAlice likes the sea.\n"
	if got := string(out); got != want {
		t.Fatalf("Example printed %q, want %q", got, want)
	}
}
