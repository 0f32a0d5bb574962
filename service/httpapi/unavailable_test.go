package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	fsstore "github.com/recallhq/recall/store/fs"
	pgstore "github.com/recallhq/recall/store/postgres"
)

// unavailableRequests are the entry and list requests that must answer 503
// when the store cannot be reached.
var unavailableRequests = []struct{ method, path, body string }{
	{"GET", "/v1/entries/trips/sanya", ""},
	{"PUT", "/v1/entries/trips/sanya", `{"content":"beach"}`},
	{"PUT", "/v1/entries/trips/new", `{"content":"beach"}`},
	{"DELETE", "/v1/entries/trips/sanya", ""},
	{"POST", "/v1/entries/trips/sanya/append", `{"text":"more"}`},
	{"POST", "/v1/entries/trips/sanya/edit", `{"old_text":"sea","new_text":"ocean"}`},
	{"GET", "/v1/entries", ""},
	{"GET", "/v1/entries?category=trips", ""},
	{"GET", "/healthz", ""},
}

// checkUnavailable sends each of unavailableRequests and wants 503 with a
// JSON error that says the store is unavailable.
func checkUnavailable(t *testing.T, h http.Handler) {
	t.Helper()
	for _, rq := range unavailableRequests {
		req := httptest.NewRequest(rq.method, "http://localhost"+rq.path, strings.NewReader(rq.body))
		if rq.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var e httpapi.Error
		if rec.Code != http.StatusServiceUnavailable || json.Unmarshal(rec.Body.Bytes(), &e) != nil || !strings.Contains(e.Message, "unavailable") {
			t.Errorf("%s %s: %d %s, want 503 saying the store is unavailable", rq.method, rq.path, rec.Code, rec.Body)
		}
	}
}

// A folder store whose root is removed under a running server answers 503
// on every entry request and on list, and writes create nothing.
func TestUnavailableFolderStore(t *testing.T) {
	root := filepath.Join(t.TempDir(), "memory")
	st, err := fsstore.Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := service.New(st, service.Options{})
	defer m.Close()
	ctx := context.Background()
	if _, err := m.Add(ctx, service.AddRequest{Category: "trips", Name: "sanya", Content: "the sea at Sanya"}); err != nil {
		t.Fatal(err)
	}
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	h, err := httpapi.New(m, httpapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	checkUnavailable(t, h)
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Errorf("a write re-created the removed store folder (%v)", err)
	}
}

// With PostgreSQL stopped under a running server, the same requests answer
// 503. The test starts and stops a server of its own with .ci/postgres.sh
// (from the binaries RECALL_TEST_POSTGRES_BIN names), so no other test is
// disturbed; it is skipped without them, except in CI.
func TestUnavailablePostgres(t *testing.T) {
	if os.Getenv("RECALL_TEST_POSTGRES_BIN") == "" {
		why := `RECALL_TEST_POSTGRES_BIN is not set: this test starts and stops a PostgreSQL server of its own with .ci/postgres.sh, which prints it (eval "$(bash .ci/postgres.sh start)")`
		if os.Getenv("CI") == "true" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	script, err := filepath.Abs(filepath.Join("..", "..", ".ci", "postgres.sh"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("bash", script, "start").Output()
	if err != nil {
		t.Fatalf("%s start: %v", script, err)
	}
	env := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(strings.TrimPrefix(l, "export "), "="); ok {
			env[k] = strings.Trim(v, "'")
		}
	}
	t.Cleanup(func() {
		if out, err := exec.Command("bash", script, "stop", env["RECALL_TEST_POSTGRES_DIR"]).CombinedOutput(); err != nil {
			t.Logf("stop the server: %v\n%s", err, out)
		}
	})
	ctx := context.Background()
	st, err := pgstore.Open(ctx, env["RECALL_TEST_POSTGRES_URL"], &pgstore.Options{Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := service.New(st, service.Options{})
	defer m.Close()
	if _, err := m.Add(ctx, service.AddRequest{Category: "trips", Name: "sanya", Content: "the sea at Sanya"}); err != nil {
		t.Fatal(err)
	}
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	h, err := httpapi.New(m, httpapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A second server over the same database whose index is not built:
	// its list walks the store's keys.
	st2, err := pgstore.Open(ctx, env["RECALL_TEST_POSTGRES_URL"], &pgstore.Options{Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	m2 := service.New(st2, service.Options{})
	defer m2.Close()
	h2, err := httpapi.New(m2, httpapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) { // a server that has been running a while
		if hl, err := m.Health(ctx); err == nil && hl.Indexed {
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatal("the index was not built in a minute")
		}
	}
	argv := []string{filepath.Join(env["RECALL_TEST_POSTGRES_BIN"], "pg_ctl"), "-D", env["RECALL_TEST_POSTGRES_DATA"], "-w", "-t", "60", "stop", "-m", "fast"}
	if os.Geteuid() == 0 {
		argv = append([]string{"runuser", "-u", "postgres", "--"}, argv...)
	}
	if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("pg_ctl stop: %v\n%s", err, out)
	}
	checkUnavailable(t, h)
	checkUnavailable(t, h2)
}
