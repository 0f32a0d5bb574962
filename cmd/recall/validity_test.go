package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// add --supersedes and --expires write the validity keys as front matter;
// retrieve leaves the superseded and expired entries out, names what a
// hit supersedes, and brings them back marked with --include-superseded
// and --include-expired; ls --expired lists the expired; ls --long and
// reindex report a cycle and a link to no entry; the keys survive an
// export through get --json and an import into bolt.
func TestValidityCLI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mem")
	c := newCLI(t, nil)
	s := func(args ...string) string { return c.ok(append([]string{"--store", dir}, args...)...) }
	s("add", "places", "Paris flat", "--content", "Lives in a flat in Paris.")
	s("add", "places", "Berlin flat", "--content", "Lives in a flat in Berlin.", "--supersedes", "places:Paris flat")
	s("add", "work", "sprint", "--content", "Sprint goal: the flat migration.", "--expires", "2020-01-01")
	raw, err := os.ReadFile(filepath.Join(dir, "places", "Berlin flat.md"))
	if err != nil || !strings.Contains(string(raw), "supersedes:") || !strings.Contains(string(raw), "[[places:Paris flat]]") {
		t.Fatalf("front matter %q, %v; want the supersedes link", raw, err)
	}
	var res struct {
		Items []struct {
			Name         string   `json:"name"`
			SupersededBy string   `json:"superseded_by"`
			Supersedes   []string `json:"supersedes"`
			Expired      bool     `json:"expired"`
		} `json:"items"`
	}
	decode := func(out string) {
		t.Helper()
		res.Items = nil
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	decode(s("retrieve", "flat", "--json"))
	if len(res.Items) != 1 || res.Items[0].Name != "Berlin flat" || strings.Join(res.Items[0].Supersedes, ",") != "places:Paris flat" {
		t.Errorf("retrieve flat: %+v, want Berlin flat alone, superseding Paris flat", res.Items)
	}
	decode(s("retrieve", "flat", "--json", "--include-superseded", "--include-expired"))
	got := map[string]string{}
	for _, it := range res.Items {
		got[it.Name] = it.SupersededBy
		if it.Name == "sprint" && !it.Expired {
			t.Errorf("sprint not marked expired: %+v", it)
		}
	}
	if len(got) != 3 || got["Paris flat"] != "places:Berlin flat" {
		t.Errorf("with both include flags: %+v", res.Items)
	}
	human := s("retrieve", "flat", "--include-superseded")
	if !strings.Contains(human, "superseded-by=places:Berlin flat") || !strings.Contains(human, "supersedes=places:Paris flat") {
		t.Errorf("human output lacks the evidence:\n%s", human)
	}
	if got := s("ls", "--expired"); got != "work:sprint\n" {
		t.Errorf("ls --expired = %q", got)
	}
	// A cycle, decided by the most recent update, and a link to nothing.
	s("add", "notes", "a", "--content", "a", "--supersedes", "[[notes:b]]")
	// Stored times have whole seconds: b is written in a later one.
	for sec := time.Now().Unix(); time.Now().Unix() == sec; {
		time.Sleep(10 * time.Millisecond)
	}
	s("add", "notes", "b", "--content", "b", "--supersedes", "[[notes:a]]", "--supersedes", "[[notes:gone]]")
	o := c.run("--store", dir, "ls", "--long")
	if o.code != 0 {
		t.Fatalf("ls --long: %+v", o)
	}
	for _, want := range []string{"places:Paris flat\t", "\tsuperseded-by places:Berlin flat\n", "\tsupersedes places:Paris flat\n", "\texpired 2020-01-01\n"} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("ls --long stdout lacks %q:\n%s", want, o.stdout)
		}
	}
	for _, want := range []string{"supersession cycle: notes:a, notes:b; kept notes:b", "notes:b: supersedes [[notes:gone]], which names no entry"} {
		if !strings.Contains(o.stderr, want) {
			t.Errorf("ls --long stderr lacks %q:\n%s", want, o.stderr)
		}
	}
	if re := s("reindex"); !strings.Contains(re, "supersession cycle: notes:a, notes:b; kept notes:b") {
		t.Errorf("reindex = %q, want the cycle", re)
	}
	// Bad values name the flag; nothing is written.
	for _, args := range [][]string{
		{"add", "x", "y", "--content", "z", "--expires", "soon"},
		{"add", "x", "y", "--content", "z", "--supersedes", "[[#heading]]"},
	} {
		bad := c.run(append([]string{"--store", dir}, args...)...)
		if bad.code == 0 || !(strings.Contains(bad.stderr, "--expires") || strings.Contains(bad.stderr, "supersedes")) {
			t.Errorf("%q: %+v, want an error naming the flag", args, bad)
		}
	}
	if got := c.run("--store", dir, "get", "x", "y"); got.code == 0 {
		t.Errorf("a refused add wrote x:y")
	}
	// Export and import into bolt keep the keys and the decision.
	db := filepath.Join(t.TempDir(), "b.db")
	exp := s("get", "--json", "places", "Berlin flat") + s("get", "--json", "places", "Paris flat")
	if o := c.runIn(strings.NewReader(exp), "--store", db, "import", "-"); o.code != 0 {
		t.Fatalf("import: %+v", o)
	}
	decode(c.ok("--store", db, "retrieve", "flat", "--json"))
	if len(res.Items) != 1 || res.Items[0].Name != "Berlin flat" {
		t.Errorf("after import into bolt: %+v", res.Items)
	}
	bad := c.runIn(strings.NewReader(`{"category":"a","name":"b","content":"c","meta":{"expires":"tomorrow"}}`+"\n"), "--store", db, "import", "-")
	if !strings.Contains(bad.stderr+bad.stdout, "meta.expires") {
		t.Errorf("import of a bad expires: %+v, want it named", bad)
	}
}

// TestValidityPagedLs: ls --long --limit N prints, page by page, the
// lines the whole ls --long prints, validity columns included
// (superseded-by, supersedes, expires / expired), and on each page's
// stderr the problems the whole listing reports (a cycle, a supersedes
// link to no entry); before, a page printed neither. Over a folder and a
// bolt store, all entries and one category.
func TestValidityPagedLs(t *testing.T) {
	for _, name := range []string{"mem", "mem.db"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), name)
			c := newCLI(t, nil)
			s := func(args ...string) string { return c.ok(append([]string{"--store", dir}, args...)...) }
			s("add", "places", "Paris flat", "--content", "Lives in Paris.")
			s("add", "places", "Berlin flat", "--content", "Lives in Berlin.", "--supersedes", "places:Paris flat")
			s("add", "work", "sprint", "--content", "Sprint goal.", "--expires", "2020-01-01")
			s("add", "work", "quarter", "--content", "Quarter goal.", "--expires", "2999-01-01", "--tag", "goal", "--date", "2024-05-03")
			s("add", "notes", "a", "--content", "a", "--supersedes", "[[notes:b]]")
			for sec := time.Now().Unix(); time.Now().Unix() == sec; { // b is updated later than a
				time.Sleep(10 * time.Millisecond)
			}
			s("add", "notes", "b", "--content", "b", "--supersedes", "[[notes:a]]", "--supersedes", "[[notes:gone]]")
			s("add", "notes", "plain", "--content", "nothing to say")
			for _, cat := range []string{"", "places"} {
				args := []string{"--store", dir, "ls", "--long"}
				if cat != "" {
					args = append(args, cat)
				}
				whole := c.run(args...)
				if whole.code != 0 {
					t.Fatalf("%q: %+v", args, whole)
				}
				for _, want := range []string{"\tsuperseded-by places:Berlin flat\n", "\tsupersedes places:Paris flat\n"} {
					if !strings.Contains(whole.stdout, want) {
						t.Errorf("%q lacks %q:\n%s", args, want, whole.stdout)
					}
				}
				if cat == "" && (!strings.Contains(whole.stdout, "\texpired 2020-01-01\n") || !strings.Contains(whole.stdout, "\tdate 2024-05-03\texpires 2999-01-01\n") ||
					!strings.Contains(whole.stderr, "supersession cycle") || !strings.Contains(whole.stderr, "[[notes:gone]]")) {
					t.Errorf("%q:\n%s\nstderr:\n%s", args, whole.stdout, whole.stderr)
				}
				var pages strings.Builder
				cursor, n := "", 0
				for {
					pa := append(append([]string{}, args...), "--limit", "2")
					if cursor != "" {
						pa = append(pa, "--cursor", cursor)
					}
					o := c.run(pa...)
					if o.code != 0 || n > 10 {
						t.Fatalf("%q: %+v", pa, o)
					}
					n++
					pages.WriteString(o.stdout)
					problems, next, _ := strings.Cut(o.stderr, "next page: --cursor ")
					if next != "" {
						// "N of M shown; " ends the problems.
						problems = problems[:strings.LastIndex(problems[:len(problems)-1], "\n")+1]
					}
					if problems != whole.stderr {
						t.Errorf("page %d of %q: stderr %q, want the whole listing's %q", n, args, problems, whole.stderr)
					}
					if cursor = strings.TrimSpace(next); cursor == "" {
						break
					}
				}
				if pages.String() != whole.stdout {
					t.Errorf("%q in pages of 2:\n%s\nwhole:\n%s", args, pages.String(), whole.stdout)
				}
			}
		})
	}
}

// checkValidityNPM checks the validity calls of TestMCPWithNPMClient: the
// default retrieve, its text, the retrieve with both include flags, and
// a get of the entry that supersedes.
func checkValidityNPM(t *testing.T, def map[string]any, text string, all, get map[string]any) {
	t.Helper()
	items, _ := def["items"].([]any)
	if len(items) == 0 {
		t.Fatalf("retrieve over MCP: %v", def)
	}
	it := items[0].(map[string]any)
	if it["name"] != "npm Berlin" || fmt.Sprint(it["supersedes"]) != "[places:npm Paris]" {
		t.Errorf("retrieve over MCP: first item %v, want npm Berlin superseding places:npm Paris", it)
	}
	for _, x := range items {
		if n := x.(map[string]any)["name"]; n == "npm Paris" || n == "npm sprint" {
			t.Errorf("retrieve over MCP returned %v, superseded or expired", n)
		}
	}
	if !strings.Contains(text, "supersedes places:npm Paris") {
		t.Errorf("text for the model lacks the supersession: %q", text)
	}
	marks := map[string]string{}
	for _, x := range all["items"].([]any) {
		m := x.(map[string]any)
		if n := m["name"].(string); strings.HasPrefix(n, "npm ") && n != "npm beach" {
			marks[n] = fmt.Sprint(m["superseded_by"], " ", m["expired"])
		}
	}
	want := map[string]string{"npm Berlin": "<nil> <nil>", "npm Paris": "places:npm Berlin <nil>", "npm sprint": "<nil> true"}
	if !reflect.DeepEqual(marks, want) {
		t.Errorf("include_superseded and include_expired over MCP: %v, want %v", marks, want)
	}
	if m := get["meta"].(map[string]any); fmt.Sprint(m["supersedes"]) != "[[[places:npm Paris]]]" {
		t.Errorf("get over MCP: meta %v", m)
	}
}
