package location

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/recallhq/recall/store"
)

func TestBackendFor(t *testing.T) {
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "folder.db")
	if err := os.Mkdir(dbDir, 0o755); err != nil {
		t.Fatal(err)
	}
	dbDirInfo, err := os.Stat(dbDir)
	if err != nil {
		t.Fatal(err)
	}
	dirInfo, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		info os.FileInfo
		want Backend
	}{
		{"memory.db", nil, Bolt},
		{"MEMORY.DB", nil, Bolt},
		{"memory", nil, Folder},
		{"memory.dbx", nil, Folder},
		{dbDir, dbDirInfo, Folder}, // an existing folder named *.db stays a folder
		{dir, dirInfo, Folder},
		{"postgres://h/db", nil, Postgres},
		{"postgresql://h/db", nil, Postgres},
		{"Postgres://h/db", nil, Postgres},
		{"postgres:", nil, Postgres},
		{"./postgres:", nil, Folder},
		{"postgres.db", nil, Bolt},
	}
	for _, tt := range tests {
		if got := backendFor(tt.name, tt.info); got != tt.want {
			t.Errorf("backendFor(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Parse and the descriptions: the backend by name, and no password in
// anything meant for a message.
func TestParse(t *testing.T) {
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "folder.db")
	if err := os.Mkdir(dbDir, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		backend  Backend
		redacted string
		str      string
	}{
		{"memory.db", Bolt, "memory.db", "memory.db (bolt)"},
		{"notes", Folder, "notes", "notes (fs)"},
		{dbDir, Folder, dbDir, dbDir + " (fs)"},
		{"postgres://recall:s3cret-pw@db.example:5433/memory?schema=work", Postgres,
			"postgres://recall:xxxxx@db.example:5433/memory?schema=work",
			"postgres://recall:xxxxx@db.example:5433/memory?schema=work (postgres)"},
		{"postgres://u@h/db?password=s3cret-pw", Postgres, "postgres://u@h/db?password=xxxxx", "postgres://u@h/db?password=xxxxx (postgres)"},
		{"POSTGRESQL://u@h/db", Postgres, "postgresql://u@h/db", "postgresql://u@h/db (postgres)"},
	}
	for _, tt := range tests {
		l, err := Parse(tt.name)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.name, err)
		}
		if l.Backend != tt.backend || l.Redacted() != tt.redacted || l.String() != tt.str || l.Name() != tt.name {
			t.Errorf("Parse(%q) = %v, %q, %q, %q; want %v, %q, %q, the name", tt.name,
				l.Backend, l.Redacted(), l.String(), l.Name(), tt.backend, tt.redacted, tt.str)
		}
	}
	for _, bad := range []string{"", "postgres:memory", "postgres:user:s3cret-pw@host"} {
		_, err := Parse(bad)
		if err == nil {
			t.Errorf("Parse(%q) succeeded", bad)
			continue
		}
		if strings.Contains(err.Error(), "s3cret-pw") {
			t.Errorf("Parse(%q): the error shows the password: %v", bad, err)
		}
	}
}

// Without Create nothing is made; with it the store but not the folders
// above it, unless Parents.
func TestOpenCreate(t *testing.T) {
	ctx := context.Background()
	for _, leaf := range []string{"memory.db", "memory"} {
		t.Run(leaf, func(t *testing.T) {
			base := t.TempDir()
			path := filepath.Join(base, leaf)
			if _, _, err := Open(ctx, path, nil); !errors.Is(err, ErrNotExist) || !strings.Contains(err.Error(), path) {
				t.Fatalf("Open of a missing store: %v, want ErrNotExist naming the path", err)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Fatalf("Open without Create made the store: %v", err)
			}

			deep := filepath.Join(base, "no", "such", leaf)
			_, _, err := Open(ctx, deep, &Options{Create: true})
			if err == nil || !strings.Contains(err.Error(), "does not exist") || errors.Is(err, ErrNotExist) {
				t.Fatalf("Create under a missing folder: %v, want an error naming the folder", err)
			}
			if _, err := os.Stat(filepath.Join(base, "no")); !os.IsNotExist(err) {
				t.Fatalf("Create without Parents made folders: %v", err)
			}

			for _, p := range []string{path, deep} {
				st, l, err := Open(ctx, p, &Options{Create: true, Parents: p == deep})
				if err != nil {
					t.Fatal(err)
				}
				want := Folder
				if leaf == "memory.db" {
					want = Bolt
				}
				if l.Backend != want {
					t.Errorf("%s: backend %v, want %v", p, l.Backend, want)
				}
				if err := st.Put(ctx, store.Entry{Category: "notes", Name: "n", Content: "x"}); err != nil {
					t.Fatal(err)
				}
				if err := st.Close(); err != nil {
					t.Fatal(err)
				}
				// Reopened without Create, the entry is there.
				st, _, err = Open(ctx, p, nil)
				if err != nil {
					t.Fatal(err)
				}
				if e, err := st.Get(ctx, "notes", "n"); err != nil || e.Content != "x" {
					t.Errorf("reopened %s: %v, %v", p, e, err)
				}
				st.Close()
			}
			if fi, err := os.Stat(filepath.Dir(deep)); err != nil || fi.Mode().Perm() != 0o700 {
				t.Errorf("Parents made %v, %v; want mode 0700", fi, err)
			}
		})
	}
}

func TestOpenWrongKind(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Open(ctx, file, &Options{Create: true}); err == nil || !strings.Contains(err.Error(), "is a file, not a folder") {
		t.Errorf("a plain file: %v", err)
	}
	parentFile := filepath.Join(file, "memory.db")
	if _, _, err := Open(ctx, parentFile, &Options{Create: true}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("under a file: %v", err)
	}
	var zero Location
	if _, err := zero.Open(ctx, nil); err == nil {
		t.Error("the zero Location opened")
	}
}

// A PostgreSQL URL is opened as PostgreSQL (nothing listens on port 1, so
// the connection fails) and no error shows the password.
func TestOpenPostgresUnreachable(t *testing.T) {
	t.Chdir(t.TempDir())
	_, _, err := Open(context.Background(), "postgres://nobody:s3cret-pw@127.0.0.1:1/memory?connect_timeout=2", nil)
	if err == nil || !strings.Contains(err.Error(), "cannot connect") || strings.Contains(err.Error(), "s3cret-pw") {
		t.Fatalf("unreachable server: %v", err)
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Fatalf("opening a postgres URL wrote %v to the working directory", entries)
	}
}

// On a real PostgreSQL (RECALL_TEST_POSTGRES_URL, see .ci/postgres.sh): a
// database without recall's schema is ErrNotExist and is left without
// one; Create makes it.
func TestOpenPostgres(t *testing.T) {
	base := os.Getenv("RECALL_TEST_POSTGRES_URL")
	if base == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("RECALL_TEST_POSTGRES_URL is not set (CI=true: .ci/run starts a server)")
		}
		t.Skip(`no PostgreSQL to test against: set RECALL_TEST_POSTGRES_URL (eval "$(bash .ci/postgres.sh start)")`)
	}
	ctx := context.Background()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	schema := fmt.Sprintf("location_test_%d", time.Now().UnixNano())
	q := u.Query()
	q.Set("schema", schema)
	u.RawQuery = q.Encode()
	t.Cleanup(func() {
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
	if _, _, err := Open(ctx, u.String(), nil); !errors.Is(err, ErrNotExist) {
		t.Fatalf("Open without Create on an empty database: %v, want ErrNotExist", err)
	}
	st, loc, err := Open(ctx, u.String(), &Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if loc.Backend != Postgres {
		t.Errorf("backend %v", loc.Backend)
	}
	if err := st.Put(ctx, store.Entry{Category: "notes", Name: "n", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	st2, _, err := Open(ctx, u.String(), nil)
	if err != nil {
		t.Fatalf("Open without Create once the schema exists: %v", err)
	}
	defer st2.Close()
	if e, err := st2.Get(ctx, "notes", "n"); err != nil || e.Content != "x" {
		t.Errorf("Get: %v, %v", e, err)
	}
}
