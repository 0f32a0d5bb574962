package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
)

var goldenCases = []struct {
	golden string
	args   []string
}{
	{"retrieve-seaside.golden", []string{"retrieve", "想去海边玩"}},
	{"retrieve-seaside-json.golden", []string{"retrieve", "--json", "想去海边玩"}},
	{"retrieve-weekend-explain.golden", []string{"retrieve", "--budget", "150", "--explain", "周末安排"}},
	{"retrieve-weekend-explain-json.golden", []string{"retrieve", "--json", "--budget", "150", "--explain", "周末安排"}},
	{"retrieve-coffee-nolinks.golden", []string{"retrieve", "--no-links", "--limit", "3", "--no-budget", "coffee"}},
	{"retrieve-punctuation.golden", []string{"retrieve", "？！..."}},
}

// The same golden file holds for both backends: the bolt store is the
// sample imported with `recall import`, so this also checks that import
// carries every entry over intact.
func TestRetrieveGolden(t *testing.T) {
	stores := sampleStores(t)
	for _, tc := range goldenCases {
		t.Run(tc.golden, func(t *testing.T) {
			c := newCLI(t, nil)
			fsOut := c.ok(append([]string{"--store", stores["fs"]}, tc.args...)...)
			boltOut := c.ok(append([]string{"--store", stores["bolt"]}, tc.args...)...)
			if fsOut != boltOut {
				t.Errorf("fs and bolt differ\n--- fs:\n%s\n--- bolt:\n%s", fsOut, boltOut)
			}
			golden(t, tc.golden, fsOut)
		})
	}
}

// resultJSON runs retrieve --json and decodes its one object.
func resultJSON(t *testing.T, c *cli, args ...string) (*retrieve.Result, string) {
	t.Helper()
	out := c.ok(append(args[:len(args):len(args)], "--json")...)
	dec := json.NewDecoder(strings.NewReader(out))
	var res retrieve.Result
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		t.Fatalf("more than one JSON value: %s", out)
	}
	if !strings.HasSuffix(out, "}\n") {
		t.Fatalf("output does not end with the object and a newline: %q", out)
	}
	return &res, out
}

func TestRetrieveJSONFields(t *testing.T) {
	dir := copySample(t)
	c := newCLI(t, nil)
	// A hit whose content has HTML characters and a link to a real entry.
	c.ok("--store", dir, "add", "notes", "markup", "--content", "海边 <b>bold</b> & [[trips:三亚之行]]")
	out := c.ok("--store", dir, "retrieve", "--json", "--explain", "--budget", "100", "想去海边玩")

	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"items", "budget_used", "embedding_used", "unresolved_links", "dropped"} {
		if _, ok := obj[k]; !ok {
			t.Errorf("no %q in the object: %s", k, out)
		}
	}
	if len(obj) != 5 {
		t.Errorf("unexpected top-level keys: %s", keysOf(obj))
	}
	if string(obj["embedding_used"]) != "false" {
		t.Errorf("embedding_used = %s, want false", obj["embedding_used"])
	}
	if strings.Contains(out, "cos_score") {
		t.Error("cos_score present without an embedder")
	}
	if !strings.Contains(out, "<b>bold</b> &") || strings.Contains(out, `\u003c`) {
		t.Error("HTML characters are escaped")
	}
	if !strings.Contains(out, "海边") {
		t.Error("CJK is escaped")
	}
	var items []map[string]json.RawMessage
	for _, k := range []string{"items", "dropped"} {
		var list []map[string]json.RawMessage
		if err := json.Unmarshal(obj[k], &list); err != nil {
			t.Fatal(err)
		}
		items = append(items, list...)
	}
	var sawHit, sawLink bool
	for _, it := range items {
		want := []string{"source", "category", "name", "content", "score", "tokens_est"}
		switch string(it["source"]) {
		case `"hit"`:
			sawHit = true
			want = append(want, "bm25_score", "matched_terms")
		case `"link"`:
			sawLink = true
			want = append(want, "via")
		default:
			t.Fatalf("source = %s", it["source"])
		}
		if len(it) != len(want) {
			t.Errorf("item keys %s, want %q", keysOf(it), want)
		}
		for _, k := range want {
			if _, ok := it[k]; !ok {
				t.Errorf("item without %q: %s", k, keysOf(it))
			}
		}
	}
	if !sawHit || !sawLink {
		t.Errorf("want both hits and links to check their fields (hit %v, link %v)", sawHit, sawLink)
	}
}

func keysOf(m map[string]json.RawMessage) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return strings.Join(ks, ",")
}

// Unresolved links are exactly the missing targets of the hits' links,
// each once, in order; the human output lists the same ones. Checked
// against the store, not against a list written down here.
func TestRetrieveUnresolvedLinks(t *testing.T) {
	dir := copySample(t)
	c := newCLI(t, nil)
	exists := map[string]bool{}
	for k := range strings.Lines(c.ok("--store", dir, "ls")) {
		exists[strings.TrimSuffix(k, "\n")] = true
	}
	total := 0
	for _, q := range []string{"想去海边玩", "周末安排", "咖啡", "妈妈", "deadline"} {
		res, _ := resultJSON(t, c, "--store", dir, "retrieve", "--no-budget", q)
		var want []string
		seen := map[string]bool{}
		for _, it := range res.Items {
			if it.Source != retrieve.SourceHit {
				continue
			}
			for _, l := range retrieve.ParseLinks(it.Category, it.Content) {
				if !exists[l.Category+":"+l.Name] && !seen[l.Raw] {
					seen[l.Raw] = true
					want = append(want, l.Raw)
				}
			}
		}
		if !slices.Equal(res.UnresolvedLinks, want) { // nil and empty are equal here
			t.Errorf("%s: unresolved_links = %q, want %q", q, res.UnresolvedLinks, want)
		}
		total += len(want)

		human := c.ok("--store", dir, "retrieve", "--no-budget", q)
		if got := strings.Contains(human, "\nunresolved links:\n"); got != (len(want) > 0) {
			t.Errorf("%s: human output lists unresolved links: %v, want %v", q, got, len(want) > 0)
		}
		for _, l := range want {
			if !strings.Contains(human, "\n  "+l+"\n") {
				t.Errorf("%s: human output lacks %s", q, l)
			}
		}

		// With links off, none are collected.
		res, _ = resultJSON(t, c, "--store", dir, "retrieve", "--no-budget", "--no-links", q)
		if len(res.UnresolvedLinks) != 0 {
			t.Errorf("%s --no-links: unresolved_links = %q", q, res.UnresolvedLinks)
		}
	}
	if total == 0 {
		t.Fatal("no query reached an unresolved link; the check above proved nothing")
	}
}

// The human output tells the same story as the JSON: every item in order
// with its source, key, tokens and evidence; the summary adds up.
func TestRetrieveHumanMatchesJSON(t *testing.T) {
	dir := copySample(t)
	c := newCLI(t, nil)
	for _, args := range [][]string{
		{"想去海边玩"},
		{"--budget", "120", "--explain", "周末安排"},
		{"--limit", "2", "--no-budget", "peanut allergy"},
	} {
		base := append([]string{"--store", dir, "retrieve"}, args...)
		res, _ := resultJSON(t, c, base...)
		human := c.ok(base...)
		sum := 0
		for i, it := range res.Items {
			sum += it.TokensEst
			head := fmt.Sprintf("%d. %s %s:%s  ", i+1, it.Source, it.Category, it.Name)
			line := lineStarting(human, head)
			if line == "" {
				t.Errorf("%q: no line %q in\n%s", args, head, human)
				continue
			}
			if !strings.HasSuffix(line, fmt.Sprintf(" tokens=%d", it.TokensEst)) {
				t.Errorf("%q: %q lacks tokens=%d", args, line, it.TokensEst)
			}
			if it.Source == retrieve.SourceHit && !strings.Contains(line, "matched="+strings.Join(it.MatchedTerms, ",")) {
				t.Errorf("%q: %q lacks the matched terms %q", args, line, it.MatchedTerms)
			}
			if it.Source == retrieve.SourceLink && !strings.Contains(line, "via="+it.Via.Category+":"+it.Via.Name) {
				t.Errorf("%q: %q lacks via", args, line)
			}
			first, _, _ := strings.Cut(strings.TrimRight(it.Content, "\n"), "\n")
			if first != "" && !strings.Contains(human, "\n    "+first+"\n") {
				t.Errorf("%q: content of %s:%s not shown indented", args, it.Category, it.Name)
			}
		}
		if sum != res.BudgetUsed {
			t.Errorf("%q: budget_used %d, items sum to %d", args, res.BudgetUsed, sum)
		}
		for i, it := range res.Dropped {
			if lineStarting(human, fmt.Sprintf("  %d. %s %s:%s  ", len(res.Items)+i+1, it.Source, it.Category, it.Name)) == "" {
				t.Errorf("%q: dropped %s:%s not listed", args, it.Category, it.Name)
			}
		}
		summary := render.Plural(len(res.Items), "item", "items") + ", "
		if !strings.Contains(human, "\n"+summary) || !strings.Contains(human, "embedding not used\n") {
			t.Errorf("%q: no summary %q in\n%s", args, summary, human)
		}
	}
}

func lineStarting(text, prefix string) string {
	for l := range strings.Lines(text) {
		if strings.HasPrefix(l, prefix) {
			return strings.TrimSuffix(l, "\n")
		}
	}
	return ""
}

func TestRetrieveShowsControlCharactersEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	c := newCLI(t, nil)
	c.ok("--store", dir, "add", "notes", "evil", "--content", "beach \x1b[31mred\x1b[0m\ttab")
	human := c.ok("--store", dir, "retrieve", "beach")
	if strings.Contains(human, "\x1b") {
		t.Errorf("raw ESC reached the terminal: %q", human)
	}
	if !strings.Contains(human, `    beach \x1b[31mred\x1b[0m`+"\ttab\n") {
		t.Errorf("content not shown escaped: %q", human)
	}
	// get prints content exactly; only the human retrieve output escapes.
	if got := c.ok("--store", dir, "get", "notes", "evil"); got != "beach \x1b[31mred\x1b[0m\ttab" {
		t.Errorf("get = %q", got)
	}
}

func TestReindex(t *testing.T) {
	dir := copySample(t)
	c := newCLI(t, nil)
	n := strings.Count(c.ok("--store", dir, "ls"), "\n")
	out := c.ok("--store", dir, "reindex")
	if !strings.HasPrefix(out, fmt.Sprintf("indexed %d entries in ", n)) || !strings.HasSuffix(out, " (analyzer "+index.DefaultAnalyzer+")\n") {
		t.Errorf("reindex = %q (ls shows %d entries)", out, n)
	}

	// A hand-broken file is skipped with its reason, and the status says so.
	bad := filepath.Join(dir, "notes", "broken.md")
	if err := os.WriteFile(bad, []byte("body \xff\n") /* not UTF-8; broken front matter is read since issue 24 */, 0o644); err != nil {
		t.Fatal(err)
	}
	o := c.run("--store", dir, "reindex")
	if o.code != exitFailure {
		t.Fatalf("reindex with a broken file: exit %d", o.code)
	}
	if !strings.HasPrefix(o.stdout, fmt.Sprintf("indexed %d entries in ", n)) {
		t.Errorf("stdout = %q", o.stdout)
	}
	lines := strings.Split(strings.TrimSuffix(o.stderr, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "skipped ") || !strings.Contains(lines[0], "broken.md") ||
		!strings.Contains(lines[0], "UTF-8") || lines[1] != "recall: reindex: 1 entry could not be read" {
		t.Errorf("stderr = %q", o.stderr)
	}
	// ls --long reads the entries: it reports it the same way, and lists
	// the rest.
	o = c.run("--store", dir, "ls", "--long")
	if o.code != exitFailure || strings.Count(o.stdout, "\n") != n || !strings.Contains(o.stderr, "broken.md") {
		t.Errorf("ls --long with a broken file: %+v", o)
	}
	// Plain ls lists names without reading files: the broken one is listed.
	o = c.run("--store", dir, "ls")
	if o.code != 0 || strings.Count(o.stdout, "\n") != n+1 || !strings.Contains(o.stdout, "notes:broken\n") || o.stderr != "" {
		t.Errorf("ls with a broken file: %+v", o)
	}
	// A file whose name cannot be an entry is still reported (one longer
	// than a name may be; "bad:name.md" is read since issue 24).
	long := strings.Repeat("n", store.MaxNameBytes+1) + ".md"
	if err := os.WriteFile(filepath.Join(dir, "notes", long), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	o = c.run("--store", dir, "ls")
	if o.code != exitFailure || strings.Count(o.stdout, "\n") != n+1 || !strings.Contains(o.stderr, long) {
		t.Errorf("ls with an unmappable file: %+v", o)
	}
}

// The retrieve golden tests depend on the sample; make sure the copies
// really are copies.
func TestSampleUntouched(t *testing.T) {
	before := snapshotDir(t, sampleMemory)
	stores := sampleStores(t)
	c := newCLI(t, nil)
	c.ok("--store", stores["fs"], "add", "notes", "scratch", "--content", "x")
	c.ok("--store", stores["fs"], "rm", "trips", "三亚之行")
	if after := snapshotDir(t, sampleMemory); !bytes.Equal(before, after) {
		t.Fatal("the sample memory changed")
	}
}

func snapshotDir(t *testing.T, dir string) []byte {
	t.Helper()
	var b bytes.Buffer
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		fmt.Fprintf(&b, "%s %d\n", p, len(data))
		b.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
