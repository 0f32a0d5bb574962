package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
)

func TestUsageErrors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	tests := []struct {
		args []string
		want string // a part of the one line
	}{
		{[]string{"lss"}, `unknown command "lss", did you mean "ls"?`},
		{[]string{"ls", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"add", "trips"}, "add takes CATEGORY NAME, got 1 argument"},
		{[]string{"get"}, "get takes CATEGORY NAME, got 0 arguments"},
		{[]string{"ls", "a", "b"}, "ls takes at most one CATEGORY"},
		{[]string{"reindex", "x"}, "reindex takes no arguments"},
		{[]string{"retrieve"}, "retrieve takes a QUERY"},
		{[]string{"retrieve", "--limit", "0", "q"}, "--limit must be between 1 and 1000"},
		{[]string{"retrieve", "--alpha", "1.5", "q"}, "--alpha 1.5 is outside (0, 1]"},
		{[]string{"retrieve", "--alpha", "0", "q", "--embedder", "hash"}, "--alpha 0 is outside (0, 1]"},
		{[]string{"serve", "--alpha", "-1"}, "--alpha -1 is outside (0, 1]"},
		// bench and retrieve share one check: 0 is not "the default".
		{[]string{"bench", "--alpha", "0", "--embedder", "hash", tinyBEIR}, "--alpha 0 is outside (0, 1]"},
		{[]string{"bench", "--alpha", "NaN", "--embedder", "hash", tinyBEIR}, "--alpha NaN is outside (0, 1]"},
		{[]string{"bench", "--alpha", "0", tinyBEIR}, "--alpha 0 is outside (0, 1]"},
		{[]string{"serve", "--addr", "notanaddr"}, `--addr "notanaddr" is not a HOST:PORT address`},
		{[]string{"serve", "--token", " s3cret "}, "surrounding whitespace"},
		{[]string{"ls", "--limit", "0"}, "--limit must be between 1 and 10000"},
		{[]string{"edit", "a", "b", "--new", "x"}, "--old must give the text"},
		{[]string{"retrieve", "--limit", "many", "q"}, `invalid argument "many"`},
		{[]string{"retrieve", "--budget", "0", "q"}, "--no-budget"},
		{[]string{"retrieve", "--budget", "50", "--no-budget", "q"}, "--budget and --no-budget exclude each other"},
		{[]string{"retrieve", "--segmenter", "maybe", "q"}, "--segmenter"},
		{[]string{"add", "a", "b", "--content", "x", "--file", "f"}, "not both"},
		{[]string{"add", "a", "b"}, "no content"},
		{[]string{"add", "a", "b", "--file", ""}, "--file needs a path"},
		{[]string{"import", "--category", "a:b", "x.jsonl"}, "--category"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			c := newCLI(t, nil)
			line := c.fails(exitUsage, append([]string{"--store", dir}, tt.args...)...)
			if !strings.Contains(line, tt.want) || !strings.HasSuffix(line, " --help')") {
				t.Errorf("got %q, want it to contain %q and point to --help", line, tt.want)
			}
		})
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a failed command line created the store: %v", err)
	}
}

func TestAddFromEmptyStdinFails(t *testing.T) {
	c := newCLI(t, nil)
	dir := filepath.Join(t.TempDir(), "memory")
	o := c.runIn(strings.NewReader(""), "--store", dir, "add", "a", "b")
	line := checkFailure(t, o, exitUsage, []string{"add"})
	if !strings.Contains(line, "stdin is empty") {
		t.Errorf("got %q", line)
	}
}

func TestInvalidNames(t *testing.T) {
	for backend, path := range emptyStores(t) {
		t.Run(backend, func(t *testing.T) {
			c := newCLI(t, nil)
			tests := []struct {
				args []string
				want string
			}{
				{[]string{"add", "trips", "a/b", "--content", "x"}, `invalid name "a/b": contains '/'`},
				{[]string{"add", ".hidden", "n", "--content", "x"}, `invalid category ".hidden": must not start with '.'`},
				{[]string{"add", "c", "n", "--content", "bad \xff utf-8"}, "invalid content: is not valid UTF-8"},
				// One rule for tags (store.ValidateTag), whatever the spelling
				// of the emptiness; a control character is refused and shown
				// escaped.
				{[]string{"add", "c", "n", "--content", "x", "--tag", ""}, `invalid tags: tag "" must not be empty`},
				{[]string{"add", "c", "n", "--content", "x", "--tag", " "}, `invalid tags: tag " " must not be empty`},
				{[]string{"add", "c", "n", "--content", "x", "--tag", "ok", "--tag", "\x1b[31mred"}, `invalid tags: tag "\x1b[31mred" contains control character U+001B, which is not allowed`},
				{[]string{"get", "trips", "[[x]]"}, `invalid name "[[x]]"`},
				{[]string{"rm", "a:b", "n"}, `invalid category "a:b"`},
				{[]string{"ls", "a|b"}, `invalid category "a|b"`},
			}
			for _, tt := range tests {
				line := c.fails(exitFailure, append([]string{"--store", path}, tt.args...)...)
				if !strings.Contains(line, tt.want) {
					t.Errorf("%q: got %q, want %q", tt.args, line, tt.want)
				}
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("an invalid name created the store: %v", err)
			}
		})
	}
}

func TestMissingStore(t *testing.T) {
	for backend, path := range emptyStores(t) {
		t.Run(backend, func(t *testing.T) {
			c := newCLI(t, nil)
			for _, args := range [][]string{
				{"retrieve", "q"}, {"ls"}, {"get", "a", "b"}, {"rm", "a", "b"}, {"reindex"},
				// Servers too (issue 26): no empty store on a typo.
				{"serve", "--addr", "127.0.0.1:0"}, {"mcp"},
			} {
				o := c.runIn(strings.NewReader(""), append([]string{"--store", path}, args...)...)
				line := checkFailure(t, o, exitFailure, args)
				if !strings.Contains(line, path) || !strings.Contains(line, "store does not exist") {
					t.Errorf("%q: got %q", args, line)
				}
				if (args[0] == "serve" || args[0] == "mcp") && !strings.Contains(line, "--create") {
					t.Errorf("%q: %q does not mention --create", args, line)
				}
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("a read command created the store: %v", err)
			}
		})
	}
}

func TestStoreIsAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	line := newCLI(t, nil).fails(exitFailure, "--store", path, "ls")
	if !strings.Contains(line, "is a file, not a folder") || !strings.Contains(line, ".db") {
		t.Errorf("got %q", line)
	}
	// A file that is not a recall database, named *.db.
	db := filepath.Join(t.TempDir(), "other.db")
	if err := os.WriteFile(db, []byte(strings.Repeat("not bolt ", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	line = newCLI(t, nil).fails(exitFailure, "--store", db, "ls")
	if !strings.Contains(line, "not a recall database") {
		t.Errorf("got %q", line)
	}
}

// An existing folder named *.db is an fs store, not a bolt file.
func TestFolderNamedDB(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory.db")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, nil)
	c.ok("--store", dir, "add", "notes", "n", "--content", "x")
	if _, err := os.Stat(filepath.Join(dir, "notes", "n.md")); err != nil {
		t.Fatal(err)
	}
}

// A bolt file held by another process (here: another open in this one,
// which bbolt refuses the same way) fails after the lock timeout with one
// clear line, and is unlocked again once released.
func TestLockedBoltStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	c := newCLI(t, nil)
	c.ok("--store", db, "add", "notes", "n", "--content", "x")

	held, err := boltstore.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	line := c.fails(exitFailure, "--store", db, "ls")
	if !strings.Contains(line, store.ErrLocked.Error()) || !strings.Contains(line, db) {
		t.Errorf("got %q, want the path and %q", line, store.ErrLocked)
	}
	if err := held.Close(); err != nil {
		t.Fatal(err)
	}
	if got := c.ok("--store", db, "ls"); got != "notes:n\n" {
		t.Errorf("after release: %q", got)
	}
	// Every command closes the store: two in a row never lock each other.
	c.ok("--store", db, "get", "notes", "n")
	c.ok("--store", db, "retrieve", "n")
}

func TestMalformedFileOnGet(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	if err := os.MkdirAll(filepath.Join(dir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes", "bad.md"), []byte("x \xff") /* not UTF-8; "created: someday" is kept verbatim since issue 24 */, 0o644); err != nil {
		t.Fatal(err)
	}
	line := newCLI(t, nil).fails(exitFailure, "--store", dir, "get", "notes", "bad")
	if !strings.Contains(line, fsstore.ErrMalformed.Error()) || !strings.Contains(line, "UTF-8") {
		t.Errorf("got %q", line)
	}
}

func TestHelp(t *testing.T) {
	c := newCLI(t, nil)
	for _, args := range [][]string{{}, {"--help"}, {"retrieve", "--help"}} {
		o := c.run(args...)
		if o.code != 0 || o.stderr != "" || !strings.Contains(o.stdout, "Usage:") {
			t.Errorf("%q: %+v", args, o)
		}
	}
	if out := c.ok("retrieve", "--help"); !strings.Contains(out, "--segmenter") || !strings.Contains(out, "100 MB") {
		t.Errorf("retrieve --help does not explain --segmenter:\n%s", out)
	}
}

// A store path with a typo in its folders creates nothing (SPEC §8): the
// store itself may be created, never the folders above it.
func TestStoreTypoCreatesNoFolders(t *testing.T) {
	base := t.TempDir()
	for _, p := range []string{"nonexistent/dir/x.db", "nonexistent/dir/memory"} {
		path := filepath.Join(base, p)
		for _, args := range [][]string{{"add", "a", "b", "--content", "x"}, {"mcp"}, {"serve", "--addr", "127.0.0.1:0"}} {
			o := newCLI(t, nil).runIn(strings.NewReader(""), append([]string{"--store", path}, args...)...)
			msg := checkFailure(t, o, exitFailure, args)
			if !strings.Contains(msg, "does not exist") {
				t.Errorf("%s %v: %s", p, args, msg)
			}
			if _, err := os.Stat(filepath.Join(base, "nonexistent")); err == nil {
				t.Fatalf("%s %v created the missing folders", p, args)
			}
		}
	}
	// The store itself is created when its folder exists.
	newCLI(t, nil).ok("--store", filepath.Join(base, "new.db"), "add", "a", "b", "--content", "x")
}

func TestVersion(t *testing.T) {
	if out := newCLI(t, nil).ok("--version"); !strings.HasPrefix(out, "recall ") || !strings.HasSuffix(out, "\n") {
		t.Errorf("--version: %q", out)
	}
}

// retrieve says which entries it could not read (issue 9), on stderr, and
// still answers from the rest.
func TestRetrieveReportsUnreadable(t *testing.T) {
	dir := copySample(t)
	if err := os.WriteFile(filepath.Join(dir, "notes", "broken.md"), []byte("quokka \xff") /* not UTF-8; broken front matter is read since issue 24 */, 0o644); err != nil {
		t.Fatal(err)
	}
	o := newCLI(t, nil).run("--store", dir, "retrieve", "海边")
	if o.code != 0 || !strings.Contains(o.stderr, "skipped ") || !strings.Contains(o.stderr, "broken.md") || o.stdout == "" {
		t.Errorf("retrieve over an unreadable entry: %+v", o)
	}
}

// On a terminal, get ends with a line break even when the content has
// none, so the prompt does not start on its last line; in a pipe the
// content stays byte for byte. The terminal comes from script(1).
func TestGetNewlineOnTerminal(t *testing.T) {
	scriptBin, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) to give the command a terminal")
	}
	dir := filepath.Join(t.TempDir(), "m")
	c := newCLI(t, nil)
	c.ok("--store", dir, "add", "a", "b", "--content", "no newline")
	if out := c.ok("--store", dir, "get", "a", "b"); out != "no newline" {
		t.Errorf("get in a pipe: %q", out)
	}
	cmd := exec.Command(scriptBin, "-qec", recallBinary(t)+" --store '"+dir+"' get a b", "/dev/null")
	cmd.Env = childEnv(t)
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("script(1) could not run here: %v", err)
	}
	if got := strings.ReplaceAll(string(out), "\r\n", "\n"); got != "no newline\n" {
		t.Errorf("get on a terminal: %q", out)
	}
}

// A tag with an escape sequence written into a file by hand (validation
// keeps recall from writing one) is listed with its control characters
// escaped: stored bytes never drive the terminal.
func TestStoredControlCharactersEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	c := newCLI(t, nil)
	c.ok("--store", dir, "add", "notes", "x", "--content", "hello")
	raw := "---\ntags: [\"\\e[2Jred\"]\n---\nhello\n"
	if err := os.WriteFile(filepath.Join(dir, "notes", "x.md"), []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	out := c.ok("--store", dir, "ls", "--long")
	if strings.Contains(out, "\x1b") || !strings.Contains(out, `\x1b[2Jred`) {
		t.Errorf("ls --long = %q, want the tag's ESC escaped as \\x1b", out)
	}
	// An error that echoes the stored bytes escapes them too.
	o := c.run("--store", dir, "append", "notes", "x", "--text", "more")
	if o.code != exitFailure || strings.Contains(o.stderr, "\x1b") || !strings.Contains(o.stderr, `tag "\x1b[2Jred"`) {
		t.Errorf("append over a stored tag with a control character: %+v", o)
	}
}

// A vault with many broken notes gets one line about them per retrieve,
// not one per note (issue 24); reindex names each.
func TestRetrieveSummarisesUnreadable(t *testing.T) {
	dir := copySample(t)
	for _, n := range []string{"broken1", "broken2", "broken3"} {
		if err := os.WriteFile(filepath.Join(dir, "notes", n+".md"), []byte("quokka \xff") /* not UTF-8; broken front matter is read since issue 24 */, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := newCLI(t, nil)
	for range 2 { // without a copy, then from it
		o := c.run("--store", dir, "retrieve", "海边")
		if o.code != 0 || o.stdout == "" || strings.Count(o.stderr, "\n") != 1 ||
			!strings.HasPrefix(o.stderr, "skipped 3 entries that could not be read, the first: ") ||
			!strings.Contains(o.stderr, "broken1.md") || !strings.HasSuffix(o.stderr, "(recall reindex names them all)\n") {
			t.Errorf("retrieve over three unreadable entries: %+v", o)
		}
	}
	o := c.run("--store", dir, "reindex")
	if o.code != exitFailure || strings.Count(o.stderr, "\nskipped ")+boolInt(strings.HasPrefix(o.stderr, "skipped ")) != 3 {
		t.Errorf("reindex: %+v", o)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
