package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/storetest"
)

var ctx = context.Background()

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return openTemp(t) })
}

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// collect returns the entries and the error items of All.
func collect(t *testing.T, s *Store) (map[store.Key]store.Entry, []error) {
	t.Helper()
	got := map[store.Key]store.Entry{}
	var errs []error
	for e, err := range s.All(ctx) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got[e.Key()] = e
	}
	return got, errs
}

func keys(m map[store.Key]store.Entry) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k.String())
	}
	slices.Sort(ks)
	return ks
}

func TestPutWritesFile(t *testing.T) {
	s := openTemp(t)
	at := time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC)
	e := store.Entry{
		Category: "trips", Name: "sanya", Content: "The sea is blue.\n",
		Meta: store.Meta{Tags: []string{"travel", "海边"}, Created: at, Updated: at.Add(time.Hour),
			Extra: map[string]any{"mood": "sunny", "rating": 5}},
	}
	if err := s.Put(ctx, e); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(s.root, "trips", "sanya.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "---\n" +
		"tags:\n  - travel\n  - 海边\n" +
		"created: 2024-03-01T09:30:00Z\n" +
		"updated: 2024-03-01T10:30:00Z\n" +
		"mood: sunny\n" +
		"rating: 5\n" +
		"---\n" +
		"The sea is blue.\n"
	if string(got) != want {
		t.Errorf("file =\n%s\nwant\n%s", got, want)
	}
}

func TestPutTimestamps(t *testing.T) {
	s := openTemp(t)
	before := time.Now().Add(-time.Second)
	if err := s.Put(ctx, store.Entry{Category: "a", Name: "b", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	e, err := s.Get(ctx, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	if e.Meta.Created.Before(before) || e.Meta.Updated.Before(before) {
		t.Errorf("timestamps %v / %v set before the Put at %v", e.Meta.Created, e.Meta.Updated, before)
	}
	// A hand-written file without front matter has no creation time, and
	// a Put over it adds none (issue 24: a write adds no key the note did
	// not have): its times stay the file's own.
	path := filepath.Join(s.root, "a", "hand.md")
	writeFile(t, path, "by hand")
	if err := s.Put(ctx, store.Entry{Category: "a", Name: "hand", Content: "v1"}); err != nil {
		t.Fatal(err)
	}
	first, _ := s.Get(ctx, "a", "hand")
	if b, _ := os.ReadFile(path); string(b) != "v1" || !first.Meta.Created.IsZero() || !first.Meta.Updated.IsZero() {
		t.Fatalf("Put over a file without front matter wrote %q (meta %+v), want the content alone", b, first.Meta)
	}
	// A created time put in by hand, in its own offset, is kept by later Puts.
	writeFile(t, path, "---\ncreated: 2001-02-03T04:05:06+08:00\n---\nv1")
	if err := s.Put(ctx, store.Entry{Category: "a", Name: "hand", Content: "v2"}); err != nil {
		t.Fatal(err)
	}
	second, _ := s.Get(ctx, "a", "hand")
	if want := time.Date(2001, 2, 3, 4, 5, 6, 0, time.FixedZone("", 8*3600)); !second.Meta.Created.Equal(want) {
		t.Errorf("created = %v, want %v kept", second.Meta.Created, want)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "created: 2001-02-03T04:05:06+08:00\n") {
		t.Errorf("created not written back in its own offset:\n%s", b)
	}
}

func TestPutRejectsMeta(t *testing.T) {
	s := openTemp(t)
	loop := map[string]any{}
	loop["self"] = loop
	cases := []struct {
		desc string
		meta store.Meta
		key  string // FieldError.Value: what is wrong
	}{
		{"reserved extra key", store.Meta{Extra: map[string]any{"created": "yesterday"}}, "created"},
		{"bad UTF-8 extra key", store.Meta{Extra: map[string]any{"k\xff": 1}}, "k\xff"},
		{"bad UTF-8 nested key", store.Meta{Extra: map[string]any{"m": map[string]int{"\xff": 1}}}, "m"},
		{"unencodable value", store.Meta{Extra: map[string]any{"f": func() {}}}, "f"},
		{"unencodable nested value", store.Meta{Extra: map[string]any{"l": []any{1, make(chan int)}}}, "l"},
		{"value containing itself", store.Meta{Extra: map[string]any{"loop": loop}}, "loop"},
		{"huge front matter", store.Meta{Extra: map[string]any{"blob": strings.Repeat("x", maxFrontMatterBytes)}}, "front matter"},
	}
	for _, tc := range cases {
		err := s.Put(ctx, store.Entry{Category: "c", Name: "n", Content: "x", Meta: tc.meta})
		var fe *store.FieldError
		if !errors.Is(err, store.ErrInvalid) || !errors.As(err, &fe) || fe.Field != "meta" || fe.Value != tc.key {
			t.Errorf("%s: Put = %v, want a FieldError for meta %q", tc.desc, err, tc.key)
		}
	}
	var fe *store.FieldError
	if err := s.Put(ctx, store.Entry{Category: "c", Name: "n", Content: "x", Meta: store.Meta{Tags: []string{"ok", "a\xffb"}}}); !errors.As(err, &fe) || fe.Field != "tags" {
		t.Errorf("Put with a tag of bad UTF-8 = %v, want a FieldError for the tag", err)
	}
	if _, err := os.Stat(filepath.Join(s.root, "c")); !errors.Is(err, iofs.ErrNotExist) {
		t.Errorf("rejected Puts left something behind: %v", err)
	}
	if r, _ := s.Revision(ctx); r != 0 {
		t.Errorf("revision = %d after rejected Puts, want 0", r)
	}
}

func TestPutOverMalformedFile(t *testing.T) {
	s := openTemp(t)
	path := filepath.Join(s.root, "c", "n.md")
	writeFile(t, path, "bad \xff byte") // broken front matter is read since issue 24
	if _, err := s.Get(ctx, "c", "n"); !errors.Is(err, ErrMalformed) || !errors.Is(err, store.ErrUnreadable) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Get of broken file = %v, want ErrMalformed and store.ErrUnreadable naming %s", err, path)
	}
	if err := s.Put(ctx, store.Entry{Category: "c", Name: "n", Content: "fixed"}); err != nil {
		t.Fatal(err)
	}
	if e, err := s.Get(ctx, "c", "n"); err != nil || e.Content != "fixed" {
		t.Fatalf("Get after repair = %q, %v", e.Content, err)
	}
}

func TestPutKeepsPermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits")
	}
	s := openTemp(t)
	path := filepath.Join(s.root, "private", "diary.md")
	writeFile(t, path, "secret")
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, store.Entry{Category: "private", Name: "diary", Content: "still secret"}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after Put = %v, want 0600 kept", fi.Mode().Perm())
	}
}

func TestDeleteRemovesEmptyCategory(t *testing.T) {
	s := openTemp(t)
	for _, n := range []string{"x", "y"} {
		if err := s.Put(ctx, store.Entry{Category: "c", Name: n, Content: n}); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(s.root, "c")
	if err := s.Delete(ctx, "c", "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("category folder gone while it still holds an entry: %v", err)
	}
	if err := s.Delete(ctx, "c", "y"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, iofs.ErrNotExist) {
		t.Fatalf("empty category folder not removed: %v", err)
	}
	// A folder named like an entry file is not an entry.
	if err := os.MkdirAll(filepath.Join(s.root, "d", "z.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "d", "z"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Delete of a folder named z.md = %v, want ErrNotFound", err)
	}
	if _, err := s.Get(ctx, "d", "z"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Get of a folder named z.md = %v, want ErrNotFound", err)
	}
}

// Symbolic links are never followed, wherever they point: a memory kept in
// git may carry S/a/passwd.md -> /etc/passwd or a category folder linked
// out of the store (issue 9).
func TestSymlinksNotFollowed(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges")
	}
	s := openTemp(t)
	outside := t.TempDir()
	secret := filepath.Join(outside, "passwd")
	writeFile(t, secret, "root:x:0:0")
	writeFile(t, filepath.Join(outside, "dir", "only.md"), "outside note")
	writeFile(t, filepath.Join(s.root, "a", "real.md"), "in the store")
	symlink := func(target, link string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	symlink(secret, filepath.Join(s.root, "a", "passwd.md"))
	symlink(filepath.Join(outside, "dir"), filepath.Join(s.root, "linked"))
	symlink(filepath.Join(s.root, "a"), filepath.Join(s.root, "alias"))                   // in the store
	symlink(filepath.Join(s.root, "a", "real.md"), filepath.Join(s.root, "a", "twin.md")) // in the store

	for _, k := range [][2]string{{"a", "passwd"}, {"linked", "only"}, {"alias", "real"}, {"a", "twin"}} {
		e, err := s.Get(ctx, k[0], k[1])
		if err == nil || !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("Get %s:%s = %q, %v; want an error about the link", k[0], k[1], e.Content, err)
		}
	}
	all, errs := collect(t, s)
	if got := keys(all); !slices.Equal(got, []string{"a:real"}) {
		t.Errorf("All keys = %v, want only a:real", got)
	}
	for _, p := range []string{"a/passwd.md", "linked", "alias", "a/twin.md"} {
		n := 0
		for _, err := range errs {
			if strings.Contains(err.Error(), filepath.Join(s.root, p)+":") && errors.Is(err, ErrMalformed) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s reported %d times, want once: %v", p, n, errs)
		}
	}

	// Writes never go through a linked folder.
	if err := s.Put(ctx, store.Entry{Category: "linked", Name: "new", Content: "y"}); !errors.Is(err, ErrMalformed) {
		t.Errorf("Put into a linked folder = %v, want ErrMalformed", err)
	}
	if err := s.Put(ctx, store.Entry{Category: "linked/deeper", Name: "new", Content: "y"}); !errors.Is(err, ErrMalformed) {
		t.Errorf("Put below a linked folder = %v, want ErrMalformed", err)
	}
	if err := s.Delete(ctx, "linked", "only"); !errors.Is(err, ErrMalformed) {
		t.Errorf("Delete through a linked folder = %v, want ErrMalformed", err)
	}
	if err := s.Update(ctx, "linked", "only", func(old store.Entry, found bool) (store.Entry, error) {
		return old, fmt.Errorf("fn called with found=%v content %q", found, old.Content)
	}); !errors.Is(err, ErrMalformed) {
		t.Errorf("Update through a linked folder = %v, want ErrMalformed", err)
	}
	if names, _ := os.ReadDir(filepath.Join(outside, "dir")); len(names) != 1 {
		t.Errorf("the folder outside the store changed: %v", names)
	}
	// A Put over a linked entry file replaces the link, not its target.
	if err := s.Put(ctx, store.Entry{Category: "a", Name: "passwd", Content: "mine"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(secret); string(b) != "root:x:0:0" {
		t.Errorf("Put wrote through the link: target now %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(s.root, "a", "passwd.md")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("after Put the entry is not a plain file: %v", err)
	}
	// Delete of a linked entry removes the link only.
	if err := s.Delete(ctx, "a", "twin"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.root, "a", "real.md")); err != nil {
		t.Errorf("Delete of a link removed its target: %v", err)
	}
}

// The root itself may be a symbolic link (~/notes -> /data/notes).
func TestRootMayBeSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges")
	}
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "notes")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	s, err := Open(link, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Put(ctx, store.Entry{Category: "a/b", Name: "n", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(real, "a", "b", "n.md")); err != nil {
		t.Fatal(err)
	}
	if all, errs := collect(t, s); len(all) != 1 || len(errs) != 0 {
		t.Errorf("All = %v, %v", all, errs)
	}
}

// Puts and Deletes in one category race: a Delete may remove the folder
// just after a Put made sure it exists. Every Put must still succeed.
func TestPutDeleteSameCategory(t *testing.T) {
	s := openTemp(t)
	var wg sync.WaitGroup
	errc := make(chan error, 8)
	for w := range 4 {
		wg.Go(func() {
			for i := range 60 {
				name := fmt.Sprintf("w%d", w)
				if err := s.Put(ctx, store.Entry{Category: "shared", Name: name, Content: fmt.Sprint(i)}); err != nil {
					errc <- err
					return
				}
				if err := s.Delete(ctx, "shared", name); err != nil {
					errc <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	if r, _ := s.Revision(ctx); r != 4*60*2 {
		t.Errorf("revision = %d, want %d", r, 4*60*2)
	}
}

// Files written straight into the folder are what Get and All return, from
// the store that is open and from a new one; the revision of the open store
// does not see them (SPEC §2).
func TestOutsideEdits(t *testing.T) {
	s := openTemp(t)
	if err := s.Put(ctx, store.Entry{Category: "notes", Name: "a", Content: "from the store"}); err != nil {
		t.Fatal(err)
	}
	rev, _ := s.Revision(ctx)
	writeFile(t, filepath.Join(s.root, "notes", "a.md"), "edited by hand")
	writeFile(t, filepath.Join(s.root, "新しい", "b.md"), "---\ntags: [hand]\n---\nadded by hand")

	s2, err := Open(s.root, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range []*Store{s, s2} {
		a, err := st.Get(ctx, "notes", "a")
		if err != nil || a.Content != "edited by hand" {
			t.Errorf("store %d: Get(notes, a) = %q, %v", i, a.Content, err)
		}
		b, err := st.Get(ctx, "新しい", "b")
		if err != nil || b.Content != "added by hand" || !slices.Equal(b.Meta.Tags, []string{"hand"}) {
			t.Errorf("store %d: Get(新しい, b) = %+v, %v", i, b, err)
		}
		all, errs := collect(t, st)
		if len(errs) > 0 {
			t.Errorf("store %d: All errors: %v", i, errs)
		}
		if got, want := keys(all), []string{"notes:a", "新しい:b"}; !slices.Equal(got, want) {
			t.Errorf("store %d: All keys = %v, want %v", i, got, want)
		}
		if all[store.Key{Category: "notes", Name: "a"}].Content != "edited by hand" {
			t.Errorf("store %d: All content of notes:a = %q", i, all[store.Key{Category: "notes", Name: "a"}].Content)
		}
	}
	if r, _ := s.Revision(ctx); r != rev {
		t.Errorf("revision moved from %d to %d without a write through the store", rev, r)
	}
	// Deleting by hand is seen too.
	if err := os.Remove(filepath.Join(s.root, "notes", "a.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "notes", "a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Get after removal by hand = %v, want ErrNotFound", err)
	}
	if err := s.Delete(ctx, "notes", "a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Delete after removal by hand = %v, want ErrNotFound", err)
	}
}

func TestAllSkipsAndReports(t *testing.T) {
	s := openTemp(t)
	root := s.root
	good := map[string]string{
		"notes/ok.md":        "fine",
		"notes/v1.2 plan.md": "dots in the name",
		"linked/x.md":        "another category",
	}
	for p, c := range good {
		writeFile(t, filepath.Join(root, p), c)
	}
	ignored := []string{
		"notes/.hidden.md",                         // dot-file
		"notes/.ok.md.tmp-0123456789abcdef",        // temp file
		"notes/image.png",                          // not markdown
		"notes/upper.MD",                           // not ".md"
		".git/HEAD.md",                             // dot-folder
		".trash/x.md",                              // dot-folder
		".obsidian/workspace.md",                   // dot-folder
		"attachments/photo.png",                    // a folder without notes
		"bad[attachments]/photo.png",               // an unmappable folder without notes
		"notes/.ok.md.tmp-0123456789abcdef-broken", // dot-file
	}
	for _, p := range ignored {
		writeFile(t, filepath.Join(root, p), "ignored")
	}
	// Found now that categories nest and the root holds notes (issue 11).
	for p, c := range map[string]string{
		"README.md":             "a root note",
		"notes/sub/deep.md":     "a nested note",
		"notes/dir.md/inner.md": "a folder named like an entry is a category",
	} {
		writeFile(t, filepath.Join(root, p), c)
	}
	reported := map[string]string{
		// Names SPEC §1 refuses for new entries and front matter that does
		// not parse are read since issue 24 (TestOddVaultReadInPlace); a
		// name longer than a name may be, as written, is not.
		"notes/" + strings.Repeat("n", store.MaxNameBytes+1) + ".md": "too long a name",
		"notes/utf8.md":             "bad \xff byte", // invalid UTF-8 content
		"_root/x.md":                "a note in the folder named like the root category",
		"1/2/3/4/5/6/7/8/9/deep.md": "too deep",
	}
	for p, c := range map[string]string{
		"notes/a:b.md":    "invalid name",
		"bad|cat/x.md":    "invalid category",
		"bad|cat/y/z.md":  "below an invalid category",
		"notes/yaml.md":   "---\ntags: [a]\nk: a: b\n---\nbody", // broken YAML
		"notes/times.md":  "---\ncreated: soon\n---\nbody",      // bad time
		"notes/scalar.md": "---\njust a sentence\n---\nbody",    // not a mapping
	} {
		writeFile(t, filepath.Join(root, p), c)
	}
	for p, c := range reported {
		writeFile(t, filepath.Join(root, p), c)
	}
	writeFile(t, filepath.Join(root, "_root", "sub", "ok.md"), "a sub-folder of _root is fine")
	writeFile(t, filepath.Join(root, "1/2/3/4/5/6/7/8/eight.md"), "eight levels are fine")
	if runtime.GOOS != "windows" {
		if err := os.Symlink(filepath.Join(root, "notes"), filepath.Join(root, "alias")); err != nil {
			t.Fatal(err)
		}
		reported["alias"] = "link"
	}
	all, errs := collect(t, s)
	want := []string{"1/2/3/4/5/6/7/8:eight", "_root/sub:ok", "_root:README", "bad%7Ccat/y:z", "bad%7Ccat:x", "linked:x", "notes/dir.md:inner", "notes/sub:deep", "notes:a%3Ab", "notes:ok", "notes:scalar", "notes:times", "notes:v1.2 plan", "notes:yaml"}
	if got := keys(all); !slices.Equal(got, want) {
		t.Errorf("All keys = %v, want %v", got, want)
	}
	// Each reported path appears in exactly one error, which wraps
	// ErrMalformed.
	for p := range reported {
		path := filepath.Join(root, p)
		n := 0
		for _, err := range errs {
			if strings.HasPrefix(err.Error(), path+":") {
				n++
				if !errors.Is(err, ErrMalformed) {
					t.Errorf("error %q does not wrap ErrMalformed", err)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: reported %d times, want once; errors: %v", p, n, errs)
		}
	}
	if len(errs) != len(reported) {
		t.Errorf("All yielded %d errors, want %d: %v", len(errs), len(reported), errs)
	}
	// The error item of a parse failure names the entry; a name failure names the field.
	for e, err := range s.All(ctx) {
		if err != nil && strings.Contains(err.Error(), filepath.Join(root, "notes", "utf8.md")) {
			if e.Category != "notes" || e.Name != "utf8" {
				t.Errorf("error item for utf8.md carries %+v", e.Key())
			}
		}
		if err == nil && e.Name == "yaml" && !strings.Contains(UnparsedProblem(e.Meta), "line 3") {
			t.Errorf("the problem %q of yaml.md does not give the file's line", UnparsedProblem(e.Meta))
		}
		if err != nil && strings.Contains(err.Error(), "nnnn.md") && !errors.Is(err, store.ErrInvalid) {
			t.Errorf("invalid-name error %q does not wrap store.ErrInvalid", err)
		}
	}
}

func TestAllCancel(t *testing.T) {
	s := openTemp(t)
	for i := range 10 {
		if err := s.Put(ctx, store.Entry{Category: "c", Name: fmt.Sprint(i), Content: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n, errs := 0, 0
	for _, err := range s.All(cctx) {
		if err != nil {
			errs++
			if !errors.Is(err, context.Canceled) {
				t.Errorf("error after cancel = %v, want context.Canceled", err)
			}
			continue
		}
		n++
		if n == 3 {
			cancel()
		}
	}
	if n != 3 || errs != 1 {
		t.Errorf("after cancel at the 3rd entry: %d entries, %d errors; want 3 and 1", n, errs)
	}
}

// The walks remove stale temp files (Open did, with a walk of its own:
// 70 ms of every command at 100k entries).
func TestWalkRemovesStaleTemps(t *testing.T) {
	root := t.TempDir()
	old := time.Now().Add(-2 * time.Minute)
	files := map[string]bool{ // path -> kept by Open
		"c/.e.md.tmp-00000000deadbeef":    false, // stale temp file
		"c/.f.md.tmp-0000000000000001":    true,  // young: a write in flight elsewhere
		"c/.DS_Store":                     true,  // someone else's dot-file
		"c/.notes.md.tmp-backup":          true,  // not our pattern
		"c/e.md":                          true,
		".git/.x.md.tmp-00000000deadbeef": true, // dot-folders are not ours
	}
	for p := range files {
		path := filepath.Join(root, p)
		writeFile(t, path, "x")
		if !strings.Contains(p, "0000000000000001") {
			if err := os.Chtimes(path, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	s, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	all, errs := collect(t, s)
	for p, kept := range files {
		_, err := os.Stat(filepath.Join(root, p))
		if exists := err == nil; exists != kept {
			t.Errorf("%s: exists = %v after a walk, want %v", p, exists, kept)
		}
	}
	if got := keys(all); len(errs) > 0 || !slices.Equal(got, []string{"c:e"}) {
		t.Errorf("All = %v, %v; want only c:e", got, errs)
	}
	// With the age set to a nanosecond the young one goes too; negative disables.
	if s, err := Open(root, &Options{StaleTempAge: -1}); err != nil {
		t.Fatal(err)
	} else {
		collect(t, s)
	}
	young := filepath.Join(root, "c/.f.md.tmp-0000000000000001")
	if _, err := os.Stat(young); err != nil {
		t.Errorf("cleanup ran although disabled: %v", err)
	}
	time.Sleep(2 * time.Millisecond)
	if s, err := Open(root, &Options{StaleTempAge: time.Nanosecond}); err != nil {
		t.Fatal(err)
	} else {
		for range s.Keys(context.Background(), "") { // Keys sweeps too
		}
	}
	if _, err := os.Stat(young); !errors.Is(err, iofs.ErrNotExist) {
		t.Errorf("temp file older than StaleTempAge kept: %v", err)
	}
}

func TestOpen(t *testing.T) {
	if _, err := Open("", nil); err == nil {
		t.Error("Open(\"\") succeeded")
	}
	root := filepath.Join(t.TempDir(), "a", "b", "c")
	s, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		t.Fatalf("Open did not create the root: %v", err)
	}
	p, err := s.Path("c", "n")
	if err != nil || p != filepath.Join(root, "c", "n.md") {
		t.Errorf("Path = %q, %v", p, err)
	}
	if _, err := s.Path("..", "n"); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Path(.., n) = %v, want ErrInvalid", err)
	}
	file := filepath.Join(t.TempDir(), "file")
	writeFile(t, file, "x")
	if _, err := Open(file, nil); err == nil {
		t.Error("Open on a plain file succeeded")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); !errors.Is(err, store.ErrClosed) {
		t.Errorf("second Close = %v, want ErrClosed", err)
	}
}

func TestIsTempName(t *testing.T) {
	tests := map[string]bool{
		".a.md.tmp-0123456789abcdef":    true,
		".a.md.tmp-0123456789ABCDEF":    true,
		".a.md.md.tmp-0123456789abcdef": true,
		"a.md.tmp-0123456789abcdef":     false, // no leading dot
		".md.tmp-0123456789abcdef":      false, // no name
		".a.md.tmp-0123456789abcde":     false, // 15 digits
		".a.md.tmp-0123456789abcdeg":    false,
		".a.md":                         false,
	}
	for name, want := range tests {
		if got := isTempName(name); got != want {
			t.Errorf("isTempName(%q) = %v, want %v", name, got, want)
		}
	}
	f, err := createTemp(t.TempDir(), "x.md")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if base := filepath.Base(f.Name()); !isTempName(base) {
		t.Errorf("createTemp made %q, which isTempName rejects", base)
	}
}

func TestKeyLister(t *testing.T) {
	storetest.RunKeyLister(t, func(t *testing.T) store.Store { return openTemp(t) })
}

// A file whose content is not UTF-8 behaves as a damaged entry
// does on every backend.
func TestDamagedEntryConformance(t *testing.T) {
	storetest.RunDamaged(t, func(t *testing.T) store.Store { return openTemp(t) }, func(t *testing.T, s store.Store, k store.Key) {
		path, err := s.(*Store).Path(k.Category, k.Name)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, path, "bad \xff byte") // broken front matter is read since issue 24
	})
}

func TestSorter(t *testing.T) {
	storetest.RunSorter(t, func(t *testing.T) store.Store { return openTemp(t) })
}
