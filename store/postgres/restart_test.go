package postgres

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
)

// cluster is a PostgreSQL server of the test's own, made by
// .ci/postgres.sh, so that stopping it disturbs no other test.
type cluster struct {
	url, data, bin, dir string
}

// startCluster starts a throwaway server with the binaries .ci/postgres.sh
// found for the shared test server (RECALL_TEST_POSTGRES_BIN), or skips.
func startCluster(t *testing.T) *cluster {
	t.Helper()
	testURL(t)
	if os.Getenv("RECALL_TEST_POSTGRES_BIN") == "" {
		skipOrFail(t, "RECALL_TEST_POSTGRES_BIN is not set: this test starts and stops a server of its own with .ci/postgres.sh, which prints it")
	}
	script, err := filepath.Abs(filepath.Join("..", "..", ".ci", "postgres.sh"))
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command("bash", script, "start")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s start: %v\n%s", script, err, stderr.String())
	}
	c := &cluster{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "export "), "=")
		if !ok {
			continue
		}
		v = strings.Trim(v, "'")
		switch k {
		case "RECALL_TEST_POSTGRES_URL":
			c.url = v
		case "RECALL_TEST_POSTGRES_DATA":
			c.data = v
		case "RECALL_TEST_POSTGRES_BIN":
			c.bin = v
		case "RECALL_TEST_POSTGRES_DIR":
			c.dir = v
		}
	}
	if c.url == "" || c.data == "" || c.dir == "" {
		t.Fatalf("%s start printed %q", script, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("bash", script, "stop", c.dir).CombinedOutput(); err != nil {
			t.Logf("stop cluster: %v\n%s", err, out)
		}
	})
	return c
}

// pgctl runs pg_ctl on the cluster as the user that owns it.
func (c *cluster) pgctl(t *testing.T, args ...string) {
	t.Helper()
	argv := append([]string{filepath.Join(c.bin, "pg_ctl"), "-D", c.data, "-w", "-t", "60"}, args...)
	if os.Geteuid() == 0 {
		argv = append([]string{"runuser", "-u", "postgres", "--"}, argv...)
	}
	if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("pg_ctl %v: %v\n%s", args, err, out)
	}
}

// The server stops mid-test: writes fail fast with ErrUnavailable and one
// line; when it is back, writes succeed again without reopening, and the
// other host's listener reconnects and fires, so its reader catches up
// from the change log, including a write made before it was listening
// again.
func TestServerRestart(t *testing.T) {
	c := startCluster(t)
	opts := &Options{Schema: "recall", Timeout: 3 * time.Second}
	a, err := Open(ctx, c.url, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, c.url, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ch, cancel := b.Subscribe()
	defer cancel()
	waitFor(t, "b listening", 5*time.Second, b.Listening)
	mustPut(t, a, "before", "stop", "x")
	since := revision(t, b)
	eb := retrieve.New(b, retrieve.Options{})
	defer eb.Close()
	if _, err := eb.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}

	c.pgctl(t, "stop", "-m", "fast")

	for i := range 3 {
		start := time.Now()
		err := a.Put(ctx, store.Entry{Category: "during", Name: "stop", Content: "x"})
		took := time.Since(start)
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("Put %d with the server stopped = %v, want ErrUnavailable", i, err)
		}
		if took > 2*time.Second || strings.Contains(err.Error(), "\n") {
			t.Fatalf("Put %d failed after %v with %q; want fast, one line", i, took, err)
		}
		if i == 0 {
			t.Logf("write while stopped: %v (after %v)", err, took.Round(time.Millisecond))
		}
	}
	if _, err := b.Get(ctx, "before", "stop"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Get with the server stopped = %v, want ErrUnavailable", err)
	}
	waitFor(t, "b's listener to notice", 5*time.Second, func() bool { return !b.Listening() })
	// An engine over b keeps answering from its last index, and says so.
	if _, err := eb.Rebuild(ctx); err == nil || !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Rebuild with the server stopped = %v, want ErrUnavailable", err)
	}
	res, err := eb.Retrieve(ctx, retrieve.Request{Query: "stop", NoLinks: true})
	if err != nil || len(res.Items) != 1 || res.Items[0].Category != "before" {
		t.Fatalf("retrieve with the server stopped = %+v, %v; want the last index's answer", res, err)
	}
	if !errors.Is(eb.Unavailable(), ErrUnavailable) {
		t.Fatalf("engine Unavailable() = %v, want ErrUnavailable", eb.Unavailable())
	}

	c.pgctl(t, "start", "-l", filepath.Join(c.dir, "server.log"))
	back := time.Now()
	// The first write after the restart may beat b's listener back.
	waitFor(t, "a write to succeed", 10*time.Second, func() bool {
		return a.Put(ctx, store.Entry{Category: "after", Name: "restart", Content: "x"}) == nil
	})
	t.Logf("writes work again %v after the server started", time.Since(back).Round(time.Millisecond))
	waitFor(t, "b listening again", 10*time.Second, b.Listening)
	if !waitFired(ch, 5*time.Second) {
		t.Fatal("b's subscription did not fire after the reconnect")
	}
	cs, err := b.Changes(ctx, since)
	if err != nil {
		t.Fatal(err)
	}
	if cs.Reset || !keySet(cs)["after:restart"] || keySet(cs)["during:stop"] {
		t.Fatalf("b's changes since %d = %+v, want after:restart (and not the failed write)", since, cs)
	}
	// The engine catches up by itself and stops saying it is behind.
	waitFor(t, "the engine to catch up", 5*time.Second, func() bool {
		res, err := eb.Retrieve(ctx, retrieve.Request{Query: "restart", NoLinks: true})
		return err == nil && len(res.Items) == 1 && eb.Unavailable() == nil
	})
	// And the feed works as before.
	drain(ch)
	mustPut(t, a, "later", "x", "y")
	if !waitFired(ch, time.Second) {
		t.Fatal("no notification after the reconnect")
	}
}

func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
