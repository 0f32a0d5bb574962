package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/recallhq/recall/service"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
			if last := report[len(report)-1]; last != "imported 3, skipped 12" {
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
	if o.code != 0 || o.stderr != "imported 1, skipped 0\n" {
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
				"imported 0, skipped 2\n"+
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
	if o.code != 0 || o.stderr != "imported 0, skipped 0\n" {
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

func TestImportVault(t *testing.T) {
	vault := filepath.Join(t.TempDir(), "vault")
	files := map[string]string{
		".obsidian/app.json":     `{"theme":"dark"}`,
		".obsidian/snippet.md":   "must be ignored",
		".trash/old.md":          "must be ignored",
		"trips/.hidden.md":       "must be ignored",
		"trips/kyoto.md":         "---\ntags: [travel, japan]\ncreated: 2024-04-01\nrating: 5\n---\nKyoto in spring. [[people:alice]]\n",
		"trips/2024/sanya.md":    "Nested: category of the top folder.\n",
		"trips/2024/kyoto.md":    "A deeper file with the same identity.\n",
		"trips/photo.png":        "\x89PNG",
		"people/alice.md":        "Alice likes tea.\n",
		"people/bad:name.md":     "x",
		"people/broken.md":       "---\ntags: [unclosed\n---\nbody\n",
		"Bad Folder!/x.md":       "invalid category",
		"trips/Q1 (old)/plan.md": "a nested folder whose name is no valid category",
		"inbox-note.md":          "A file in the root.\n",
	}
	for name, data := range files {
		writeFile(t, filepath.Join(vault, filepath.FromSlash(name)), data)
	}
	for backend, path := range emptyStores(t) {
		t.Run(backend, func(t *testing.T) {
			c := newCLI(t, nil)
			o := c.run("--store", path, "import", "--category", "inbox", vault)
			if o.code != 0 || o.stdout != "" {
				t.Fatalf("import: %+v", o)
			}
			p := func(rel string) string { return filepath.Join(vault, filepath.FromSlash(rel)) }
			want := []string{
				"skipped " + p("Bad Folder!/x.md") + `: invalid category "Bad Folder!": contains '!'`,
				"skipped " + p("people/bad:name.md") + `: invalid name "bad:name": contains ':'`,
				"skipped " + p("people/broken.md") + ": front matter: ",
				"skipped " + p("trips/2024/kyoto.md") + ": trips:kyoto was already read from " + p("trips/kyoto.md"),
				"imported 5, skipped 4",
			}
			report := strings.Split(strings.TrimSuffix(o.stderr, "\n"), "\n")
			if len(report) != len(want) {
				t.Fatalf("stderr:\n%s\nwant %d lines", o.stderr, len(want))
			}
			for i, w := range want {
				if !strings.HasPrefix(report[i], w) {
					t.Errorf("line %d = %q, want it to start with %q", i+1, report[i], w)
				}
			}
			wantLs := "inbox:inbox-note\npeople:alice\ntrips:kyoto\ntrips:plan\ntrips:sanya\n"
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
			if e.Meta["created"] != "2024-04-01T00:00:00Z" || e.Meta["rating"] != float64(5) {
				t.Errorf("meta = %v", e.Meta)
			}
			if tags, _ := e.Meta["tags"].([]any); !slices.Equal(tags, []any{"travel", "japan"}) {
				t.Errorf("tags = %v", e.Meta["tags"])
			}
		})
	}
	// The vault was only read.
	if _, err := os.Stat(filepath.Join(vault, "trips", "kyoto.md")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(vault, "trips", "kyoto.md"))
	if string(b) != files["trips/kyoto.md"] {
		t.Error("import changed a vault file")
	}
}

// A file at the root takes --category, "notes" by default.
func TestImportVaultRootCategory(t *testing.T) {
	vault := filepath.Join(t.TempDir(), "vault")
	writeFile(t, filepath.Join(vault, "todo.md"), "x")
	c := newCLI(t, nil)
	dst := filepath.Join(t.TempDir(), "m")
	c.ok("--store", dst, "import", vault)
	if got := c.ok("--store", dst, "ls"); got != "notes:todo\n" {
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
	if o.code != 0 || o.stderr != fmt.Sprintf("imported %d, skipped 0\n", n) {
		t.Fatalf("%+v", o)
	}
	if got := strings.Count(c.ok("--store", dst, "ls", "bulk"), "\n"); got != n {
		t.Errorf("ls shows %d entries, want %d", got, n)
	}
}

func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", 100)
	src := "a\r\n" + long + "\n\nlast"
	type got struct {
		line    string
		tooLong bool
	}
	var lines []got
	// The smallest buffer bufio allows, so lines span several ReadSlice calls.
	br := bufio.NewReaderSize(strings.NewReader(src), 16)
	for {
		l, tooLong, err := readLine(br, 50)
		lines = append(lines, got{string(l), tooLong})
		if err != nil {
			break
		}
	}
	want := []got{{"a", false}, {"", true}, {"", false}, {"last", false}}
	if !slices.Equal(lines, want) {
		t.Errorf("lines = %+v, want %+v", lines, want)
	}
}

func FuzzParseRecord(f *testing.F) {
	f.Add([]byte(`{"category":"trips","name":"三亚之行","content":"x","meta":{"tags":["a"],"created":"2024-03-02T09:15:00Z","k":[1,2.5,{"n":null}]}}`))
	f.Add([]byte(`{"category":"a","name":"b","content":""}`))
	f.Add([]byte(`{"category":"a","name":"b","content":"c","meta":{"tags":"one","updated":"2024-01-02"}}`))
	f.Add([]byte(`{"category":1}`))
	f.Add([]byte("{\"content\":\"\xff\"}"))
	f.Fuzz(func(t *testing.T, line []byte) {
		e, err := parseRecord(line)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty reason")
			}
			return
		}
		// What parses prints back (as get --json would) and parses to the
		// same entry.
		var b strings.Builder
		if err := service.WriteJSON(&b, service.EntryFor(e), ""); err != nil {
			return // metadata JSON cannot hold (NaN cannot come from JSON; nothing else expected)
		}
		again, err := parseRecord([]byte(strings.TrimSuffix(b.String(), "\n")))
		if err != nil {
			t.Fatalf("re-parse of %s: %v", b.String(), err)
		}
		if again.Category != e.Category || again.Name != e.Name || again.Content != e.Content ||
			!slices.Equal(again.Meta.Tags, e.Meta.Tags) || !again.Meta.Created.Equal(e.Meta.Created) ||
			!again.Meta.Updated.Equal(e.Meta.Updated) || len(again.Meta.Extra) != len(e.Meta.Extra) {
			t.Fatalf("round trip changed the entry:\n%+v\n%+v", e, again)
		}
	})
}

// An entry only the store can refuse (here: front matter beyond the fs
// backend's limit) is skipped at write time, reported with its line, and
// the rest still lands.
func TestImportStoreRejects(t *testing.T) {
	big := strings.Repeat("x", 300<<10)
	src := filepath.Join(t.TempDir(), "big.jsonl")
	writeFile(t, src, `{"category":"a","name":"big","content":"c","meta":{"blob":"`+big+`"}}`+"\n"+
		`{"category":"a","name":"small","content":"c"}`+"\n")

	fsPath := filepath.Join(t.TempDir(), "memory")
	c := newCLI(t, nil)
	o := c.run("--store", fsPath, "import", src)
	lines := strings.Split(strings.TrimSuffix(o.stderr, "\n"), "\n")
	if o.code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], "skipped "+src+":1: ") ||
		!strings.Contains(lines[0], "meta") || lines[1] != "imported 1, skipped 1" {
		t.Fatalf("fs: %+v", o)
	}
	if got := c.ok("--store", fsPath, "ls"); got != "a:small\n" {
		t.Errorf("fs ls = %q", got)
	}

	// bolt has no such limit.
	db := filepath.Join(t.TempDir(), "m.db")
	if o := c.run("--store", db, "import", src); o.code != 0 || o.stderr != "imported 2, skipped 0\n" {
		t.Fatalf("bolt: %+v", o)
	}
}
