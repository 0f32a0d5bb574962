package importer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
	fsstore "github.com/recallhq/recall/store/fs"
)

var ctx = context.Background()

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// stores opens an empty store of each backend.
func stores(t *testing.T) map[string]store.Store {
	t.Helper()
	fsSt, err := fsstore.Open(filepath.Join(t.TempDir(), "memory"), nil)
	if err != nil {
		t.Fatal(err)
	}
	boltSt, err := boltstore.Open(filepath.Join(t.TempDir(), "memory.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsSt.Close(); boltSt.Close() })
	return map[string]store.Store{"fs": fsSt, "bolt": boltSt}
}

func keysOf(items []Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Entry.Key().String())
	}
	return out
}

func storedKeys(t *testing.T, st store.Store) []string {
	t.Helper()
	var out []string
	for e, err := range st.All(ctx) {
		if err != nil {
			t.Fatalf("All: %v", err)
		}
		out = append(out, e.Key().String())
	}
	slices.Sort(out)
	return out
}

func revision(t *testing.T, st store.Store) uint64 {
	t.Helper()
	r, err := st.Revision(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Skips, renames and counts of a vault that today's name rules and those
// of SPEC §1 treat alike.
func TestReadVaultRules(t *testing.T) {
	vault := t.TempDir()
	stamp := time.Date(2023, 5, 6, 7, 8, 9, 123456789, time.UTC)
	files := map[string]string{
		"r.md":                      "a root note",
		"dup.md":                    "a root note, read before the folder notes/",
		RootCategory + "/dup.md":    "the folder named like the root category",
		"people/alice.md":           "---\ntags: [a, b, a]\ncreated: 2020-01-02\n---\nAlice.",
		"people/bad:name.md":        "x",
		"people/empty-tag.md":       "---\ntags: [a, \"\"]\n---\nx",
		"people/broken.md":          "---\ntags: [unclosed\n---\nbody\n",
		"people/notes.txt":          "an attachment",
		"people/.draft.md":          "hidden",
		".git/config":               "hidden folder, counted once",
		".git/HEAD":                 "",
		".obsidian/a.json":          "{}",
		".obsidian/b/c.md":          "settings",
		".trash/gone.md":            "trash",
		"a/b/c/d/e/f/g/h/i/deep.md": "nine folders deep",
	}
	for name, data := range files {
		writeFile(t, filepath.Join(vault, filepath.FromSlash(name)), data)
	}
	if err := os.Chtimes(filepath.Join(vault, "r.md"), stamp, stamp); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("alice.md", filepath.Join(vault, "people", "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("people", filepath.Join(vault, "dirlink")); err != nil {
		t.Fatal(err)
	}
	p, err := ReadVault(ctx, vault, VaultOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A name SPEC §1 refuses for new entries is mapped, and front matter
	// that does not parse is kept verbatim, with a warning (issue 24: both
	// were skipped until then).
	// A blank tag is no tag (issue 24: the note was skipped).
	if got, want := keysOf(p.Items), []string{RootCategory + ":dup", "people:alice", "people:bad%3Aname", "people:broken", "people:empty-tag", RootCategory + ":r"}; !slices.Equal(got, want) {
		t.Errorf("items = %q, want %q", got, want)
	}
	path := func(rel string) string { return filepath.Join(vault, filepath.FromSlash(rel)) }
	dupRename := "dup (2)"
	if store.ValidateName("name", dupRename) != nil { // names without '(' (before SPEC §1 of issue 11)
		dupRename = "dup-2"
	}
	want := []Skip{
		{Where: path("a/b/c/d/e/f/g/h/i"), Reason: "folder is 9 levels deep, a category holds at most 8; its 1 note is not imported"},
		{Where: path("dirlink"), Reason: "is a symbolic link; links are not followed"},
		{Where: path("dup.md"), Reason: RootCategory + ":dup was already read from " + path(RootCategory+"/dup.md"), Rename: dupRename},
		{Where: path("people/link.md"), Reason: "is a symbolic link; links are not followed"},
	}
	if len(p.Warnings) != 1 || p.Warnings[0].Where != path("people/broken.md") || !strings.HasPrefix(p.Warnings[0].Reason, "front matter: ") {
		t.Errorf("warnings = %v, want the one about people/broken.md", p.Warnings)
	}
	if len(p.Skipped) != len(want) {
		t.Fatalf("skipped:\n%v\nwant %d", p.Skipped, len(want))
	}
	for i, w := range want {
		s := p.Skipped[i]
		if s.Where != w.Where || !strings.HasPrefix(s.Reason, w.Reason) || s.Rename != w.Rename {
			t.Errorf("skip %d = %+v, want %+v", i, s, w)
		}
	}
	if w := (Ignored{Obsidian: 2, Trash: 1, Hidden: 2, Attachments: 1}); p.Ignored != w {
		t.Errorf("ignored = %+v, want %+v", p.Ignored, w)
	}
	if s := p.Ignored.String(); s != "2 in .obsidian, 1 in .trash, 1 attachment, 2 hidden" {
		t.Errorf("ignored reads %q", s)
	}
	alice, root := p.Items[1].Entry, p.Items[5].Entry
	if tags := p.Items[4].Entry.Meta.Tags; !slices.Equal(tags, []string{"a"}) {
		t.Errorf("empty-tag tags %q, want [a]", tags)
	}
	// Dates from the file: updated is the modification time; created the
	// birth time where recorded (not settable here), else the same.
	if !root.Meta.Updated.Equal(stamp) || root.Meta.Created.IsZero() || root.Meta.Created.After(time.Now()) {
		t.Errorf("root note times: created %v updated %v, want updated %v", root.Meta.Created, root.Meta.Updated, stamp)
	}
	if !alice.Meta.Created.Equal(time.Date(2020, 1, 2, 0, 0, 0, 0, time.UTC)) || !slices.Equal(alice.Meta.Tags, []string{"a", "b"}) {
		t.Errorf("alice meta = %+v", alice.Meta)
	}
	if root.Content != "a root note" {
		t.Errorf("content %q", root.Content)
	}

	// Another root category.
	p, err = ReadVault(ctx, vault, VaultOptions{RootCategory: "inbox"})
	if err != nil {
		t.Fatal(err)
	}
	if got := keysOf(p.Items); !slices.Equal(got, []string{RootCategory + ":dup", "inbox:dup", "people:alice", "people:bad%3Aname", "people:broken", "people:empty-tag", "inbox:r"}) {
		t.Errorf("with RootCategory inbox: %q", got)
	}
}

func TestReadVaultErrors(t *testing.T) {
	if _, err := ReadVault(ctx, filepath.Join(t.TempDir(), "missing"), VaultOptions{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing vault: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	vault := t.TempDir()
	writeFile(t, filepath.Join(vault, "a", "b.md"), "x")
	if _, err := ReadVault(cctx, vault, VaultOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// A second Write of the same plan writes nothing: no revision moves, and
// the report says so. A changed item replaces the entry, keeping created
// when the item has none.
func TestWriteUnchanged(t *testing.T) {
	vault := t.TempDir()
	writeFile(t, filepath.Join(vault, "a", "one.md"), "---\ntags: [t]\nrating: 5\nnested: {k: [1, 2.5, x]}\ndate: 2024-01-01\nwhen: 2024-01-01T10:00:00+08:00\nflag: true\nnothing: null\nbig: 12345678901234567\n---\nOne.")
	writeFile(t, filepath.Join(vault, "a", "two.md"), "Two.")
	writeFile(t, filepath.Join(vault, "root.md"), "Root.")
	jsonl := `{"category":"j","name":"k","content":"no times","meta":{"tags":["x"],"n":12345678901234567,"f":1.5}}` + "\n"
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			read := func() *Plan {
				p, err := ReadVault(ctx, vault, VaultOptions{})
				if err != nil {
					t.Fatal(err)
				}
				q, err := ReadJSONL(ctx, strings.NewReader(jsonl), "j.jsonl")
				if err != nil {
					t.Fatal(err)
				}
				p.Items = append(p.Items, q.Items...)
				return p
			}
			rep, err := read().Write(ctx, st, WriteOptions{})
			if err != nil || rep.Added != 4 || rep.Updated != 0 || rep.Unchanged != 0 || len(rep.Rejected) != 0 {
				t.Fatalf("first write: %+v, %v", rep, err)
			}
			rev := revision(t, st)
			created, err := st.Get(ctx, "j", "k")
			if err != nil {
				t.Fatal(err)
			}
			var calls []int
			rep, err = read().Write(ctx, st, WriteOptions{Progress: func(done, total int) {
				if total != 4 {
					t.Errorf("total %d", total)
				}
				calls = append(calls, done)
			}})
			if err != nil || rep.Added != 0 || rep.Updated != 0 || rep.Unchanged != 4 {
				t.Fatalf("second write: %+v, %v", rep, err)
			}
			if r := revision(t, st); r != rev {
				t.Errorf("revision moved from %d to %d on an unchanged import", rev, r)
			}
			if !slices.Equal(calls, []int{1, 2, 3, 4}) {
				t.Errorf("progress calls %v", calls)
			}

			// A changed note replaces its entry; a changed line keeps created.
			// (An edit of its own per store: the vault is shared, and a file
			// written again with the same content is no change.)
			writeFile(t, filepath.Join(vault, "a", "two.md"), "Two, edited for "+name+".")
			p := read()
			p.Items[3].Entry.Content = "times, still none"
			rep, err = p.Write(ctx, st, WriteOptions{})
			if err != nil || rep.Updated != 2 || rep.Unchanged != 2 {
				t.Fatalf("third write: %+v, %v", rep, err)
			}
			got, err := st.Get(ctx, "j", "k")
			if err != nil {
				t.Fatal(err)
			}
			if got.Content != "times, still none" || !got.Meta.Created.Equal(created.Meta.Created) {
				t.Errorf("updated line: %+v (created was %v)", got, created.Meta.Created)
			}
		})
	}
}

// batchStore offers store.Batcher over a plain store, refusing one name as
// a backend limit would.
type batchStore struct {
	store.Store
	batches int
	refuse  string
}

func (b *batchStore) PutBatch(ctx context.Context, es []store.Entry) error {
	b.batches++
	for _, e := range es {
		if e.Name == b.refuse {
			return &store.FieldError{Field: "content", Reason: "refused by the test backend"}
		}
	}
	for _, e := range es {
		if err := b.Store.Put(ctx, e); err != nil {
			return err
		}
	}
	return nil
}

func (b *batchStore) Put(ctx context.Context, e store.Entry) error {
	if e.Name == b.refuse {
		return &store.FieldError{Field: "content", Reason: "refused by the test backend"}
	}
	return b.Store.Put(ctx, e)
}

func (b *batchStore) Update(ctx context.Context, c, n string, fn func(store.Entry, bool) (store.Entry, error)) error {
	if n == b.refuse {
		return &store.FieldError{Field: "content", Reason: "refused by the test backend"}
	}
	return b.Store.Update(ctx, c, n, fn)
}

func TestWriteBatcher(t *testing.T) {
	var lines strings.Builder
	n := batchSize + 44
	for i := range n {
		lines.WriteString(`{"category":"bulk","name":"n` + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + `","content":"c"}` + "\n")
	}
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			bs := &batchStore{Store: st, refuse: "nbxxxxx"}
			p, err := ReadJSONL(ctx, strings.NewReader(lines.String()), "bulk")
			if err != nil || len(p.Items) != n {
				t.Fatalf("%d items, %v", len(p.Items), err)
			}
			rep, err := p.Write(ctx, bs, WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Added != n-1 || len(rep.Rejected) != 1 || rep.Rejected[0].Where != "bulk:132" {
				t.Errorf("report %+v", rep)
			}
			if bs.batches != 2 { // batchSize + 44
				t.Errorf("%d batches, want 2", bs.batches)
			}
			// Again: the entries exist, so nothing is written.
			bs.batches = 0
			rev := revision(t, st)
			rep, err = p.Write(ctx, bs, WriteOptions{})
			// The refused one is new each time: one batch, refused again.
			if err != nil || rep.Unchanged != n-1 || len(rep.Rejected) != 1 || bs.batches != 1 || revision(t, st) != rev {
				t.Errorf("second write: %+v %v, %d batches", rep, err, bs.batches)
			}
		})
	}
}

func TestSuggestName(t *testing.T) {
	for in, want := range map[string]string{
		"bad:name":  "bad-name",
		"a/b\\c":    "a-b-c",
		"Q3: plan?": "Q3- plan-",
		"[[x]]":     "-x-",
		".hidden":   "hidden",
		"tab\there": "tabhere",
		"::":        "-",
		"ok":        "",
	} {
		if got := SuggestName(in); got != want {
			t.Errorf("SuggestName(%q) = %q, want %q", in, got, want)
		}
	}
	if got := SuggestName(strings.Repeat("é:", 100)); len(got) > store.MaxNameBytes {
		t.Errorf("long suggestion is %d bytes", len(got))
	}
	for _, dev := range []string{"CON", "prn.txt", "Com1", "LPT9.md"} {
		if !isDeviceName(dev) {
			t.Errorf("%s is a device name", dev)
		}
	}
	for _, s := range []string{"CONSOLE", "COM0", "LPT", "aux-notes"} {
		if isDeviceName(s) {
			t.Errorf("%s is not a device name", s)
		}
	}
}

// A stored file that cannot be parsed is replaced by the imported note,
// not a reason to stop the import.
func TestWriteOverMalformed(t *testing.T) {
	root := filepath.Join(t.TempDir(), "memory")
	st, err := fsstore.Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	writeFile(t, filepath.Join(root, "a", "one.md"), "---\ncreated: someday\n---\nold")
	p, err := ReadJSONL(ctx, strings.NewReader(`{"category":"a","name":"one","content":"new"}`+"\n"+`{"category":"a","name":"two","content":"2"}`), "in")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := p.Write(ctx, st, WriteOptions{})
	if err != nil || rep.Updated != 1 || rep.Added != 1 {
		t.Fatalf("%+v, %v", rep, err)
	}
	if e, err := st.Get(ctx, "a", "one"); err != nil || e.Content != "new" {
		t.Errorf("a:one = %+v, %v", e, err)
	}
}

// TestWriteLargePlan: a plan larger than a batch finds the existing
// identities by one listing of the store's keys (store.KeyLister) instead of
// a Get each; existing entries, equal or not, still go through Update, and
// the new ones through PutBatch. A name given in another Unicode form (NFD)
// is the same identity.
func TestWriteLargePlan(t *testing.T) {
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			if _, ok := st.(store.KeyLister); !ok {
				t.Fatalf("%T is not a store.KeyLister", st)
			}
			created := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
			for i := range 20 {
				if err := st.Put(ctx, store.Entry{Category: "bulk", Name: fmt.Sprintf("n%04d", i), Content: "old",
					Meta: store.Meta{Created: created, Updated: created}}); err != nil {
					t.Fatal(err)
				}
			}
			if err := st.Put(ctx, store.Entry{Category: "bulk", Name: "café", Content: "old", Meta: store.Meta{Created: created, Updated: created}}); err != nil {
				t.Fatal(err)
			}
			var lines strings.Builder
			n := batchSize + 100
			for i := range n {
				content := "new"
				if i < 10 {
					content = "old" // unchanged: the stored times are kept (none given)
				}
				fmt.Fprintf(&lines, `{"category":"bulk","name":"n%04d","content":%q}`+"\n", i, content)
			}
			fmt.Fprintf(&lines, `{"category":"bulk","name":"cafe\u0301","content":"old"}`+"\n") // NFD spelling
			p, err := ReadJSONL(ctx, strings.NewReader(lines.String()), "bulk")
			if err != nil || len(p.Items) != n+1 {
				t.Fatalf("%d items, %v", len(p.Items), err)
			}
			rep, err := p.Write(ctx, st, WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Unchanged != 11 || rep.Updated != 10 || rep.Added != n-20 || len(rep.Rejected) != 0 {
				t.Errorf("report %+v, want 11 unchanged, 10 updated, %d added", rep, n-20)
			}
			e, err := st.Get(ctx, "bulk", "n0015")
			if err != nil || e.Content != "new" || !e.Meta.Created.Equal(created) {
				t.Errorf("updated entry: %+v, %v (created should stay %v)", e, err, created)
			}
		})
	}
}
