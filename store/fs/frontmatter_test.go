package fs

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/recallhq/recall/store"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "frontmatter", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFrontMatterRoundTrip(t *testing.T) {
	utc := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	tests := []struct {
		file    string
		content string
		meta    store.Meta
	}{
		{
			file:    "unknown-keys.md",
			content: "# Sanya\n\nThe sea is blue.\n",
			meta: store.Meta{
				Tags:    []string{"travel", "海边"},
				Created: utc("2024-03-01T01:30:00Z"),
				Extra: map[string]any{
					"title":  "Trip to Sanya",
					"rating": 5,
					"score":  4.0, // stays a float, though yaml would write it as 4
					"nested": map[string]any{
						"when": utc("2024-03-02T00:00:00Z"),
						"who":  []any{"alice", "bob"},
					},
				},
			},
		},
		{file: "content-dashes.md", content: "---\nnot: front matter\n---\nbody\n"},
		{file: "plain.md", content: "Just text.\n\n---\n\nmore\n"},
		{
			file:    "crlf.md",
			content: "Line one\r\nLine two\r\n",
			meta:    store.Meta{Tags: []string{"work"}, Updated: utc("2024-05-06T00:00:00Z")},
		},
		{file: "unclosed.md", content: "---\nthis looks like a thematic break\n\nand never closes\n"},
		{file: "empty.md", content: "body"},
		{file: "comment-only.md", content: "body"},
		{
			file: "loose-values.md",
			meta: store.Meta{Tags: []string{"journal"}, Created: utc("2024-01-02T03:04:05Z")},
		},
		{file: "closing-at-eof.md", meta: store.Meta{Tags: []string{"a"}}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			raw := readFixture(t, tc.file)
			m, content, err := parseFile(raw)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if content != tc.content {
				t.Errorf("content = %q, want %q", content, tc.content)
			}
			if !sameMeta(m, tc.meta) {
				t.Errorf("meta = %#v, want %#v", m, tc.meta)
			}
			// Written back and read again, nothing changes; written once
			// more, the bytes are the same (the canonical form is stable).
			out, err := renderFile(m, content)
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			m2, content2, err := parseFile(out)
			if err != nil {
				t.Fatalf("parse of rendered file: %v\n%s", err, out)
			}
			if content2 != content || !sameMeta(m2, m) {
				t.Errorf("round trip changed the entry:\n%s\ngot %q %#v", out, content2, m2)
			}
			if out2, _ := renderFile(m2, content2); !bytes.Equal(out, out2) {
				t.Errorf("second render differs:\n%s\n---- vs ----\n%s", out, out2)
			}
		})
	}
}

// Front matter that does not parse is kept verbatim (issue 24; it was an
// error until then), and UnparsedProblem says why, with the file's line.
func TestFrontMatterErrors(t *testing.T) {
	tests := []struct {
		file string
		want string // in the error message
	}{
		{"broken-yaml.md", "line 3: mapping values are not allowed"}, // counted from the file's first line
		{"document-end.md", "did not find expected <document start>"},
		{"duplicate-key.md", `line 3: key "a" appears twice`},
		{"not-a-mapping.md", "line 2: is a list, want a mapping"},
		{"two-documents.md", "line 3: holds more than one YAML document"},
	}
	for _, tc := range tests {
		b := readFixture(t, tc.file)
		m, content, err := parseFile(b)
		if p := UnparsedProblem(m); err != nil || !strings.Contains(p, tc.want) {
			t.Errorf("%s: problem = %q, %v, want one containing %q", tc.file, p, err, tc.want)
		}
		if block, _ := m.Extra[store.UnparsedFrontMatter].(string); block+content != string(b) {
			t.Errorf("%s: block %q and content %q are not the file", tc.file, block, content)
		}
	}
}

func TestRenderNeedsFrontMatter(t *testing.T) {
	tests := []struct {
		content string
		want    string
	}{
		{"plain", "plain"},
		{"", ""},
		{"--- not a delimiter but close", "---\n---\n--- not a delimiter but close"},
		{"---\nx: 1\n---\n", "---\n---\n---\nx: 1\n---\n"},
		{" ---", " ---"},
	}
	for _, tc := range tests {
		got, err := renderFile(store.Meta{}, tc.content)
		if err != nil || string(got) != tc.want {
			t.Errorf("renderFile(%q) = %q, %v; want %q", tc.content, got, err, tc.want)
		}
	}
}

// sameMeta compares metadata the way a reader would: times as instants,
// no tags and empty tags alike.
func sameMeta(a, b store.Meta) bool {
	if len(a.Tags) != len(b.Tags) || (len(a.Tags) > 0 && !slices.Equal(a.Tags, b.Tags)) {
		return false
	}
	if !a.Created.Equal(b.Created) || !a.Updated.Equal(b.Updated) {
		return false
	}
	if len(a.Extra) == 0 && len(b.Extra) == 0 {
		return true
	}
	return reflect.DeepEqual(normTimes(a.Extra), normTimes(b.Extra))
}

// normTimes maps nested times to UTC so DeepEqual compares instants.
func normTimes(v any) any {
	switch v := v.(type) {
	case time.Time:
		return v.UTC()
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = normTimes(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normTimes(x)
		}
		return out
	}
	return v
}

// FuzzFrontMatter checks that the parser never panics on any file, that a
// parsed file written back reads the same and is then stable byte for
// byte, and that any content (with any tag and extra value) survives
// render then parse exactly.
func FuzzFrontMatter(f *testing.F) {
	entries, err := os.ReadDir(filepath.Join("testdata", "frontmatter"))
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		f.Add(string(readFixture(f, e.Name())), "tag", "extra")
	}
	f.Add("---\n<<: {a: 1}\n---\n", "~", "123")
	f.Add("---\nk: &x [1, 2]\nj: *x\n---\n---", "", "\r\n")
	f.Add("---\r\n---\r\n", "a\nb", "2024-01-01")
	f.Add(unreadNote, "t", "x") // values kept under unparsed_keys
	f.Add("---\n{up: \"[[P]]\", created: undefined, tags: {a: 1}}\n---\nb", "t", "x")
	f.Add("---\r\ntags:\r\n# c\r\n  a: 1\r\ncreated: <% x %>\r\n---\r\n", "t", "x")
	f.Fuzz(func(t *testing.T, file, tag, extra string) {
		m, content, err := parseFile([]byte(file))
		if err == nil {
			out, err := renderFile(m, content)
			if err != nil {
				t.Fatalf("render of parsed %q: %v", file, err)
			}
			m2, content2, err := parseFile(out)
			if err != nil {
				t.Fatalf("parse of rendered %q: %v", out, err)
			}
			if content2 != content {
				t.Fatalf("content %q came back as %q", content, content2)
			}
			if !slices.Equal(m2.Tags, m.Tags) || !m2.Created.Equal(m.Created) || !m2.Updated.Equal(m.Updated) {
				t.Fatalf("meta %#v came back as %#v", m, m2)
			}
			if out2, err := renderFile(m2, content2); err != nil || !bytes.Equal(out, out2) {
				t.Fatalf("render not stable:\n%q\n%q (%v)", out, out2, err)
			}
			// Front matter kept verbatim (issue 24) is written back byte for byte.
			if _, ok := unparsedBlock(m); ok && !bytes.Equal(out, []byte(file)) && strings.HasSuffix(file, "\n") {
				t.Fatalf("kept front matter of %q rendered as %q", file, out)
			}
		}

		// Any content, bare or under metadata, reads back unchanged.
		for _, m := range []store.Meta{{}, {Tags: []string{tag}, Extra: map[string]any{"note": extra}}} {
			out, err := renderFile(m, file)
			if (!utf8.ValidString(tag) || store.BlankTag(tag)) && len(m.Tags) > 0 {
				if err == nil {
					t.Fatalf("render accepted tag %q that is not UTF-8 or blank", tag)
				}
				continue
			}
			if err != nil {
				t.Fatalf("render(%#v, %q): %v", m, file, err)
			}
			m2, content, err := parseFile(out)
			if err != nil {
				t.Fatalf("parse of rendered %q: %v", out, err)
			}
			if content != file {
				t.Fatalf("content %q came back as %q from %q", file, content, out)
			}
			if len(m.Tags) > 0 && (!slices.Equal(m2.Tags, m.Tags) || m2.Extra["note"] != extra) {
				t.Fatalf("meta %#v came back as %#v from %q", m, m2, out)
			}
		}
	})
}

// TestRenderTimesOnly checks that the direct rendering of created and
// updated writes exactly the bytes the YAML encoder writes, over times in
// many zones and precisions, and that they read back.
func TestRenderTimesOnly(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	zones := []*time.Location{time.UTC, time.FixedZone("", 0), time.FixedZone("x", 5*3600+45*60),
		time.FixedZone("y", -(9*3600 + 30*60)), time.FixedZone("lmt", 561)}
	if l, err := time.LoadLocation("Asia/Shanghai"); err == nil {
		zones = append(zones, l)
	}
	randTime := func() time.Time {
		if r.IntN(5) == 0 {
			return time.Time{}
		}
		sec := r.Int64N(time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC).Unix()-time.Date(1000, 1, 2, 0, 0, 0, 0, time.UTC).Unix()) +
			time.Date(1000, 1, 2, 0, 0, 0, 0, time.UTC).Unix()
		nsec := []int64{0, 0, int64(r.IntN(1000)) * 1e6, r.Int64N(1e9), 100}[r.IntN(5)]
		return time.Unix(sec, nsec).In(zones[r.IntN(len(zones))])
	}
	for i := range 5000 {
		m := store.Meta{Created: randTime(), Updated: randTime()}
		content := []string{"", "body\n", "---\nstarts like front matter", "海边"}[i%4]
		got, ok := renderTimesOnly(m, content)
		if !ok {
			t.Fatalf("renderTimesOnly refused %+v", m)
		}
		want, err := renderFileYAML(m, content)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%+v:\ngot  %q\nwant %q", m, got, want)
		}
		_, offC := m.Created.Zone()
		_, offU := m.Updated.Zone()
		if m.IsZero() && !needsFrontMatter(content) || offC%60 != 0 || offU%60 != 0 {
			continue // no front matter at all; RFC 3339 has no offset seconds
		}
		back, c, err := parseFile(got)
		if err != nil || c != content || !back.Created.Equal(m.Created) || !back.Updated.Equal(m.Updated) {
			t.Fatalf("%+v reads back as %+v %q (%v)", m, back, c, err)
		}
	}
	for _, m := range []store.Meta{{Tags: []string{"a"}}, {Extra: map[string]any{"k": 1}},
		{Created: time.Date(999, 1, 1, 0, 0, 0, 0, time.UTC)}, {Updated: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}} {
		if _, ok := renderTimesOnly(m, "x"); ok {
			t.Errorf("renderTimesOnly took %+v", m)
		}
	}
}

// The event date: a bare YAML date stays a date without a time of day and
// is written back as one; an RFC 3339 time keeps its instant; a date
// value that is not a date stays in Extra, as before recall read dates.
func TestFrontMatterDate(t *testing.T) {
	cases := []struct {
		file     string
		date     time.Time
		dateOnly bool
		extra    any
		written  string // the date line renderFile writes back
	}{
		{"---\ndate: 2024-05-03\n---\nx", time.Date(2024, 5, 3, 0, 0, 0, 0, time.UTC), true, nil, "date: 2024-05-03\n"},
		{"---\ndate: \"2024-05-03\"\n---\nx", time.Date(2024, 5, 3, 0, 0, 0, 0, time.UTC), true, nil, "date: 2024-05-03\n"},
		{"---\ndate: 2024-05-03T14:30:00+08:00\n---\nx", time.Date(2024, 5, 3, 6, 30, 0, 0, time.UTC), false, nil, "date: 2024-05-03T14:30:00+08:00\n"},
		{"---\ndate: 2024-05-03 14:30\n---\nx", time.Date(2024, 5, 3, 14, 30, 0, 0, time.UTC), false, nil, "date: 2024-05-03T14:30:00Z\n"},
		{"---\ndate: last spring\n---\nx", time.Time{}, false, "last spring", "date: last spring\n"},
	}
	for _, tc := range cases {
		m, content, err := parseFile([]byte(tc.file))
		if err != nil {
			t.Fatalf("%q: %v", tc.file, err)
		}
		if !m.Date.Equal(tc.date) || store.IsDateOnly(m.Date) != tc.dateOnly || m.Extra["date"] != tc.extra {
			t.Errorf("%q: date %v (date only %v), extra %v; want %v (%v), %v", tc.file, m.Date, store.IsDateOnly(m.Date), m.Extra["date"], tc.date, tc.dateOnly, tc.extra)
		}
		out, err := renderFile(m, content)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), "\n"+tc.written) {
			t.Errorf("%q written back as %q, want the line %q", tc.file, out, tc.written)
		}
		m2, _, err := parseFile(out)
		if err != nil || !m2.Date.Equal(m.Date) || store.IsDateOnly(m2.Date) != tc.dateOnly {
			t.Errorf("%q: second read %v, %v", tc.file, m2.Date, err)
		}
	}
	if _, err := renderFile(store.Meta{Date: time.Now(), Extra: map[string]any{"date": "x"}}, "x"); err == nil {
		t.Error("a date both in Meta.Date and in Extra was written")
	}
}

// A time without a zone is read as UTC in every form people and tools
// write it, 'T' and seconds included (Templater's and Obsidian's own
// "YYYY-MM-DDTHH:mm:ss"): it was refused, so the whole front matter was
// kept verbatim and the note lost its tags, aliases and property links
// (issue 24; 346 notes of a real vault, docs/benchmarks.md "Real vaults").
func TestFrontMatterZonelessTime(t *testing.T) {
	want := time.Date(2025, 12, 6, 23, 31, 33, 0, time.UTC)
	for _, v := range []string{
		"2025-12-06T23:31:33",
		"2025-12-06t23:31:33",
		"2025-12-06 23:31:33",
		`"2025-12-06T23:31:33"`,
		"2025-12-06T23:31:33.000",
		"2025-12-06T23:31:33Z",
	} {
		file := "---\ncreated: " + v + "\nupdated: " + v + "\ndate: " + v + "\ntags: [a]\nup: \"[[Parent]]\"\n---\nx"
		m, content, err := parseFile([]byte(file))
		if err != nil || content != "x" {
			t.Fatalf("%s: %v, content %q", v, err, content)
		}
		if p := UnparsedProblem(m); p != "" {
			t.Errorf("%s: kept verbatim: %s", v, p)
			continue
		}
		if !m.Created.Equal(want) || !m.Updated.Equal(want) || !m.Date.Equal(want) {
			t.Errorf("%s: created %v, updated %v, date %v; want %v", v, m.Created, m.Updated, m.Date, want)
		}
		if len(m.Tags) != 1 || m.Extra["up"] != "[[Parent]]" {
			t.Errorf("%s: tags %q, extra %v", v, m.Tags, m.Extra)
		}
	}
	// Minutes only, with 'T' or a space, as before.
	for _, v := range []string{"2025-12-06T23:31", "2025-12-06 23:31"} {
		m, _, _ := parseFile([]byte("---\ncreated: " + v + "\n---\nx"))
		if !m.Created.Equal(time.Date(2025, 12, 6, 23, 31, 0, 0, time.UTC)) {
			t.Errorf("%s: created %v", v, m.Created)
		}
	}
}

// A blank tag ("", spaces, or "#" alone) is no tag, as in Obsidian: it
// was read as a tag, which an import then refused, skipping the note
// (issue 24).
func TestFrontMatterBlankTags(t *testing.T) {
	cases := []struct {
		tags string
		want []string
	}{
		{`[""]`, []string{}},
		{`["", a]`, []string{"a"}},
		{`["#", a, " "]`, []string{"a"}},
		{"\n  - \"#\"\n  - b", []string{"b"}},
		{`""`, nil},
		{`"#"`, nil},
		{`"#x"`, []string{"#x"}}, // a tag as written, not blank
	}
	for _, tc := range cases {
		m, _, err := parseFile([]byte("---\ntags: " + tc.tags + "\n---\nx"))
		if err != nil || UnparsedProblem(m) != "" {
			t.Fatalf("%s: %v %s", tc.tags, err, UnparsedProblem(m))
		}
		if !slices.Equal(m.Tags, tc.want) || (m.Tags == nil) != (tc.want == nil) {
			t.Errorf("tags: %s read as %q, want %q", tc.tags, m.Tags, tc.want)
		}
		if _, err := store.CleanTags(m.Tags); err != nil {
			t.Errorf("tags: %s: %v", tc.tags, err)
		}
	}
}
