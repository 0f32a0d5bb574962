package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/internal/sample"
	fsstore "github.com/recallhq/recall/store/fs"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// sampleMemory is the repository's example memory. Tests work on copies
// (sample.Copy), which hold its notes and nothing a run of the README's
// first command leaves beside them.
const sampleMemory = "../../examples/memory"

// outcome is what one run of the CLI printed and returned.
type outcome struct {
	stdout, stderr string
	code           int
}

// cli runs the CLI in-process with its own environment.
type cli struct {
	t   testing.TB
	env map[string]string
}

func newCLI(t testing.TB, env map[string]string) *cli {
	if env == nil {
		env = map[string]string{}
	}
	// Never let the machine's real environment pick a store.
	if _, ok := env["HOME"]; !ok {
		env["HOME"] = t.TempDir()
	}
	return &cli{t: t, env: env}
}

func (c *cli) getenv(k string) string { return c.env[k] }

// run executes one command line with stdin (nil: no stdin).
func (c *cli) runIn(stdin io.Reader, args ...string) outcome {
	c.t.Helper()
	var out, errb bytes.Buffer
	root := newRootCmd(stdin, &out, &errb, c.getenv)
	root.SetArgs(args)
	code := execute(context.Background(), root)
	return outcome{stdout: out.String(), stderr: errb.String(), code: code}
}

func (c *cli) run(args ...string) outcome {
	c.t.Helper()
	return c.runIn(nil, args...)
}

// ok runs a command line that must succeed and returns its stdout.
func (c *cli) ok(args ...string) string {
	c.t.Helper()
	o := c.run(args...)
	if o.code != 0 {
		c.t.Fatalf("recall %s: exit %d, stderr:\n%s", strings.Join(args, " "), o.code, o.stderr)
	}
	return o.stdout
}

// fails runs a command line that must fail with one line on stderr and
// exit code want, and returns that line.
func (c *cli) fails(want int, args ...string) string {
	c.t.Helper()
	o := c.run(args...)
	return checkFailure(c.t, o, want, args)
}

func checkFailure(t testing.TB, o outcome, want int, args []string) string {
	t.Helper()
	if o.code != want {
		t.Fatalf("recall %s: exit %d, want %d; stdout %q stderr %q", strings.Join(args, " "), o.code, want, o.stdout, o.stderr)
	}
	if !strings.HasPrefix(o.stderr, "recall: ") || strings.Count(o.stderr, "\n") != 1 || !strings.HasSuffix(o.stderr, "\n") {
		t.Fatalf("recall %s: stderr is not one \"recall: ...\" line: %q", strings.Join(args, " "), o.stderr)
	}
	return strings.TrimSuffix(o.stderr, "\n")
}

// copySample copies the example memory into a fresh folder, so tests
// never change the sample.
func copySample(t testing.TB) string {
	t.Helper()
	return sample.Copy(t)
}

// folderCache is the cache folder of the folder store at dir (the index
// copy, the vector cache), as the CLI of this test process opens it.
func folderCache(t testing.TB, dir string) string {
	t.Helper()
	st, err := fsstore.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	return st.CacheDir()
}

// sampleStores returns the sample memory as an fs folder and as a bolt
// file filled by `recall import` of that folder.
func sampleStores(t *testing.T) map[string]string {
	t.Helper()
	dir := copySample(t)
	db := filepath.Join(t.TempDir(), "memory.db")
	o := newCLI(t, nil).run("--store", db, "import", dir)
	if o.code != 0 || !strings.Contains(o.stderr, "skipped 0") {
		t.Fatalf("importing the sample into bolt: exit %d, stderr:\n%s", o.code, o.stderr)
	}
	return map[string]string{"fs": dir, "bolt": db}
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it)\n--- got:\n%s\n--- want:\n%s", path, got, want)
	}
}
