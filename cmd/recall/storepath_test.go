package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestStoreFromEnvironment(t *testing.T) {
	envStore := filepath.Join(t.TempDir(), "env-memory")
	c := newCLI(t, map[string]string{"RECALL_STORE": envStore})
	c.ok("add", "notes", "from-env", "--content", "x")
	if _, err := os.Stat(filepath.Join(envStore, "notes", "from-env.md")); err != nil {
		t.Fatalf("$RECALL_STORE not used: %v", err)
	}
	if got := c.ok("ls"); got != "notes:from-env\n" {
		t.Fatalf("ls via $RECALL_STORE = %q", got)
	}

	// --store wins over the environment.
	flagStore := filepath.Join(t.TempDir(), "flag.db")
	c.ok("--store", flagStore, "add", "notes", "from-flag", "--content", "y")
	if got := c.ok("--store", flagStore, "ls"); got != "notes:from-flag\n" {
		t.Fatalf("ls via --store = %q", got)
	}
	if got := c.ok("ls"); got != "notes:from-env\n" {
		t.Fatalf("the env store changed: %q", got)
	}

	// A quoted "~/..." is expanded.
	home := t.TempDir()
	c2 := newCLI(t, map[string]string{"HOME": home, "RECALL_STORE": "~/tilde-memory"})
	c2.ok("add", "notes", "n", "--content", "z")
	if _, err := os.Stat(filepath.Join(home, "tilde-memory", "notes", "n.md")); err != nil {
		t.Fatalf("~ not expanded: %v", err)
	}
}

func TestDefaultStoreFolder(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		t.Skip("the XDG layout is checked on Linux and the BSDs")
	}
	home := t.TempDir()
	c := newCLI(t, map[string]string{"HOME": home})
	c.ok("add", "notes", "n", "--content", "z")
	if _, err := os.Stat(filepath.Join(home, ".local", "share", "recall", "memory", "notes", "n.md")); err != nil {
		t.Fatalf("default store not under ~/.local/share: %v", err)
	}
	xdg := t.TempDir()
	c = newCLI(t, map[string]string{"HOME": home, "XDG_DATA_HOME": xdg})
	c.ok("add", "notes", "n", "--content", "z")
	if _, err := os.Stat(filepath.Join(xdg, "recall", "memory", "notes", "n.md")); err != nil {
		t.Fatalf("default store not under $XDG_DATA_HOME: %v", err)
	}
}

// A postgres:// URL names a database, never a folder: before the
// PostgreSQL backend, `--store postgres://…` silently created a folder
// named "postgres:" in the working directory and wrote there.
func TestPostgresURLIsNotAFolder(t *testing.T) {
	t.Chdir(t.TempDir())
	c := newCLI(t, nil)
	for _, u := range []string{
		"postgres://nobody:s3cret-pw@127.0.0.1:1/memory?connect_timeout=2", // nothing listens on port 1
		"POSTGRESQL://nobody:s3cret-pw@127.0.0.1:1/memory?connect_timeout=2",
		"postgres:memory", // not a URL: refused, not a folder
	} {
		line := c.fails(exitFailure, "--store", u, "add", "notes", "n", "--content", "x")
		if strings.Contains(line, "s3cret-pw") {
			t.Errorf("the error shows the password: %q", line)
		}
		if !strings.Contains(line, "cannot connect") && !strings.Contains(line, "URL") {
			t.Errorf("--store %s: %q does not say what is wrong", u, line)
		}
		c.fails(exitFailure, "--store", u, "ls")
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Fatalf("the working directory holds %v after commands on postgres URLs, want nothing", entries)
	}
}

// With a database to test against (RECALL_TEST_POSTGRES_URL, see
// .ci/postgres.sh), the commands work on it: read commands do not create
// the schema, add does, and a wrong password is one clear line.
func TestPostgresStore(t *testing.T) {
	u := postgresTestURL(t)
	dsn := u.String()
	t.Chdir(t.TempDir())
	c := newCLI(t, map[string]string{"RECALL_STORE": dsn})
	if line := c.fails(exitFailure, "ls"); !strings.Contains(line, "store does not exist") {
		t.Fatalf("ls before anything was added: %q, want store does not exist", line)
	}
	c.ok("add", "preferences", "coffee", "--content", "Flat white, no sugar.", "--tag", "drinks")
	c.ok("add", "trips", "三亚之行", "--content", "想去海边玩")
	if got := c.ok("get", "preferences", "coffee"); !strings.Contains(got, "Flat white") {
		t.Fatalf("get: %q", got)
	}
	if got := c.ok("ls"); got != "preferences:coffee\ntrips:三亚之行\n" {
		t.Fatalf("ls: %q", got)
	}
	if got := c.ok("retrieve", "海边", "--json"); !strings.Contains(got, "三亚之行") {
		t.Fatalf("retrieve: %q", got)
	}
	c.ok("rm", "preferences", "coffee")
	if got := c.ok("ls"); got != "trips:三亚之行\n" {
		t.Fatalf("ls after rm: %q", got)
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Fatalf("commands on a postgres store wrote %v to the working directory", entries)
	}

	// A wrong password: one line naming the problem, not the password.
	bad := *u
	bad.User = url.UserPassword("recall_test_password", "not-the-password")
	q := bad.Query()
	q.Del("user")
	bad.RawQuery = q.Encode()
	o := c.run("--store", bad.String(), "ls")
	if o.code == 0 {
		t.Skip("the server accepted a wrong password (its pg_hba.conf trusts local connections)")
	}
	line := checkFailure(t, o, exitFailure, []string{"ls"})
	if strings.Contains(line, "not-the-password") || !strings.Contains(line, "password authentication failed") {
		t.Fatalf("wrong password: %q", line)
	}
}

// postgresTestURL is the URL of a fresh schema in the test database
// (RECALL_TEST_POSTGRES_URL, see .ci/postgres.sh), dropped when the test
// ends. Without a database the test skips, or fails with CI=true.
func postgresTestURL(t *testing.T) *url.URL {
	t.Helper()
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
	schema := fmt.Sprintf("cli_test_%d", time.Now().UnixNano())
	q := u.Query()
	q.Set("schema", schema)
	u.RawQuery = q.Encode()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Log(err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE"); err != nil {
			t.Log(err)
		}
	})
	return u
}

// The servers' start-up line names a PostgreSQL store as one, and never
// shows the URL's password (it once printed the URL as given, calling the
// store "bolt").
func TestServersHidePostgresPassword(t *testing.T) {
	u := postgresTestURL(t)
	// The test server trusts local connections, so any password is
	// accepted; the point is that none is printed.
	user := u.Query().Get("user")
	if user == "" {
		user = "postgres"
	}
	u.User = url.UserPassword(user, "s3cret-pw")
	dsn := u.String()
	env := func(k string) string {
		if k == "RECALL_STORE" {
			return dsn
		}
		return ""
	}
	check := func(t *testing.T, log, prefix string) {
		t.Helper()
		if strings.Contains(log, "s3cret-pw") {
			t.Errorf("stderr shows the password:\n%s", log)
		}
		if !strings.Contains(log, prefix) || !strings.Contains(log, ":xxxxx@") || !strings.Contains(log, "(postgres)") {
			t.Errorf("stderr does not name the store as a redacted PostgreSQL URL (want %q, \":xxxxx@\" and \"(postgres)\"):\n%s", prefix, log)
		}
	}

	t.Run("serve", func(t *testing.T) {
		var stderr syncBuffer
		root := newRootCmd(nil, io.Discard, &stderr, env)
		root.SetArgs([]string{"serve", "--create", "--addr", "127.0.0.1:0"})
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		code := make(chan int, 1)
		go func() { code <- execute(ctx, root) }()
		listenAddr(t, &stderr)
		stop()
		if c := <-code; c != 0 {
			t.Fatalf("serve exited %d; stderr:\n%s", c, stderr.String())
		}
		check(t, stderr.String(), "recall serve: listening on http://127.0.0.1:")
	})
	t.Run("mcp", func(t *testing.T) {
		// The host hangs up at once (stdin at EOF): a normal end, after
		// the start-up line.
		var stderr syncBuffer
		root := newRootCmd(strings.NewReader(""), io.Discard, &stderr, env)
		root.SetArgs([]string{"mcp", "--create"})
		if c := execute(context.Background(), root); c != 0 {
			t.Fatalf("mcp exited %d; stderr:\n%s", c, stderr.String())
		}
		check(t, stderr.String(), "recall mcp: serving postgres://")
	})
}
