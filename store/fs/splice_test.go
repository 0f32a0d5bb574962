package fs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// handFrontMatter is front matter as people and other tools write it:
// comments, odd quoting, a bare date, numbers YAML would respell, unknown
// keys, nested maps and lists, an empty value, keys in no order recall
// would choose.
const handFrontMatter = `---
# Written by hand, then by Obsidian
title: "Trip: Sanya"   # quoted, with a comment
aliases: [Sanya, 三亚]
date: 2024-01-05
price: 4.50
rating: 05
done: yes
created: 2023-12-31
mood: 'sunny'
nested:
  a: 1
  # a comment inside
  list:
    - x
    - {y: 2}
notes: |
  # not a comment: a line of this block
  second line
tags:
  - travel
  - 海边
empty:
---
`

const handBody = "The sea at Sanya is very blue.\n"

// appendFn is what `recall append` does to an entry (service.Append).
func appendFn(text string) func(store.Entry, bool) (store.Entry, error) {
	return func(old store.Entry, _ bool) (store.Entry, error) {
		e := old
		e.Meta.Updated = time.Time{}
		e.Content += text
		return e, nil
	}
}

func writeNote(t *testing.T, s *Store, name, data string) string {
	t.Helper()
	path := filepath.Join(s.root, "trips", name+".md")
	writeFile(t, path, data)
	return path
}

func readNote(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWriteKeepsFrontMatter: an append, an edit or an add through recall
// keeps a note's front matter byte for byte but for the keys it changes,
// and adds no created or updated the note did not have (issue 24).
func TestWriteKeepsFrontMatter(t *testing.T) {
	s := openTemp(t)
	update := func(name string, fn func(store.Entry, bool) (store.Entry, error)) {
		t.Helper()
		if err := s.Update(ctx, "trips", name, fn); err != nil {
			t.Fatal(err)
		}
	}

	// Append: only the body changes.
	path := writeNote(t, s, "sanya", handFrontMatter+handBody)
	update("sanya", appendFn("Appended.\n"))
	if got, want := readNote(t, path), handFrontMatter+handBody+"Appended.\n"; got != want {
		t.Errorf("after append:\n%s\nwant\n%s", got, want)
	}

	// An updated key the note has is set to now, in the note's own form
	// (a bare date stays a bare date); nothing else moves.
	withUpdated := strings.Replace(handFrontMatter, "mood: 'sunny'\n", "mood: 'sunny'\nupdated: 2024-01-06 # by hand\n", 1)
	path = writeNote(t, s, "updated", withUpdated+handBody)
	update("updated", appendFn("x"))
	today := time.Now().UTC().Format(time.DateOnly)
	if got, want := readNote(t, path), strings.Replace(withUpdated, "updated: 2024-01-06 # by hand", "updated: "+today+" # by hand", 1)+handBody+"x"; got != want {
		t.Errorf("after append with updated:\n%s\nwant\n%s", got, want)
	}
	withTime := strings.Replace(handFrontMatter, "mood: 'sunny'\n", "updated: \"2024-01-06T10:00:00+08:00\"\nmood: 'sunny'\n", 1)
	path = writeNote(t, s, "updatedtime", withTime+handBody)
	before := time.Now().Add(-time.Second)
	update("updatedtime", appendFn("x"))
	e, err := s.Get(ctx, "trips", "updatedtime")
	if err != nil {
		t.Fatal(err)
	}
	line := "updated: \"" + e.Meta.Updated.Format(time.RFC3339) + "\"\n"
	if got, want := readNote(t, path), strings.Replace(withTime, "updated: \"2024-01-06T10:00:00+08:00\"\n", line, 1)+handBody+"x"; got != want || e.Meta.Updated.Before(before) {
		t.Errorf("after append with a quoted updated time (%v):\n%s\nwant\n%s", e.Meta.Updated, got, want)
	}

	// New tags (recall add --tag): the tags block alone is rewritten, in place.
	path = writeNote(t, s, "tags", handFrontMatter+handBody)
	update("tags", func(old store.Entry, _ bool) (store.Entry, error) {
		old.Meta.Tags = []string{"travel", "sea"}
		old.Meta.Updated = time.Time{}
		return old, nil
	})
	if got, want := readNote(t, path), strings.Replace(handFrontMatter, "  - 海边\n", "  - sea\n", 1)+handBody; got != want {
		t.Errorf("after new tags:\n%s\nwant\n%s", got, want)
	}

	// A key dropped, one changed and one added (a metadata key another
	// part of recall sets, such as expires): those lines only.
	path = writeNote(t, s, "keys", handFrontMatter+handBody)
	update("keys", func(old store.Entry, _ bool) (store.Entry, error) {
		delete(old.Meta.Extra, "mood")
		old.Meta.Extra["rating"] = 4
		old.Meta.Extra["expires"] = "2025-01-01"
		old.Meta.Updated = time.Time{}
		return old, nil
	})
	want := strings.Replace(handFrontMatter, "mood: 'sunny'\n", "", 1)
	want = strings.Replace(want, "rating: 05\n", "rating: 4\n", 1)
	want = strings.Replace(want, "empty:\n", "empty:\nexpires: \"2025-01-01\"\n", 1)
	if got := readNote(t, path); got != want+handBody {
		t.Errorf("after key changes:\n%s\nwant\n%s", got, want+handBody)
	}

	// CRLF line ends stay CRLF, in the lines rewritten too.
	crlf := strings.ReplaceAll("---\ntitle: x   # c\nupdated: 2024-01-06\ntags: [a]\n---\n", "\n", "\r\n")
	path = writeNote(t, s, "crlf", crlf+"body\r\n")
	update("crlf", func(old store.Entry, _ bool) (store.Entry, error) {
		old.Meta.Tags = []string{"b"}
		old.Meta.Updated = time.Time{}
		return old, nil
	})
	wantCRLF := strings.ReplaceAll("---\ntitle: x   # c\nupdated: "+today+"\ntags:\n  - b\n---\n", "\n", "\r\n") + "body\r\n"
	if got := readNote(t, path); got != wantCRLF {
		t.Errorf("after a change in a CRLF note:\n%q\nwant\n%q", got, wantCRLF)
	}

	// No front matter: none is added.
	path = writeNote(t, s, "bare", "just text\n")
	update("bare", appendFn("more\n"))
	if got := readNote(t, path); got != "just text\nmore\n" {
		t.Errorf("after append to a note without front matter: %q", got)
	}

	// A front matter without created or updated: none is added, and a
	// flow-style mapping at the top stays as it is (on main it was
	// rewritten in block style, 4.50 as 4.5).
	path = writeNote(t, s, "flow", "---\n{mood: sunny, n: 4.50}\n---\nbody\n")
	update("flow", appendFn("x"))
	if got := readNote(t, path); got != "---\n{mood: sunny, n: 4.50}\n---\nbody\nx" {
		t.Errorf("after append to a flow-style front matter: %q", got)
	}
}

// TestWriteKeepsFlowFrontMatter: a front matter written as a YAML flow
// mapping, or in a layout the line splice cannot take apart (an indented
// top-level mapping), is kept byte for byte by an append, an edit or an
// add but for the values recall changes, each replaced where it stands
// (issue 24: on main every such note was rewritten in recall's own block
// form, comments dropped, 4.50 turned into 4.5).
func TestWriteKeepsFlowFrontMatter(t *testing.T) {
	s := openTemp(t)
	update := func(name string, fn func(store.Entry, bool) (store.Entry, error)) {
		t.Helper()
		if err := s.Update(ctx, "trips", name, fn); err != nil {
			t.Fatal(err)
		}
	}
	today := time.Now().UTC().Format(time.DateOnly)
	const flow = "---\n" +
		"# by hand\n" +
		"{a: 1, b: [x, y],   # a comment\n" +
		" when: \"2024-01-05\", price: 4.50,\n" +
		" updated: 2024-01-06, mood: 'sunny', tags: [travel, 海边]}\n" +
		"---\n"
	cases := []struct {
		name string
		fm   string
		fn   func(store.Entry, bool) (store.Entry, error)
		want string
	}{
		{"append sets updated in place", flow, appendFn("x"),
			strings.Replace(flow, "updated: 2024-01-06", "updated: "+today, 1)},
		{"odd layout, nothing changes", "---\n  title: x   # indented\n  n: 4.50\n  when: '2024-01-05'\n---\n", appendFn("x"),
			"---\n  title: x   # indented\n  n: 4.50\n  when: '2024-01-05'\n---\n"},
		{"flow without updated: nothing changes", "---\n{a: 1,\n  # note\n  d: \"2024-01-05\"}\n---\n", appendFn("x"),
			"---\n{a: 1,\n  # note\n  d: \"2024-01-05\"}\n---\n"},
		{"new tags and a changed key", flow, func(old store.Entry, _ bool) (store.Entry, error) {
			old.Meta.Tags = []string{"travel", "sea"}
			old.Meta.Extra["mood"] = "rain, then sun"
			old.Meta.Updated = time.Time{}
			old.Content += "x"
			return old, nil
		}, strings.NewReplacer("updated: 2024-01-06", "updated: "+today, "tags: [travel, 海边]", "tags: [travel, sea]", "mood: 'sunny'", "mood: 'rain, then sun'").Replace(flow)},
		{"a key dropped and one added", "---\n{a: 1, mood: sunny, z: 2}\n---\n", func(old store.Entry, _ bool) (store.Entry, error) {
			delete(old.Meta.Extra, "mood")
			old.Meta.Extra["expires"] = "2025-01-01"
			old.Meta.Updated = time.Time{}
			old.Content += "x"
			return old, nil
		}, "---\n{a: 1, z: 2, expires: \"2025-01-01\"}\n---\n"},
		{"quoted updated time", "---\n{updated: '2024-01-06T10:00:00+08:00', n: 4.50}\n---\n", appendFn("x"), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			name := strings.ReplaceAll(c.name, " ", "-")
			name = strings.ReplaceAll(name, ",", "")
			path := writeNote(t, s, name, c.fm+handBody)
			update(name, c.fn)
			e, err := s.Get(ctx, "trips", name)
			if err != nil {
				t.Fatal(err)
			}
			want := c.want
			if want == "" { // the time is now's, to the second
				want = "---\n{updated: '" + e.Meta.Updated.Format(time.RFC3339) + "', n: 4.50}\n---\n"
			}
			if got := readNote(t, path); got != want+handBody+"x" {
				t.Errorf("got\n%s\nwant\n%s", got, want+handBody+"x")
			}
		})
	}
}

// TestWriteOverOwnNotesUnchanged: over notes recall wrote itself (its
// canonical form), a write gives exactly the canonical form, as before
// splicing existed: tags added go first, as renderFile puts them.
func TestWriteOverOwnNotesUnchanged(t *testing.T) {
	s := openTemp(t)
	created := time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC)
	if err := s.Put(ctx, store.Entry{Category: "a", Name: "b", Content: "x",
		Meta: store.Meta{Created: created, Updated: created, Extra: map[string]any{"mood": "sunny"}}}); err != nil {
		t.Fatal(err)
	}
	var want store.Meta
	if err := s.Update(ctx, "a", "b", func(old store.Entry, _ bool) (store.Entry, error) {
		old.Meta.Tags = []string{"t"}
		old.Meta.Extra["z"] = 1.0
		old.Meta.Updated = time.Time{}
		old.Content += "y"
		return old, nil
	}); err != nil {
		t.Fatal(err)
	}
	e, err := s.Get(ctx, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	want = e.Meta
	canonical, err := renderFile(want, "xy")
	if err != nil {
		t.Fatal(err)
	}
	if got := readNote(t, filepath.Join(s.root, "a", "b.md")); got != string(canonical) {
		t.Errorf("file:\n%s\nwant the canonical\n%s", got, canonical)
	}
	if !e.Meta.Created.Equal(created) || !e.Meta.Updated.After(created) {
		t.Errorf("times %v, %v", e.Meta.Created, e.Meta.Updated)
	}
}

// TestSpliceReadsBackAsWanted: whatever the front matter's shape, a
// write reads back as the metadata and content it was given; where the
// splice cannot be exact it falls back to the canonical form.
func TestSpliceReadsBackAsWanted(t *testing.T) {
	s := openTemp(t)
	fronts := []string{
		"---\nnotes: |+\n  kept\n\n\nother: 1\n---\n",
		"---\nnotes: >\n  folded\n  text\n# trailing comment\n---\n",
		"---\na: &anchor [1, 2]\nb: *anchor\n---\n",
		"---\n\"quoted key\": 1\n'other': two\n---\n",
		"---\n# only a comment\n---\n",
		"---\n---\n",
		"---\nx: 1\n...\n---\n",
		"---\r\nx: 1\r\nlist:\r\n  - a\r\n---\r\n",
		"---\nlong: \"a\n  b\"\ny: 2\n---\n",
		"---\ntags: one\n---\n",
	}
	changes := []func(m *store.Meta){
		func(m *store.Meta) {},
		func(m *store.Meta) { m.Tags = []string{"new"} },
		func(m *store.Meta) { m.Extra = map[string]any{"notes": "changed\n\n\n", "other": 2} },
		func(m *store.Meta) { m.Extra = nil },
		func(m *store.Meta) {
			if m.Extra == nil {
				m.Extra = map[string]any{}
			}
			m.Extra["b"] = []any{3}
			m.Extra["z"] = map[string]any{"k": "v"}
		},
	}
	for i, front := range fronts {
		for j, change := range changes {
			name := "n" + string(rune('a'+i)) + string(rune('a'+j))
			writeNote(t, s, name, front+"body\n")
			var want store.Entry
			err := s.Update(ctx, "trips", name, func(old store.Entry, _ bool) (store.Entry, error) {
				old.Meta.Updated = time.Time{}
				change(&old.Meta)
				old.Content += "more"
				want = old
				return old, nil
			})
			if err != nil {
				t.Errorf("front %d, change %d: %v", i, j, err)
				continue
			}
			got, err := s.Get(ctx, "trips", name)
			if err != nil {
				t.Errorf("front %d, change %d: Get: %v", i, j, err)
				continue
			}
			if got.Content != want.Content || !metaMatches(got.Meta, want.Meta) {
				t.Errorf("front %d, change %d: read back %+v, want %+v", i, j, got, want)
			}
			if !got.Meta.Created.IsZero() || !got.Meta.Updated.IsZero() {
				t.Errorf("front %d, change %d: gained times %+v", i, j, got.Meta)
			}
		}
	}
}
