package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// emptyStores names a store of each backend that does not exist yet (the
// bolt one in a folder that does not exist either).
func emptyStores(t *testing.T) map[string]string {
	return map[string]string{
		"fs":   filepath.Join(t.TempDir(), "memory"),
		"bolt": filepath.Join(t.TempDir(), "memory.db"), // the folder exists: SPEC §8 creates no parents
	}
}

func TestAddGetLsRm(t *testing.T) {
	for backend, path := range emptyStores(t) {
		t.Run(backend, func(t *testing.T) {
			c := newCLI(t, nil)
			s := func(args ...string) []string { return append([]string{"--store", path}, args...) }

			// --content, with tags.
			o := c.run(s("add", "trips", "三亚之行", "--content", "住在海边。[[people:小雨]]", "--tag", "travel", "-t", "海边", "--tag", "travel")...)
			if o.code != 0 || o.stdout != "" || o.stderr != "added trips:三亚之行\n" {
				t.Fatalf("add: %+v", o)
			}
			// --file, content kept byte for byte (trailing newline, CRLF).
			file := filepath.Join(t.TempDir(), "alice.md")
			fileContent := "Alice likes <tea> & cake.\r\nSecond line\n"
			if err := os.WriteFile(file, []byte(fileContent), 0o644); err != nil {
				t.Fatal(err)
			}
			c.ok(s("add", "people", "alice", "--file", file)...)
			// stdin, implicitly and as --file -.
			o = c.runIn(strings.NewReader("from a pipe\n"), s("add", "people", "bob")...)
			if o.code != 0 || o.stderr != "added people:bob\n" {
				t.Fatalf("add from stdin: %+v", o)
			}
			c.runIn(strings.NewReader("dash"), s("add", "notes", "dash", "-f", "-")...)
			// Empty content is allowed when asked for explicitly.
			c.ok(s("add", "notes", "empty", "--content", "")...)

			for _, tc := range []struct{ cat, name, want string }{
				{"trips", "三亚之行", "住在海边。[[people:小雨]]"},
				{"people", "alice", fileContent},
				{"people", "bob", "from a pipe\n"},
				{"notes", "dash", "dash"},
				{"notes", "empty", ""},
			} {
				if got := c.ok(s("get", tc.cat, tc.name)...); got != tc.want {
					t.Errorf("get %s %s = %q, want %q", tc.cat, tc.name, got, tc.want)
				}
			}

			// get --json: one line, the entry and its metadata.
			out := c.ok(s("get", "--json", "trips", "三亚之行")...)
			if strings.Count(out, "\n") != 1 {
				t.Errorf("get --json is not one line: %q", out)
			}
			got := decodeEntry(t, out)
			if got.Category != "trips" || got.Name != "三亚之行" || got.Content != "住在海边。[[people:小雨]]" {
				t.Errorf("get --json entry = %+v", got)
			}
			if !slices.Equal(got.Meta.Tags, []string{"travel", "海边"}) {
				t.Errorf("tags = %q, want travel, 海边 (deduplicated, in order)", got.Meta.Tags)
			}
			created := got.Meta.Created
			if _, err := time.Parse(time.RFC3339Nano, created); err != nil {
				t.Errorf("created %q: %v", created, err)
			}
			if out := c.ok(s("get", "--json", "people", "alice")...); !strings.Contains(out, "<tea> & cake") {
				t.Errorf("get --json escapes HTML characters: %s", out)
			}

			// An update keeps the tags and the creation time unless --tag is given.
			o = c.run(s("add", "trips", "三亚之行", "--content", "new content")...)
			if o.code != 0 || o.stderr != "updated trips:三亚之行\n" {
				t.Fatalf("update: %+v", o)
			}
			got = decodeEntry(t, c.ok(s("get", "--json", "trips", "三亚之行")...))
			if got.Content != "new content" || !slices.Equal(got.Meta.Tags, []string{"travel", "海边"}) || got.Meta.Created != created {
				t.Errorf("after update without --tag: %+v (created was %s)", got, created)
			}
			c.ok(s("add", "trips", "三亚之行", "--content", "newer", "--tag", "beach")...)
			got = decodeEntry(t, c.ok(s("get", "--json", "trips", "三亚之行")...))
			if !slices.Equal(got.Meta.Tags, []string{"beach"}) {
				t.Errorf("--tag on update: tags = %q, want [beach]", got.Meta.Tags)
			}

			// ls: sorted by category, then name; one category; JSON; long.
			wantAll := "notes:dash\nnotes:empty\npeople:alice\npeople:bob\ntrips:三亚之行\n"
			if got := c.ok(s("ls")...); got != wantAll {
				t.Errorf("ls = %q, want %q", got, wantAll)
			}
			if got := c.ok(s("ls", "people")...); got != "people:alice\npeople:bob\n" {
				t.Errorf("ls people = %q", got)
			}
			if got := c.ok(s("ls", "nothing-here")...); got != "" {
				t.Errorf("ls of an unknown category = %q, want nothing", got)
			}
			var list []struct {
				Category  string         `json:"category"`
				Name      string         `json:"name"`
				TokensEst *int           `json:"tokens_est"`
				Meta      map[string]any `json:"meta"`
			}
			if err := json.Unmarshal([]byte(c.ok(s("ls", "--json")...)), &list); err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, it := range list {
				keys = append(keys, it.Category+":"+it.Name)
				if it.TokensEst == nil {
					t.Errorf("ls --json %s:%s has no tokens_est", it.Category, it.Name)
				}
			}
			if strings.Join(keys, "\n")+"\n" != wantAll {
				t.Errorf("ls --json keys = %q", keys)
			}
			// "newer" is one word, "三亚之行" four CJK characters.
			long := c.ok(s("ls", "--long", "trips")...)
			if !strings.HasPrefix(long, "trips:三亚之行\t5 tokens\t") || !strings.HasSuffix(long, "\tbeach\n") {
				t.Errorf("ls --long = %q", long)
			}

			// rm; a second rm and a get of the removed entry fail.
			o = c.run(s("rm", "people", "bob")...)
			if o.code != 0 || o.stdout != "" || o.stderr != "removed people:bob\n" {
				t.Fatalf("rm: %+v", o)
			}
			line := c.fails(exitFailure, s("rm", "people", "bob")...)
			if line != "recall: people:bob: entry not found" {
				t.Errorf("second rm: %q", line)
			}
			c.fails(exitFailure, s("get", "people", "bob")...)
			if got := c.ok(s("ls", "people")...); got != "people:alice\n" {
				t.Errorf("ls after rm = %q", got)
			}
		})
	}
}

type jsonEntry struct {
	Category string `json:"category"`
	Name     string `json:"name"`
	Content  string `json:"content"`
	Meta     struct {
		Tags    []string `json:"tags"`
		Created string   `json:"created"`
		Updated string   `json:"updated"`
	} `json:"meta"`
}

func decodeEntry(t *testing.T, s string) jsonEntry {
	t.Helper()
	var e jsonEntry
	if err := json.Unmarshal([]byte(s), &e); err != nil {
		t.Fatalf("%v in %q", err, s)
	}
	return e
}

// The fs backend keeps metadata keys recall does not interpret; an add
// must not lose them.
func TestAddKeepsFrontMatter(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	if err := os.MkdirAll(filepath.Join(dir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := "---\ntags: [a]\ncreated: 2024-03-01T09:30:00Z\nmood: sunny\n---\nold\n"
	if err := os.WriteFile(filepath.Join(dir, "notes", "n.md"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, nil)
	c.ok("--store", dir, "add", "notes", "n", "--content", "new\n")
	var e struct {
		Content string         `json:"content"`
		Meta    map[string]any `json:"meta"`
	}
	if err := json.Unmarshal([]byte(c.ok("--store", dir, "get", "--json", "notes", "n")), &e); err != nil {
		t.Fatal(err)
	}
	if e.Content != "new\n" || e.Meta["mood"] != "sunny" || e.Meta["created"] != "2024-03-01T09:30:00Z" {
		t.Errorf("after add: %+v", e)
	}
	if tags, _ := e.Meta["tags"].([]any); len(tags) != 1 || tags[0] != "a" {
		t.Errorf("tags = %v, want [a]", e.Meta["tags"])
	}
}
