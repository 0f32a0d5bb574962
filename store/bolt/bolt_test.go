package bolt

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/storetest"
)

var ctx = context.Background()

// childEnv makes the test binary act as a helper process (runChild)
// instead of running tests.
const childEnv = "RECALL_BOLT_TEST_CHILD"

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		os.Exit(runChild(mode, os.Getenv("RECALL_BOLT_TEST_PATH")))
	}
	os.Exit(m.Run())
}

func tempPath(t *testing.T) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "recall.db")
}

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(tempPath(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func mustPut(t *testing.T, s store.Store, category, name, content string) {
	t.Helper()
	if err := s.Put(ctx, store.Entry{Category: category, Name: name, Content: content}); err != nil {
		t.Fatal(err)
	}
}

func revision(t *testing.T, s store.Store) uint64 {
	t.Helper()
	r, err := s.Revision(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := Open(tempPath(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func TestReopenKeepsEntriesAndRevision(t *testing.T) {
	path := tempPath(t)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustPut(t, s, "people", "alice", "Alice likes the sea.")
	mustPut(t, s, "people", "bob", "Bob")
	if err := s.Delete(ctx, "people", "bob"); err != nil {
		t.Fatal(err)
	}
	r := revision(t, s)
	if r != 3 {
		t.Fatalf("revision after 3 writes = %d, want 3", r)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := revision(t, s); got != r {
		t.Fatalf("revision after reopen = %d, want %d", got, r)
	}
	e, err := s.Get(ctx, "people", "alice")
	if err != nil || e.Content != "Alice likes the sea." {
		t.Fatalf("Get after reopen = %+v, %v", e, err)
	}
	if _, err := s.Get(ctx, "people", "bob"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted entry after reopen: %v", err)
	}
	mustPut(t, s, "people", "carol", "Carol")
	if got := revision(t, s); got <= r {
		t.Fatalf("revision after a write following reopen = %d, want > %d", got, r)
	}
}

func TestPutTimestamps(t *testing.T) {
	s := openTemp(t)
	before := time.Now()
	mustPut(t, s, "a", "b", "one")
	first, err := s.Get(ctx, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	if first.Meta.Created.Before(before.Add(-time.Second)) || !first.Meta.Created.Equal(first.Meta.Updated) {
		t.Fatalf("first Put: created %v, updated %v", first.Meta.Created, first.Meta.Updated)
	}
	// An explicit Updated is kept as given; Created still comes from the old entry.
	upd := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := s.Put(ctx, store.Entry{Category: "a", Name: "b", Content: "two", Meta: store.Meta{Updated: upd}}); err != nil {
		t.Fatal(err)
	}
	second, err := s.Get(ctx, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	if !second.Meta.Created.Equal(first.Meta.Created) || !second.Meta.Updated.Equal(upd) {
		t.Fatalf("second Put: created %v (want %v), updated %v (want %v)",
			second.Meta.Created, first.Meta.Created, second.Meta.Updated, upd)
	}
}

func TestPutUnrepresentableExtra(t *testing.T) {
	s := openTemp(t)
	r0 := revision(t, s)
	err := s.Put(ctx, store.Entry{Category: "a", Name: "b", Content: "c", Meta: store.Meta{Extra: map[string]any{"f": func() {}}}})
	if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "metadata") {
		t.Fatalf("Put with a func in Extra = %v, want ErrInvalid naming metadata", err)
	}
	if _, err := s.Get(ctx, "a", "b"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("failed Put wrote something: %v", err)
	}
	if r := revision(t, s); r != r0 {
		t.Fatalf("failed Put moved the revision from %d to %d", r0, r)
	}
}

func TestContextCancelled(t *testing.T) {
	s := openTemp(t)
	mustPut(t, s, "a", "b", "c")
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Get(cctx, "a", "b"); !errors.Is(err, context.Canceled) {
		t.Errorf("Get = %v, want context.Canceled", err)
	}
	if err := s.Put(cctx, store.Entry{Category: "a", Name: "b", Content: "d"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Put = %v, want context.Canceled", err)
	}
	if err := s.Delete(cctx, "a", "b"); !errors.Is(err, context.Canceled) {
		t.Errorf("Delete = %v, want context.Canceled", err)
	}
	if _, err := s.Revision(cctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Revision = %v, want context.Canceled", err)
	}
	if e, err := s.Get(ctx, "a", "b"); err != nil || e.Content != "c" {
		t.Errorf("cancelled Put changed the entry: %+v, %v", e, err)
	}
}

// More entries than one chunk, with the loop body deleting and adding
// entries: every untouched entry is yielded exactly once, none twice, and an
// entry deleted beyond the current chunk is not yielded (chunks are read
// fresh, not from a stale snapshot).
func TestAllAcrossChunks(t *testing.T) {
	s := openTemp(t)
	const n = 3*chunkSize + 17
	for i := range n {
		mustPut(t, s, "c", fmt.Sprintf("n%04d", i), fmt.Sprint(i))
	}
	seen := map[store.Key]int{}
	deleted := map[string]bool{}
	for e, err := range s.All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		seen[e.Key()]++
		var i int
		if _, err := fmt.Sscanf(e.Name, "n%04d", &i); err != nil || e.Category != "c" {
			continue
		}
		if i%50 == 0 && i+chunkSize+5 < n {
			far := fmt.Sprintf("n%04d", i+chunkSize+5)
			if err := s.Delete(ctx, "c", far); err != nil {
				t.Fatal(err)
			}
			deleted[far] = true
			mustPut(t, s, "a-behind", e.Name, "new")
			mustPut(t, s, "z-ahead", e.Name, "new")
		}
	}
	if len(deleted) == 0 {
		t.Fatal("the test deleted nothing")
	}
	for k, times := range seen {
		if times > 1 {
			t.Errorf("%s yielded %d times", k, times)
		}
	}
	for i := range n {
		k := store.Key{Category: "c", Name: fmt.Sprintf("n%04d", i)}
		want := 1
		if deleted[k.Name] {
			want = 0
		}
		if seen[k] != want {
			t.Errorf("%s yielded %d times, want %d", k, seen[k], want)
		}
	}
}

// The loop body grows the file far beyond its memory map. Were All holding a
// read transaction while yielding, bbolt's remap would wait for it forever.
func TestAllBodyGrowsFile(t *testing.T) {
	// No Close in a cleanup: after a deadlock it would wait forever for the
	// stuck call; the failing test leaks the store instead.
	s, err := Open(tempPath(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		mustPut(t, s, "seed", fmt.Sprint(i), "x")
	}
	big := strings.Repeat("0123456789abcdef", store.MaxContentBytes/16)
	done := make(chan error, 1)
	go func() {
		i := 0
		for e, err := range s.All(ctx) {
			if err != nil {
				done <- err
				return
			}
			if e.Category != "seed" {
				continue
			}
			for range 6 {
				i++
				if err := s.Put(ctx, store.Entry{Category: "big", Name: fmt.Sprint(i), Content: big}); err != nil {
					done <- err
					return
				}
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("writing from inside All deadlocked")
	}
	defer s.Close()
	e, err := s.Get(ctx, "big", "18")
	if err != nil || e.Content != big {
		t.Fatalf("big entry: %v (len %d)", err, len(e.Content))
	}
}

func TestAllStops(t *testing.T) {
	s := openTemp(t)
	for i := range chunkSize + 10 {
		mustPut(t, s, "c", fmt.Sprint(i), "x")
	}
	t.Run("cancel", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var n int
		var last error
		for _, err := range s.All(cctx) {
			if err != nil {
				last = err
				continue // a consumer that skips errors must still stop
			}
			if n++; n == 3 {
				cancel()
			}
		}
		if n != 3 || !errors.Is(last, context.Canceled) {
			t.Fatalf("after cancel: %d entries, last error %v; want 3 and context.Canceled", n, last)
		}
	})
	t.Run("close", func(t *testing.T) {
		s, err := Open(tempPath(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range chunkSize + 10 {
			mustPut(t, s, "c", fmt.Sprint(i), "x")
		}
		var n int
		var last error
		for _, err := range s.All(ctx) {
			if err != nil {
				last = err
				continue
			}
			if n++; n == 1 {
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
			}
		}
		// The first chunk was read before Close; the second is refused.
		if n != chunkSize || !errors.Is(last, store.ErrClosed) {
			t.Fatalf("after Close: %d entries, last error %v; want %d and ErrClosed", n, last, chunkSize)
		}
	})
}

// A damaged record is reported, by name, and does not stop iteration.
func TestCorruptRecord(t *testing.T) {
	s := openTemp(t)
	mustPut(t, s, "a", "good1", "x")
	mustPut(t, s, "a", "good2", "y")
	err := s.db.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketEntries).Put(encodeKey("a", "bad"), []byte{1, 200})
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "a", "bad"); !errors.Is(err, errCorrupt) || !strings.Contains(err.Error(), "a:bad") {
		t.Fatalf("Get of damaged record = %v", err)
	}
	var good, bad int
	for e, err := range s.All(ctx) {
		switch {
		case err != nil && strings.Contains(err.Error(), "a:bad"):
			bad++
		case err != nil:
			t.Fatal(err)
		case e.Name == "good1" || e.Name == "good2":
			good++
		}
	}
	if good != 2 || bad != 1 {
		t.Fatalf("All yielded %d good entries and %d errors, want 2 and 1", good, bad)
	}
	// Replacing a damaged record works and gives it a fresh creation time.
	mustPut(t, s, "a", "bad", "fixed")
	if e, err := s.Get(ctx, "a", "bad"); err != nil || e.Content != "fixed" || e.Meta.Created.IsZero() {
		t.Fatalf("after repair: %+v, %v", e, err)
	}
}

func TestOpenOptions(t *testing.T) {
	if _, err := Open(tempPath(t), &Options{Timeout: -time.Second}); err == nil {
		t.Fatal("negative timeout accepted")
	}
	s, err := Open(tempPath(t), &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.db.NoSync {
		t.Fatal("NoSync not passed to bbolt")
	}
	mustPut(t, s, "a", "b", "c")
}

func TestOpenMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "x.db")
	_, err := Open(path, nil)
	if err == nil || !strings.Contains(err.Error(), path) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open in a missing directory = %v", err)
	}
}

// bbolt's flock belongs to the open file description, so a second Open in
// the same process is refused like one from another process.
func TestOpenLockedInProcess(t *testing.T) {
	path := tempPath(t)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(path, &Options{Timeout: 100 * time.Millisecond})
	if !errors.Is(err, store.ErrLocked) || !strings.Contains(err.Error(), path) {
		t.Fatalf("second Open = %v, want ErrLocked naming %s", err, path)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path, &Options{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	_ = s2.Close()
}

func TestOpenLockedByOtherProcess(t *testing.T) {
	path := tempPath(t)
	child := startChild(t, "hold", path)
	child.waitReady(t)

	_, err := Open(path, &Options{Timeout: 200 * time.Millisecond})
	if !errors.Is(err, store.ErrLocked) {
		t.Fatalf("Open while another process holds the file = %v, want ErrLocked", err)
	}
	for _, want := range []string{path, "locked by another process", "200ms"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q does not mention %q", err, want)
		}
	}

	// The kernel drops the lock of a killed holder: no stale lock.
	child.kill()
	s, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open after the holder died: %v", err)
	}
	_ = s.Close()
}

func TestOpenNotDatabase(t *testing.T) {
	foreignBolt := func(t *testing.T, path string) {
		db, err := bbolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = db.Update(func(tx *bbolt.Tx) error {
			b, err := tx.CreateBucket([]byte("widgets"))
			if err != nil {
				return err
			}
			return b.Put([]byte("k"), []byte("v"))
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// A bucket called like recall's but without a format version.
	lookalike := func(t *testing.T, path string) {
		db, err := bbolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = db.Update(func(tx *bbolt.Tx) error {
			_, err := tx.CreateBucket(bucketMeta)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		_ = db.Close()
	}
	bytesFile := func(b []byte) func(*testing.T, string) {
		return func(t *testing.T, path string) {
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	noise := make([]byte, 64<<10)
	for i := range noise {
		noise[i] = byte(i*7 + i/251)
	}
	cases := []struct {
		name   string
		make   func(*testing.T, string)
		reason string
	}{
		{"text file", bytesFile([]byte("# notes\nnot a database\n")), "not a bbolt database"},
		{"noise", bytesFile(noise), "not a bbolt database"},
		{"foreign bolt file", foreignBolt, `"widgets"`},
		{"meta bucket without version", lookalike, "format version"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := tempPath(t)
			tc.make(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Open(path, nil)
			if !errors.Is(err, ErrNotDatabase) {
				t.Fatalf("Open = %v, want ErrNotDatabase", err)
			}
			for _, want := range []string{path, tc.reason} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("message %q does not mention %q", err, want)
				}
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(after) != string(before) {
				t.Error("refused file was modified")
			}
			// The refused file was released: a raw bbolt open does not wait.
			if db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: 100 * time.Millisecond}); errors.Is(err, berrors.ErrTimeout) {
				t.Error("refused file is still locked")
			} else if err == nil {
				_ = db.Close()
			}
		})
	}
}

func TestOpenNewerFormat(t *testing.T) {
	path := tempPath(t)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keyFormat, []byte{FormatVersion + 1})
	})
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	_, err = Open(path, nil)
	if !errors.Is(err, ErrNewerFormat) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), fmt.Sprint(FormatVersion+1)) {
		t.Fatalf("Open of a newer format = %v, want ErrNewerFormat naming the path and version", err)
	}
}

// An empty bbolt file has nothing to lose, so it is adopted; a file that has
// recall's buckets plus others (a newer recall's extras) is accepted as is.
func TestOpenAdopts(t *testing.T) {
	path := tempPath(t)
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	s, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open of an empty bbolt file: %v", err)
	}
	mustPut(t, s, "a", "b", "c")
	err = s.db.Update(func(tx *bbolt.Tx) error {
		_, err := tx.CreateBucket([]byte("recall.future"))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	s, err = Open(path, nil)
	if err != nil {
		t.Fatalf("Open with an extra bucket: %v", err)
	}
	defer s.Close()
	if e, err := s.Get(ctx, "a", "b"); err != nil || e.Content != "c" {
		t.Fatalf("Get = %+v, %v", e, err)
	}
}

// child is a helper process running this test binary (see runChild).
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	exited chan struct{}
}

// startChild runs the test binary in helper mode. Cleanup kills it, and the
// child also exits when its stdin closes, so it cannot outlive the test.
func startChild(t *testing.T, mode, path string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, "RECALL_BOLT_TEST_PATH="+path)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, stdin: stdin, lines: make(chan string, 16), exited: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	go func() {
		_ = cmd.Wait()
		close(c.exited)
	}()
	t.Cleanup(c.kill)
	return c
}

// waitReady waits for the child to report that it holds the store.
func (c *child) waitReady(t *testing.T) {
	t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok || line != "ready" {
			c.kill()
			t.Fatalf("helper process did not get ready: %q", line)
		}
	case <-time.After(30 * time.Second):
		c.kill()
		t.Fatal("helper process did not report ready within 30s")
	}
}

// kill ends the child with SIGKILL (on Unix) and waits until it is gone.
func (c *child) kill() {
	_ = c.cmd.Process.Kill()
	<-c.exited
	_ = c.stdin.Close()
}

// runChild is the helper process. "hold" opens the store and keeps it open;
// "churn" overwrites crash-test entries forever (see crash_test.go). Both
// print "ready" once the store is open and exit when stdin closes.
func runChild(mode, path string) int {
	opts := &Options{Timeout: 10 * time.Second}
	if mode == "churnconc" || mode == "churnupdate" {
		opts.History = 1 << 22 // every revision stays in the history
	}
	s, err := Open(path, opts)
	if err != nil {
		fmt.Println("open:", err)
		return 1
	}
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	switch mode {
	case "hold":
		fmt.Println("ready")
		for {
			time.Sleep(time.Hour)
		}
	case "churn":
		fmt.Println("ready")
		if err := churn(s); err != nil {
			fmt.Fprintln(os.Stderr, "churn:", err)
			return 1
		}
	case "churnconc", "churnupdate":
		fmt.Println("ready")
		if err := churnConcurrent(s, path, mode == "churnupdate"); err != nil {
			fmt.Fprintln(os.Stderr, "churn concurrent:", err)
			return 1
		}
	case "churnbatch":
		fmt.Println("ready")
		if err := churnBatch(s); err != nil {
			fmt.Fprintln(os.Stderr, "churn batch:", err)
			return 1
		}
	default:
		fmt.Println("unknown helper mode", mode)
	}
	return 1
}

// Opened read-only, a file is read as usual and every write fails with
// ErrReadOnly, naming the file.
func TestOpenReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(context.Background(), store.Entry{Category: "a", Name: "b", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	ro, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if e, err := ro.Get(context.Background(), "a", "b"); err != nil || e.Content != "x" {
		t.Fatalf("get: %+v %v", e, err)
	}
	err = ro.Put(context.Background(), store.Entry{Category: "a", Name: "c", Content: "y"})
	if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), path) {
		t.Fatalf("put on a read-only store: %v", err)
	}
	if err := ro.Delete(context.Background(), "a", "b"); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("delete on a read-only store: %v", err)
	}
}

func TestSorter(t *testing.T) {
	storetest.RunSorter(t, func(t *testing.T) store.Store {
		s, err := Open(tempPath(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
