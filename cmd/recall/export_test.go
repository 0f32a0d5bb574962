package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	boltstore "github.com/recallhq/recall/store/bolt"
)

// export, backup and restore from the command line, on every local
// backend: what export prints, import reads back into an identical store;
// restore refuses a store that holds entries unless --force, which then
// leaves exactly the backup.
func TestExportBackupRestore(t *testing.T) {
	for backend, src := range emptyStores(t) {
		t.Run(backend, func(t *testing.T) {
			c := newCLI(t, nil)
			c.ok("--store", src, "add", "trips", "三亚之行", "--content", "想去海边玩 [[people:阿杰]]", "--tag", "海边")
			c.ok("--store", src, "add", "people", "阿杰", "--content", "friend")
			out := c.run("--store", src, "export")
			if out.code != 0 || strings.Count(out.stdout, "\n") != 2 || out.stderr != "exported 2 entries\n" ||
				!strings.HasPrefix(out.stdout, `{"category":"people","name":"阿杰","content":"friend","meta":{"created":"`) {
				t.Fatalf("export: %+v", out)
			}
			dir := t.TempDir()
			file := filepath.Join(dir, "e.jsonl")
			writeFile(t, file, out.stdout)
			for name, dst := range map[string]string{"bolt": filepath.Join(dir, "copy.db"), "fs": filepath.Join(dir, "copy")} {
				if o := c.run("--store", dst, "import", file); o.code != 0 || o.stderr != "imported 2, unchanged 0, skipped 0\n" {
					t.Fatalf("%s: import: %+v", name, o)
				}
				if again := c.ok("--store", dst, "export"); again != out.stdout {
					t.Errorf("%s: the copy exports\n%s\nwant\n%s", name, again, out.stdout)
				}
			}

			folder := filepath.Join(dir, "folder")
			if o := c.run("--store", src, "export", "--output", folder); o.code != 0 || o.stderr != "exported 2 entries\n" {
				t.Fatalf("export --output: %+v", o)
			}
			if _, err := os.Stat(filepath.Join(folder, "trips", "三亚之行.md")); err != nil {
				t.Error(err)
			}
			if line := c.fails(exitFailure, "--store", src, "export", "--output", folder); !strings.Contains(line, "already exists") {
				t.Errorf("export over a folder: %q", line)
			}
			if line := c.fails(exitUsage, "--store", src, "export", "--output", filepath.Join(dir, "x.db")); !strings.Contains(line, "recall backup") {
				t.Errorf("export to .db: %q", line)
			}

			backup := filepath.Join(dir, "b.jsonl")
			if backend == "bolt" {
				backup = filepath.Join(dir, "b.db")
			}
			if o := c.run("--store", src, "backup", backup); o.code != 0 {
				t.Fatalf("backup: %+v", o)
			}
			restored := filepath.Join(dir, "restored.db")
			if o := c.run("--store", restored, "restore", backup); o.code != 0 || o.stderr != "restored 2 entries\n" {
				t.Fatalf("restore: %+v", o)
			}
			if got := c.ok("--store", restored, "export"); got != out.stdout {
				t.Errorf("restored store exports\n%s\nwant\n%s", got, out.stdout)
			}
			c.ok("--store", restored, "add", "extra", "note", "--content", "not in the backup")
			if line := c.fails(exitFailure, "--store", restored, "restore", backup); !strings.Contains(line, "not empty") || !strings.Contains(line, "--force") {
				t.Errorf("restore into a non-empty store: %q", line)
			}
			if o := c.run("--store", restored, "restore", "--force", backup); o.code != 0 || o.stderr != "restored 2 entries, deleted 1 not in the backup\n" {
				t.Errorf("restore --force: %+v", o)
			}
			if got := c.ok("--store", restored, "export"); got != out.stdout {
				t.Errorf("after --force the store exports\n%s\nwant\n%s", got, out.stdout)
			}
		})
	}
}

// Files of other tools are told by content; --format forces one; a second
// import writes nothing.
func TestImportOtherTools(t *testing.T) {
	dir := filepath.Join("..", "..", "importer", "testdata", "tools")
	st := filepath.Join(t.TempDir(), "m.db")
	c := newCLI(t, nil)
	for file, want := range map[string]string{
		"memory.jsonl":               "imported 3, unchanged 0, skipped 3\n",
		"chatgpt-conversations.json": "imported 3, unchanged 0, skipped 1\n",
		"claude-conversations.json":  "imported 2, unchanged 0, skipped 1\n",
		"mem0-memories.json":         "imported 2, unchanged 0, skipped 1\n",
	} {
		o := c.run("--store", st, "import", filepath.Join(dir, file))
		if o.code != 0 || !strings.HasSuffix(o.stderr, want) {
			t.Errorf("%s: %+v", file, o)
		}
		o = c.run("--store", st, "import", filepath.Join(dir, file))
		if !strings.Contains(o.stderr, "imported 0, unchanged") {
			t.Errorf("%s again: %+v", file, o)
		}
	}
	if ls := c.ok("--store", st, "ls", "person"); ls != "person:John_Smith\n" {
		t.Errorf("ls person: %q", ls)
	}
	o := c.run("--store", st, "import", "--format", "jsonl", filepath.Join(dir, "memory.jsonl"))
	if o.code != exitFailure || !strings.HasSuffix(o.stderr, "imported 0, unchanged 0, skipped 8\nrecall: import: nothing imported, all 8 items were skipped\n") {
		t.Errorf("--format jsonl: %+v", o)
	}
	if line := c.fails(exitUsage, "--store", st, "import", "--format", "notion", filepath.Join(dir, "memory.jsonl")); !strings.Contains(line, "unknown format") {
		t.Errorf("--format notion: %q", line)
	}
}

// A bolt file another process holds (a running server) cannot be backed
// up by a second process: the error says where its backup comes from.
func TestBackupLockedStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	c := newCLI(t, nil)
	c.ok("--store", path, "add", "a", "b", "--content", "x")
	held, err := boltstore.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	dest := filepath.Join(t.TempDir(), "b.db")
	if line := c.fails(exitFailure, "--store", path, "backup", dest); !strings.Contains(line, "locked") || !strings.Contains(line, "GET /v1/backup") {
		t.Errorf("got %q", line)
	}
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Errorf("dest: %v", err)
	}
}
