package fs

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/internal/zipsafe"
	"github.com/recallhq/recall/store"
)

// oddVault copies importer/testdata/oddvault (issue 24: names SPEC §1
// refuses for new entries, front matter strict YAML refuses) into a
// temporary folder with its real names.
func oddVault(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the file system refuses these names")
	}
	dst := filepath.Join(t.TempDir(), "vault")
	if err := zipsafe.CopyTree(filepath.Join("..", "..", "importer", "testdata", "oddvault"), dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// oddVaultKeys are the identities of its notes (store.EscapeName).
var oddVaultKeys = []string{
	"Odd%3A folder:inside",
	"Questions:%3Ctag%3E",
	"Questions:%5Bdraft%5D",
	"Questions:2%2A3",
	"Questions:C%23 notes",
	"Questions:Q3%3A plan",
	"Questions:What is it%3F",
	"Questions:a%7Cb",
	"Questions:back%5Cslash",
	"Questions:say %22hi%22",
	"Questions:x%5E2",
	"Readwise:Cut title%2E",
	"Readwise:Trailing%20",
	"_root:Home",
	"yaml:crlf",
	"yaml:excerpt",
	"yaml:quote",
	"yaml:source",
	"yaml:tabs",
	"yaml:template",
}

// Every note of the vault is read in place: on main, 13 of these 20 were
// reported as unreadable (11 names, and the folder's note) or as broken
// front matter (6).
func TestOddVaultReadInPlace(t *testing.T) {
	root := oddVault(t)
	s, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	all, errs := collect(t, s)
	if got := keys(all); !slices.Equal(got, oddVaultKeys) || len(errs) != 0 {
		t.Fatalf("All = %q\nerrors %v\nwant %q", got, errs, oddVaultKeys)
	}
	var listed []string
	for k, err := range s.Keys(ctx, "") {
		if err != nil {
			t.Fatal(err)
		}
		listed = append(listed, k.String())
	}
	slices.Sort(listed)
	if !slices.Equal(listed, oddVaultKeys) {
		t.Errorf("Keys = %q", listed)
	}
	// Found by the identity and by the name as written.
	for _, k := range [][3]string{
		{"Questions", "What is it%3F", "What is it?"},
		{"Readwise", "Cut title%2E", "Cut title."},
		{"Readwise", "Trailing%20", "Trailing "},
		{"Odd%3A folder", "inside", "inside"},
	} {
		for _, spelling := range [][2]string{{k[0], k[1]}, {store.CategoryPath(k[0]), k[2]}} {
			e, err := s.Get(ctx, spelling[0], spelling[1])
			if err != nil || e.Name != k[1] || e.Category != k[0] {
				t.Errorf("Get %q:%q = %s, %v", spelling[0], spelling[1], e.Key(), err)
			}
		}
	}
	e, err := s.Get(ctx, "Questions", "What is it?")
	if err != nil || !slices.Equal(e.Meta.Tags, []string{"question"}) || !strings.Contains(e.Content, "lighthouses") {
		t.Errorf("What is it? = %+v, %v", e, err)
	}
}

// A write to a mapped note goes to its own file, and the name as written
// is still refused for a new entry.
func TestOddNameWriteBack(t *testing.T) {
	root := oddVault(t)
	s, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	path := filepath.Join(root, "Questions", "What is it?.md")
	err = s.Update(ctx, "Questions", "What is it?", func(old store.Entry, found bool) (store.Entry, error) {
		if !found {
			t.Fatal("not found")
		}
		old.Content += "Appended.\n"
		return old, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "---\ntags: [question]\n---\nA question about lighthouses and their keepers.\nAppended.\n" {
		t.Fatalf("%s = %q, %v", path, b, err)
	}
	names, _ := os.ReadDir(filepath.Join(root, "Questions"))
	if len(names) != 10 {
		t.Errorf("Questions holds %d files after the write, want 10", len(names))
	}
	if err := s.Put(ctx, store.Entry{Category: "Questions", Name: "Why?", Content: "x"}); err == nil || !strings.Contains(err.Error(), `contains '?', which is not allowed`) {
		t.Errorf("Put of a new name with '?' = %v, want today's refusal", err)
	}
	// The identity of a mapped name is a valid name: a new one writes the
	// file as written, and reads back under the same identity.
	if err := s.Put(ctx, store.Entry{Category: "Odd%3A folder", Name: "Why%3F", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "Odd: folder", "Why?.md")); err != nil {
		t.Error(err)
	}
}

// Front matter strict YAML refuses is kept verbatim: the note is read, its
// body is its content, and an edit through recall changes the body alone,
// every byte of the block kept (CRLF and comments too). On main each of
// these notes was skipped as broken front matter.
func TestUnparsedFrontMatterVerbatim(t *testing.T) {
	root := oddVault(t)
	s, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, name := range []string{"excerpt", "source", "template", "quote", "tabs", "crlf"} {
		path := filepath.Join(root, "yaml", name+".md")
		before, _ := os.ReadFile(path)
		e, err := s.Get(ctx, "yaml", name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		block, _ := e.Meta.Extra[store.UnparsedFrontMatter].(string)
		if !strings.HasPrefix(string(before), block) || block == "" || string(before) != block+e.Content {
			t.Errorf("%s: block %q + content %q is not the file %q", name, block, e.Content, before)
		}
		if len(e.Meta.Tags) != 0 || !e.Meta.Created.IsZero() || len(e.Meta.Extra) != 1 {
			t.Errorf("%s: meta %+v, want the block alone", name, e.Meta)
		}
		if p := UnparsedProblem(e.Meta); !strings.HasPrefix(p, "front matter: ") {
			t.Errorf("%s: problem %q", name, p)
		}
		err = s.Update(ctx, "yaml", name, func(old store.Entry, _ bool) (store.Entry, error) {
			old.Content = strings.Replace(old.Content, " ", "  ", 1)
			old.Meta.Updated = store.Meta{}.Updated
			return old, nil
		})
		if err != nil {
			t.Fatalf("%s: update: %v", name, err)
		}
		after, _ := os.ReadFile(path)
		if !bytes.HasPrefix(after, []byte(block)) || string(after) != block+strings.Replace(e.Content, " ", "  ", 1) {
			t.Errorf("%s: after an edit %q, want the block kept and the body edited", name, after)
		}
		// Tags cannot be added to YAML recall cannot read: refused, nothing written.
		err = s.Update(ctx, "yaml", name, func(old store.Entry, _ bool) (store.Entry, error) {
			old.Meta.Tags = []string{"new"}
			return old, nil
		})
		if err == nil || !strings.Contains(err.Error(), "not valid YAML") {
			t.Errorf("%s: adding a tag = %v, want a refusal", name, err)
		}
		if again, _ := os.ReadFile(path); !bytes.Equal(again, after) {
			t.Errorf("%s: a refused write changed the file", name)
		}
	}
}

// A value under the key that is not a broken block is an ordinary key.
func TestUnparsedKeyOrdinaryValue(t *testing.T) {
	s := openTemp(t)
	for _, v := range []any{"plain text", "---\nvalid: yaml\n---\n", 3} {
		e := store.Entry{Category: "a", Name: "b", Content: "body\n", Meta: store.Meta{Extra: map[string]any{store.UnparsedFrontMatter: v}}}
		if err := s.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
		got, err := s.Get(ctx, "a", "b")
		if err != nil || got.Content != "body\n" || got.Meta.Extra[store.UnparsedFrontMatter] != v {
			t.Errorf("%v: got %+v, %v", v, got, err)
		}
	}
}
