package fs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// unreadNote is a vault note (as a public vault has them) whose front
// matter is valid YAML but whose created, updated and tags recall cannot
// read: an undefined date, an unexpanded Templater placeholder, tags of
// the wrong shape.
const unreadNote = "---\n" +
	"# kept by hand\n" +
	"aliases: [Bee]\n" +
	"up: \"[[Parent]]\"\n" +
	"created: undefined\n" +
	"updated: <% tp.date.now(\"YYYY-MM-DD\") %>   # Templater\n" +
	"tags:\n" +
	"  a: 1\n" +
	"price: 4.50\n" +
	"---\n" +
	"body\n"

// On the old code the whole block was kept verbatim as
// unparsed_front_matter: no aliases, no up, no price.
func TestUnreadValuesKeepOtherKeys(t *testing.T) {
	m, content, err := parseFile([]byte(unreadNote))
	if err != nil || content != "body\n" {
		t.Fatalf("parse: %q, %v", content, err)
	}
	if _, ok := m.Extra[store.UnparsedFrontMatter]; ok {
		t.Fatalf("the block was kept whole: %+v", m)
	}
	if len(m.Tags) != 0 || !m.Created.IsZero() || !m.Updated.IsZero() {
		t.Errorf("tags %v created %v updated %v, want none read", m.Tags, m.Created, m.Updated)
	}
	if a, _ := m.Extra["aliases"].([]any); len(a) != 1 || a[0] != "Bee" || m.Extra["up"] != "[[Parent]]" || m.Extra["price"] != 4.5 {
		t.Errorf("extra %+v, want aliases, up and price read", m.Extra)
	}
	if got := store.Aliases(m); !slices.Equal(got, []string{"Bee"}) {
		t.Errorf("aliases %v", got)
	}
	if got := store.PropertyLinks(m); !slices.Equal(got, []string{"[[Parent]]"}) {
		t.Errorf("property links %v", got)
	}
	vals, err := store.UnparsedValues(m)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]store.UnparsedValue{
		"created": {YAML: "created: undefined\n", Line: 5},
		"updated": {YAML: "updated: <% tp.date.now(\"YYYY-MM-DD\") %>   # Templater\n", Line: 6},
		"tags":    {YAML: "tags:\n  a: 1\n", Line: 7},
	}
	if len(vals) != len(want) {
		t.Errorf("kept %+v", vals)
	}
	for k, v := range want {
		if vals[k] != v {
			t.Errorf("%s kept as %+v, want %+v", k, vals[k], v)
		}
	}
	wantWarn := []string{
		`front matter: tags: line 8: is a mapping, want a list of tags ("a: 1"); kept as written, the value is ignored`,
		`front matter: created: line 5: "undefined" is not a time such as 2024-03-01T09:30:00Z; kept as written, the value is ignored`,
		`front matter: updated: line 6: "<% tp.date.now(\"YYYY-MM-DD\") %>" is not a time such as 2024-03-01T09:30:00Z; kept as written, the value is ignored`,
	}
	if got := UnparsedWarnings(m); !slices.Equal(got, wantWarn) {
		t.Errorf("warnings\n%q\nwant\n%q", got, wantWarn)
	}
	if p := UnparsedProblem(m); p != "" {
		t.Errorf("UnparsedProblem %q, want none (no block kept whole)", p)
	}
	// The fixtures that were kept whole before.
	for file, warn := range map[string]string{
		"bad-time.md": `front matter: created: line 2: "next tuesday" is not a time such as 2024-03-01T09:30:00Z; kept as written, the value is ignored`,
		"bad-tags.md": `front matter: tags: line 2: is a mapping, want a list of tags ("{a: 1}"); kept as written, the value is ignored`,
	} {
		m, content, err := parseFile(readFixture(t, file))
		if got := UnparsedWarnings(m); err != nil || content != "body\n" || !slices.Equal(got, []string{warn}) {
			t.Errorf("%s: %q %v: warnings %q", file, content, err, got)
		}
	}
}

// An append or edit through recall keeps every byte of the front matter,
// the unreadable lines included, and adds no created or updated. On the old
// code the whole block was kept verbatim too, but tags could not be set:
// now setting tags replaces the unreadable tags line alone.
func TestUnreadValuesKeptOnWrite(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "notes", "Bee.md")
	writeFile(t, path, unreadNote)
	crlf := strings.ReplaceAll(unreadNote, "\n", "\r\n")
	writeFile(t, filepath.Join(root, "notes", "Crlf.md"), crlf)
	s, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	appendBody := func(name string) {
		t.Helper()
		err := s.Update(ctx, "notes", name, func(old store.Entry, _ bool) (store.Entry, error) {
			old.Content += "more\n"
			old.Meta.Updated = store.Meta{}.Updated // as service.Append does
			return old, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	appendBody("Bee")
	if got, _ := os.ReadFile(path); string(got) != unreadNote+"more\n" {
		t.Errorf("after an append:\n%s\nwant\n%s", got, unreadNote+"more\n")
	}
	flow := "---\n{up: \"[[Parent]]\", created: undefined,   updated: [a, b]}\n---\nbody\n"
	writeFile(t, filepath.Join(root, "notes", "Flow.md"), flow)
	fe, err := s.Get(ctx, "notes", "Flow")
	wantFlow := []string{
		`front matter: created: line 2: "undefined" is not a time such as 2024-03-01T09:30:00Z; kept as written, the value is ignored`,
		`front matter: updated: line 2: is a list, want a time such as 2024-03-01T09:30:00Z ("[a, b]"); kept as written, the value is ignored`,
	}
	if got := UnparsedWarnings(fe.Meta); err != nil || fe.Meta.Extra["up"] != "[[Parent]]" || !slices.Equal(got, wantFlow) {
		t.Errorf("flow mapping: %+v, %v: %q", fe.Meta, err, got)
	}
	appendBody("Flow")
	if got, _ := os.ReadFile(filepath.Join(root, "notes", "Flow.md")); string(got) != flow+"more\n" {
		t.Errorf("after an append (flow mapping):\n%q", got)
	}
	appendBody("Crlf")
	if got, _ := os.ReadFile(filepath.Join(root, "notes", "Crlf.md")); string(got) != crlf+"more\n" {
		t.Errorf("after an append (CRLF):\n%q", got)
	}
	// Setting tags and a key: the tags line is replaced, the rest kept.
	err = s.Update(ctx, "notes", "Bee", func(old store.Entry, _ bool) (store.Entry, error) {
		old.Meta.Tags = []string{"fixed"}
		old.Meta.Extra["price"] = 5
		return old, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(strings.Replace(unreadNote, "tags:\n  a: 1\n", "tags:\n  - fixed\n", 1), "price: 4.50", "price: 5", 1) + "more\n"
	if got, _ := os.ReadFile(path); string(got) != want {
		t.Errorf("after setting tags:\n%s\nwant\n%s", got, want)
	}
	e, err := s.Get(ctx, "notes", "Bee")
	if err != nil || !slices.Equal(e.Meta.Tags, []string{"fixed"}) || len(UnparsedWarnings(e.Meta)) != 2 {
		t.Errorf("read back %+v, %v", e.Meta, err)
	}
}

// A new file (an export of an imported note) writes each kept value's
// text where the key goes, and not the entry's own time for it: reading
// it back keeps the same values.
func TestUnreadValuesRendered(t *testing.T) {
	m, content, err := parseFile([]byte(unreadNote))
	if err != nil {
		t.Fatal(err)
	}
	s := openTemp(t)
	defer s.Close()
	e := store.Entry{Category: "out", Name: "Bee", Content: content, Meta: m}
	e.Meta.Created = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC) // the backend's own, as bolt has it
	if err := s.Put(ctx, e); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("out", "Bee")
	got, _ := os.ReadFile(p)
	want := "---\n" +
		"tags:\n  a: 1\n" +
		"created: undefined\n" +
		"updated: <% tp.date.now(\"YYYY-MM-DD\") %>   # Templater\n" +
		"aliases:\n  - Bee\n" +
		"price: 4.5\n" +
		"up: '[[Parent]]'\n" +
		"---\nbody\n"
	if string(got) != want {
		t.Errorf("rendered\n%s\nwant\n%s", got, want)
	}
	back, _, err := parseFile(got)
	if err != nil || !metaMatches(back, m) || len(UnparsedWarnings(back)) != 3 {
		t.Errorf("read back %+v, %v", back, err)
	}
}

// Extra may not shadow the fields of Meta, and what it keeps under
// store.UnparsedKeys must be of that form (on the old code the first was
// refused by this store only, the second written as a key of its own).
func TestUnreadValuesValidated(t *testing.T) {
	s := openTemp(t)
	defer s.Close()
	for _, extra := range []map[string]any{
		{"created": "undefined"},
		{store.UnparsedKeys: "created: undefined\n"},
		{store.UnparsedKeys: map[string]any{"date": map[string]any{"yaml": "date: x\n", "line": 2}}},
		{store.UnparsedKeys: map[string]any{"created": map[string]any{"yaml": "updated: x\n", "line": 2}}},
		{store.UnparsedKeys: map[string]any{"created": map[string]any{"yaml": "created: x\nupdated: y\n", "line": 2}}},
		{store.UnparsedKeys: map[string]any{"created": map[string]any{"yaml": "created: x\n"}}},
		{store.UnparsedKeys: map[string]any{"created": map[string]any{"yaml": "created: x\n", "line": 1 << 40}}},
	} {
		e := store.Entry{Category: "a", Name: "b", Content: "x\n", Meta: store.Meta{Extra: extra}}
		if err := store.Validate(e); err == nil {
			if err := s.Put(ctx, e); err == nil {
				t.Errorf("%v: written", extra)
			}
		}
	}
}

// A note that writes recall's own key itself is kept whole, so that no
// write takes the user's key for recall's (and drops it).
func TestUnparsedKeysInFile(t *testing.T) {
	file := "---\nup: x\nunparsed_keys: {created: {yaml: \"created: y\\n\", line: 2}}\n---\nbody\n"
	m, content, err := parseFile([]byte(file))
	if block, _ := m.Extra[store.UnparsedFrontMatter].(string); err != nil || block+content != file || !strings.Contains(UnparsedProblem(m), `line 3: key "unparsed_keys" is the one recall keeps`) {
		t.Errorf("%+v %q %v: %q", m, content, err, UnparsedProblem(m))
	}
}

// A value that does not stand alone (an alias of an anchor of another
// key) keeps the front matter whole, as before: its text could not be
// written back without the anchor.
func TestUnreadValueAlias(t *testing.T) {
	file := "---\nbase: &b {a: 1}\ntags: *b\n---\nbody\n"
	m, content, err := parseFile([]byte(file))
	if block, _ := m.Extra[store.UnparsedFrontMatter].(string); err != nil || block+content != file {
		t.Errorf("%+v %q %v", m, content, err)
	}
}
