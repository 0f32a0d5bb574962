package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/internal/zipsafe"
	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
)

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestImportJSONL(t *testing.T) {
	lines := []string{
		/* 1 */ `{"category":"trips","name":"三亚之行","content":"住在海边。","meta":{"tags":["travel","海边"],"created":"2024-03-02T09:15:00Z","mood":"sunny","rating":5,"big":12345678901234567}}`,
		/* 2 */ ``,
		/* 3 */ `{not json`,
		/* 4 */ `{"category":"trips","name":"x"}`,
		/* 5 */ `{"category":"trips","name":"a/b","content":"x"}`,
		/* 6 */ `{"catgory":"trips","name":"x","content":"x"}`,
		/* 7 */ `{"category":"trips","name":"x","content":"x","meta":{"tags":[1]}}`,
		/* 8 */ "{\"category\":\"trips\",\"name\":\"x\",\"content\":\"bad \xff\"}",
		/* 9 */ `{"category":"trips","name":"三亚之行","content":"again"}`,
		/* 10 */ "{\"category\":\"people\",\"name\":\"alice\",\"content\":\"<likes> tea & cake\\n\"}\r",
		/* 11 */ `{"category":5,"name":"x","content":"x"}`,
		/* 12 */ `{"category":"trips","name":"x","content":"x","meta":{"created":"last tuesday"}}`,
		/* 13 */ `["category","name","content"]`,
		/* 14 */ `{"category":"trips","name":"x","content":"x"} {"category":"trips","name":"y","content":"y"}`,
		/* 15 */ `{"category":"trips","name":"x","content":"x","meta":"travel"}`,
		/* 16 */ `   `,
		/* 17 */ `{"category":"notes","name":"last","content":"no newline after me","meta":{"updated":"2025-01-02"}}`,
	}
	src := filepath.Join(t.TempDir(), "data.jsonl")
	writeFile(t, src, "\xef\xbb\xbf"+strings.Join(lines, "\n"))

	for backend, path := range emptyStores(t) {
		t.Run(backend, func(t *testing.T) {
			c := newCLI(t, nil)
			o := c.run("--store", path, "import", src)
			if o.code != 0 || o.stdout != "" {
				t.Fatalf("import: %+v", o)
			}
			want := []struct {
				line   int
				reason string
			}{
				{3, "not valid JSON at byte 2: invalid character 'n' looking for beginning of object key string"},
				{4, "missing content"},
				{5, `invalid name "a/b": contains '/'`},
				{6, `unknown field "catgory"`},
				{7, "meta.tags: item 1 is a number, want a string"},
				{8, "not valid UTF-8"},
				{9, "trips:三亚之行 was already read from " + src + ":1"},
				{11, "category is a JSON number, want a string"},
				{12, `meta.created: "last tuesday" is not a time`},
				{13, "is a JSON array, want an object"},
				{14, "more than one JSON value on the line"},
				{15, "meta is a JSON string, want an object"},
			}
			report := strings.Split(strings.TrimSuffix(o.stderr, "\n"), "\n")
			if len(report) != len(want)+1 {
				t.Fatalf("stderr has %d lines, want %d:\n%s", len(report), len(want)+1, o.stderr)
			}
			for i, w := range want {
				prefix := fmt.Sprintf("skipped %s:%d: %s", src, w.line, w.reason)
				if !strings.HasPrefix(report[i], prefix) {
					t.Errorf("report line %d = %q, want it to start with %q", i+1, report[i], prefix)
				}
			}
			if last := report[len(report)-1]; last != "imported 3, unchanged 0, skipped 12" {
				t.Errorf("summary = %q", last)
			}

			if got := c.ok("--store", path, "ls"); got != "notes:last\npeople:alice\ntrips:三亚之行\n" {
				t.Errorf("ls = %q", got)
			}
			if got := c.ok("--store", path, "get", "people", "alice"); got != "<likes> tea & cake\n" {
				t.Errorf("CRLF line: content = %q", got)
			}
			var e struct {
				Content string         `json:"content"`
				Meta    map[string]any `json:"meta"`
			}
			dec := json.NewDecoder(strings.NewReader(c.ok("--store", path, "get", "--json", "trips", "三亚之行")))
			dec.UseNumber()
			if err := dec.Decode(&e); err != nil {
				t.Fatal(err)
			}
			// The first line won over its duplicate, metadata and all.
			if e.Content != "住在海边。" || e.Meta["created"] != "2024-03-02T09:15:00Z" || e.Meta["mood"] != "sunny" ||
				e.Meta["rating"] != json.Number("5") || e.Meta["big"] != json.Number("12345678901234567") {
				t.Errorf("trips:三亚之行 = %+v", e)
			}
			if tags, _ := e.Meta["tags"].([]any); !slices.Equal(tags, []any{"travel", "海边"}) {
				t.Errorf("tags = %v", e.Meta["tags"])
			}
			last := decodeEntry(t, c.ok("--store", path, "get", "--json", "notes", "last"))
			if last.Meta.Updated != "2025-01-02T00:00:00Z" {
				t.Errorf("bare date: updated = %q", last.Meta.Updated)
			}
		})
	}
}

// What get --json prints, import reads back to the same entry.
func TestGetJSONImportsBack(t *testing.T) {
	src := filepath.Join(t.TempDir(), "a.db")
	dst := filepath.Join(t.TempDir(), "b")
	c := newCLI(t, nil)
	c.ok("--store", src, "add", "trips", "三亚之行", "--content", "line1\nline2 \"quoted\"\n", "--tag", "x")
	line := c.ok("--store", src, "get", "--json", "trips", "三亚之行")
	o := c.runIn(strings.NewReader(line), "--store", dst, "import", "-")
	if o.code != 0 || o.stderr != "imported 1, unchanged 0, skipped 0\n" {
		t.Fatalf("import -: %+v", o)
	}
	if again := c.ok("--store", dst, "get", "--json", "trips", "三亚之行"); again != line {
		t.Errorf("round trip changed the entry\n got %s\nwant %s", again, line)
	}
}

func TestImportNothingValid(t *testing.T) {
	src := filepath.Join(t.TempDir(), "bad.jsonl")
	writeFile(t, src, "{\n[]\n")
	for backend, path := range emptyStores(t) {
		t.Run(backend, func(t *testing.T) {
			o := newCLI(t, nil).run("--store", path, "import", src)
			if o.code != exitFailure {
				t.Fatalf("exit %d, want %d", o.code, exitFailure)
			}
			want := fmt.Sprintf("skipped %s:1: not valid JSON: unexpected end of line\n"+
				"skipped %s:2: is a JSON array, want an object\n"+
				"imported 0, unchanged 0, skipped 2\n"+
				"recall: import: nothing imported, all 2 items were skipped\n", src, src)
			if o.stderr != want {
				t.Errorf("stderr =\n%s\nwant\n%s", o.stderr, want)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("an import with nothing to write created the store: %v", err)
			}
		})
	}
	// An empty file is not a failure.
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	writeFile(t, empty, "\n\n")
	o := newCLI(t, nil).run("--store", filepath.Join(t.TempDir(), "m"), "import", empty)
	if o.code != 0 || o.stderr != "imported 0, unchanged 0, skipped 0\n" {
		t.Errorf("empty import: %+v", o)
	}
}

func TestImportBadPath(t *testing.T) {
	dir := t.TempDir()
	txt := filepath.Join(dir, "notes.txt")
	writeFile(t, txt, "x")
	c := newCLI(t, nil)
	if line := c.fails(exitFailure, "--store", filepath.Join(dir, "m"), "import", txt); !strings.Contains(line, "not a folder or a .jsonl file") {
		t.Errorf("got %q", line)
	}
	if line := c.fails(exitFailure, "--store", filepath.Join(dir, "m"), "import", filepath.Join(dir, "missing.jsonl")); !strings.Contains(line, "no such file") {
		t.Errorf("got %q", line)
	}
	store := filepath.Join(dir, "m2")
	c.ok("--store", store, "add", "a", "b", "--content", "x")
	if line := c.fails(exitFailure, "--store", store, "import", store); !strings.Contains(line, "the store itself") {
		t.Errorf("got %q", line)
	}
}

// A vault that the store rules of today and of SPEC §1 treat alike (flat
// folders, plain names): what lands, what is skipped with a rename, what
// is ignored and counted, and that a second import writes nothing.
func TestImportVault(t *testing.T) {
	vault := filepath.Join(t.TempDir(), "vault")
	files := map[string]string{
		".obsidian/app.json":   `{"theme":"dark"}`,
		".obsidian/snippet.md": "must be ignored",
		".trash/old.md":        "must be ignored",
		"trips/.hidden.md":     "must be ignored",
		"trips/kyoto.md":       "---\ntags: [travel, japan, travel]\naliases: [Kyoto 2024]\ncreated: 2024-04-01\nrating: 5\n---\nKyoto in spring. [[people:alice]]\n",
		"trips/photo.png":      "\x89PNG",
		"people/alice.md":      "Alice likes tea.\n",
		"people/bad:name.md":   "x",
		"people/broken.md":     "---\ntags: [unclosed\n---\nbody\n",
		"Bad:Folder/x.md":      "a folder whose name is no valid category",
		"inbox-note.md":        "A file in the root.\n",
	}
	for name, data := range files {
		writeFile(t, filepath.Join(vault, filepath.FromSlash(name)), data)
	}
	if err := os.Symlink("alice.md", filepath.Join(vault, "people", "link.md")); err != nil {
		t.Fatal(err)
	}
	p := func(rel string) string { return filepath.Join(vault, filepath.FromSlash(rel)) }
	// Names SPEC §1 refuses for new entries are mapped, and broken front
	// matter is kept verbatim with a warning (issue 24: on main these three
	// notes were skipped).
	skips := []string{
		"skipped " + p("people/link.md") + ": is a symbolic link; links are not followed",
		"warning: " + p("people/broken.md") + ": front matter: ",
	}
	const ignored = ", ignored 5 (2 in .obsidian, 1 in .trash, 1 attachment, 1 hidden)"
	check := func(t *testing.T, o outcome, summary string) {
		t.Helper()
		if o.code != 0 || o.stdout != "" {
			t.Fatalf("import: %+v", o)
		}
		report := strings.Split(strings.TrimSuffix(o.stderr, "\n"), "\n")
		want := append(slices.Clone(skips), summary+ignored)
		if len(report) != len(want) {
			t.Fatalf("stderr:\n%s\nwant %d lines", o.stderr, len(want))
		}
		for i, w := range want {
			if !strings.HasPrefix(report[i], w) {
				t.Errorf("line %d = %q, want it to start with %q", i+1, report[i], w)
			}
		}
		if !strings.HasSuffix(report[1], "; kept verbatim, the note is imported without its properties") {
			t.Errorf("warning:\n%s", o.stderr)
		}
	}
	for backend, path := range emptyStores(t) {
		t.Run(backend, func(t *testing.T) {
			c := newCLI(t, nil)
			check(t, c.run("--store", path, "import", "--category", "inbox", vault), "imported 6, unchanged 0, skipped 1")
			wantLs := "Bad:Folder:x\ninbox:inbox-note\npeople:alice\npeople:bad:name\npeople:broken\ntrips:kyoto\n"
			if got := c.ok("--store", path, "ls"); got != wantLs {
				t.Errorf("ls = %q, want %q", got, wantLs)
			}
			if got := c.ok("--store", path, "get", "trips", "kyoto"); got != "Kyoto in spring. [[people:alice]]\n" {
				t.Errorf("content = %q (front matter must not be content)", got)
			}
			var e struct {
				Meta map[string]any `json:"meta"`
			}
			if err := json.Unmarshal([]byte(c.ok("--store", path, "get", "--json", "trips", "kyoto")), &e); err != nil {
				t.Fatal(err)
			}
			if e.Meta["created"] != "2024-04-01T00:00:00Z" || e.Meta["rating"] != float64(5) || e.Meta["updated"] == nil {
				t.Errorf("meta = %v", e.Meta)
			}
			if tags, _ := e.Meta["tags"].([]any); !slices.Equal(tags, []any{"travel", "japan"}) {
				t.Errorf("tags = %v (repeats dropped)", e.Meta["tags"])
			}
			if aliases, _ := e.Meta["aliases"].([]any); !slices.Equal(aliases, []any{"Kyoto 2024"}) {
				t.Errorf("aliases = %v", e.Meta["aliases"])
			}
			before := c.ok("--store", path, "get", "--json", "people", "alice")

			// Again: nothing written.
			check(t, c.run("--store", path, "import", "--category", "inbox", vault), "imported 0, unchanged 6, skipped 1")
			if after := c.ok("--store", path, "get", "--json", "people", "alice"); after != before {
				t.Errorf("an unchanged note was rewritten:\n%s\n%s", before, after)
			}
		})
	}
	// The vault was only read.
	b, _ := os.ReadFile(filepath.Join(vault, "trips", "kyoto.md"))
	if string(b) != files["trips/kyoto.md"] {
		t.Error("import changed a vault file")
	}
}

// An import onto a store another process holds fails with the store's
// error alone: no counts, which would claim work that was not done.
func TestImportLockedStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	src := filepath.Join(t.TempDir(), "a.jsonl")
	writeFile(t, src, `{"category":"a","name":"b","content":"c"}`+"\n")
	c := newCLI(t, nil)
	c.ok("--store", db, "add", "notes", "n", "--content", "x")
	held, err := boltstore.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	o := c.run("--store", db, "import", src)
	if o.code != exitFailure || strings.Contains(o.stderr, "imported") || !strings.Contains(o.stderr, store.ErrLocked.Error()) {
		t.Errorf("import onto a locked store: %+v", o)
	}
}

// The input rules of every entry point apply to JSONL lines (issue 9).
func TestImportJSONLInputRules(t *testing.T) {
	lines := []string{
		/* 1 */ `{"category":"a","name":"dup","content":"x","content":"y"}`,
		/* 2 */ `{"category":"a","name":"m","content":"x","meta":{"k":1,"k":2}}`,
		/* 3 */ `{"category":"a","name":"t","content":"x","meta":{"tags":["ok",""]}}`,
		/* 4 */ `{"category":"a","name":"s","content":"bad \ud800 half"}`,
		/* 5 */ `{"category":"a","name":"big","content":"x","meta":{"n":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}}`,
		/* 6 */ `{"category":"a","name":"good","content":"pair \ud83c\udf0a ok","meta":{"tags":["x","x","y"]}}`,
	}
	src := filepath.Join(t.TempDir(), "rules.jsonl")
	writeFile(t, src, strings.Join(lines, "\n"))
	dst := filepath.Join(t.TempDir(), "m.db")
	c := newCLI(t, nil)
	o := c.run("--store", dst, "import", src)
	want := []string{
		src + `:1: key "content" appears twice`,
		src + `:2: meta: key "k" appears twice`,
		src + `:3: meta.tags: item 2 must not be empty`,
		src + `:4: \ud800 at byte 42 is half of a UTF-16 surrogate pair, not text`,
		src + `:5: meta: nested more than 32 levels deep`,
	}
	for _, w := range want {
		if !strings.Contains(o.stderr, "skipped "+w+"\n") {
			t.Errorf("stderr lacks %q:\n%s", w, o.stderr)
		}
	}
	if !strings.HasSuffix(o.stderr, "imported 1, unchanged 0, skipped 5\n") {
		t.Errorf("summary: %s", o.stderr)
	}
	e := decodeEntry(t, c.ok("--store", dst, "get", "--json", "a", "good"))
	if e.Content != "pair 🌊 ok" || !slices.Equal(e.Meta.Tags, []string{"x", "y"}) {
		t.Errorf("good line: %+v", e)
	}
}

// A file at the root takes --category, by default the folder store's
// RootCategory, so that importing a vault and opening it agree.
func TestImportVaultRootCategory(t *testing.T) {
	vault := filepath.Join(t.TempDir(), "vault")
	writeFile(t, filepath.Join(vault, "todo.md"), "x")
	c := newCLI(t, nil)
	dst := filepath.Join(t.TempDir(), "m")
	c.ok("--store", dst, "import", vault)
	if got := c.ok("--store", dst, "ls"); got != fsstore.RootCategory+":todo\n" {
		t.Errorf("ls = %q", got)
	}
}

// Large imports on a non-terminal get no progress bar: stderr carries the
// summary only.
func TestImportManyNoProgressBarOffTerminal(t *testing.T) {
	var b strings.Builder
	n := progressThreshold + 50
	for i := range n {
		fmt.Fprintf(&b, `{"category":"bulk","name":"item-%03d","content":"entry number %d"}`+"\n", i, i)
	}
	src := filepath.Join(t.TempDir(), "bulk.jsonl")
	writeFile(t, src, b.String())
	c := newCLI(t, nil)
	dst := filepath.Join(t.TempDir(), "bulk.db")
	o := c.run("--store", dst, "import", src)
	if o.code != 0 || o.stderr != fmt.Sprintf("imported %d, unchanged 0, skipped 0\n", n) {
		t.Fatalf("%+v", o)
	}
	if got := strings.Count(c.ok("--store", dst, "ls", "bulk"), "\n"); got != n {
		t.Errorf("ls shows %d entries, want %d", got, n)
	}
}

// An entry only the store can refuse (here: front matter beyond the fs
// backend's limit) is skipped at write time, reported with its line, and
// the rest still lands.
func TestImportStoreRejects(t *testing.T) {
	// Within the JSONL bounds on meta (64 KiB, 32 levels), yet more front
	// matter than a folder store writes once indented.
	big := strings.Repeat("[", 25) + strings.Repeat(`"",`, 15000) + `""` + strings.Repeat("]", 25)
	src := filepath.Join(t.TempDir(), "big.jsonl")
	writeFile(t, src, `{"category":"a","name":"big","content":"c","meta":{"blob":`+big+`}}`+"\n"+
		`{"category":"a","name":"small","content":"c"}`+"\n")

	fsPath := filepath.Join(t.TempDir(), "memory")
	c := newCLI(t, nil)
	o := c.run("--store", fsPath, "import", src)
	lines := strings.Split(strings.TrimSuffix(o.stderr, "\n"), "\n")
	if o.code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], "skipped "+src+":1: ") ||
		!strings.Contains(lines[0], "meta") || lines[1] != "imported 1, unchanged 0, skipped 1" {
		t.Fatalf("fs: %+v", o)
	}
	if got := c.ok("--store", fsPath, "ls"); got != "a:small\n" {
		t.Errorf("fs ls = %q", got)
	}

	// bolt has no such limit.
	db := filepath.Join(t.TempDir(), "m.db")
	if o := c.run("--store", db, "import", src); o.code != 0 || o.stderr != "imported 2, unchanged 0, skipped 0\nduplicates 2: a:big = a:small\n" { // both hold "c"
		t.Fatalf("bolt: %+v", o)
	}
}

// The test vault of package importer, end to end: every note in, the
// report names what was ignored, retrieve resolves the links Obsidian
// resolves, and a second import writes nothing. The vault holds the names
// SPEC §1 allows (punctuation, nested categories such as
// "trips/2024/spring"): a store that refused them fails here.
func TestImportTestVault(t *testing.T) {
	vault := filepath.Join(t.TempDir(), "vault")
	if err := zipsafe.CopyTree(filepath.Join("..", "..", "importer", "testdata", "vault"), vault); err != nil {
		t.Fatal(err)
	}
	const ignored = ", ignored 7 (3 in .obsidian, 1 in .trash, 2 attachments, 1 hidden)\n"
	for backend, path := range emptyStores(t) {
		t.Run(backend, func(t *testing.T) {
			c := newCLI(t, nil)
			if o := c.run("--store", path, "import", vault); o.code != 0 || o.stderr != "imported 15, unchanged 0, skipped 0"+ignored {
				t.Fatalf("import: %+v", o)
			}
			res, _ := resultJSON(t, c, "--store", path, "retrieve", "--no-budget", "--limit", "1", "lighthousekeeper")
			// Home's [[Bob]] (people/Bob.md, work/Bob.md) is work:Bob, the
			// shorter path, as in Obsidian; before issue 24 it was unresolved.
			if want := []string{"[[Missing note]]"}; !slices.Equal(res.UnresolvedLinks, want) || len(res.Items) != 14 {
				t.Errorf("retrieve: %d items, unresolved %q", len(res.Items), res.UnresolvedLinks)
			}
			if o := c.run("--store", path, "import", vault); o.code != 0 || o.stderr != "imported 0, unchanged 15, skipped 0"+ignored {
				t.Errorf("again: %+v", o)
			}
		})
	}
}
