package retrieve

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/section"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
)

// withAliases is ent with front matter aliases.
func withAliases(c, n, content string, aliases ...string) store.Entry {
	e := ent(c, n, content)
	as := make([]any, len(aliases))
	for i, a := range aliases {
		as[i] = a
	}
	e.Meta.Extra = map[string]any{"aliases": as}
	return e
}

// TestAliasLinkWithMappedCharacters: an alias is free text, not a file
// name, so a link that names it ("[[What is it?]]", "[[Q3: plan]]") must
// reach it as written; the name mapping (store.NameKey) is for names.
func TestAliasLinkWithMappedCharacters(t *testing.T) {
	ctx := context.Background()
	st := newMemStore(
		ent("notes", "Home", "harbor [[Why bother?]] [[Q3: plan]] [[Plain alias]]"),
		withAliases("notes", "Reasons", "r", "Why bother?"),
		withAliases("notes", "Planning", "p", "Q3: plan"),
		withAliases("notes", "Other", "o", "Plain alias"),
	)
	res, err := New(st, Options{}).Retrieve(ctx, Request{Query: "harbor", Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"hit notes:Home", "link notes:Reasons via notes:Home", "link notes:Planning via notes:Home", "link notes:Other via notes:Home"}
	if got := keys(res.Items); !slices.Equal(got, want) {
		t.Errorf("items = %q\nwant %q\nunresolved %q", got, want, res.UnresolvedLinks)
	}
}

// TestTitleRuleMappedName: a note whose file name holds a mapped character
// ("Why sleep?" is the identity "Why sleep%3F") is a title match for the
// query that is its title as written, whether the index built it or a
// write put it in the overlay; the escape's hex digits are no term of it.
func TestTitleRuleMappedName(t *testing.T) {
	ctx := context.Background()
	st := newMemStore(
		ent("notes", "Why sleep%3F", "short."),
		ent("notes", "Diary", "why sleep why sleep sleep sleep why why sleep, sleep again and again"),
		ent("notes", "Log", "dream log dream log, a dream log: sleep sleep why sleep"),
	)
	eng := New(st, Options{})
	defer eng.Close()
	first := func(q string) string {
		t.Helper()
		res, err := eng.Retrieve(ctx, Request{Query: q, Budget: Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Items) == 0 {
			return ""
		}
		return res.Items[0].Name
	}
	if got := first("why sleep"); got != "Why sleep%3F" {
		t.Errorf("why sleep: first %q, want the titled note", got)
	}
	if got := first("3f"); got != "" {
		t.Errorf("3f: first %q, want no hit", got)
	}
	if err := eng.Put(ctx, ent("notes", "Dream%3A a log", "brief, nothing more to say here at all.")); err != nil {
		t.Fatal(err)
	}
	if got := first("dream: a log"); got != "Dream%3A a log" {
		t.Errorf("after a write: first %q, want the titled note", got)
	}
}

// TestAliasLinksAcrossCopies: alias links (read through
// Snapshot.EachAliases) and alias titles hold in every way an index is
// made: a build, the mapped copy a new process loads, a catch-up of that
// copy from the bolt file's change history, a batch of writes
// (PutBatch, index.Apply), and the compaction it brings.
func TestAliasLinksAcrossCopies(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a.db")
	st, err := bolt.Open(path, &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { st.Close() }()
	var ents []store.Entry
	for i := range 300 {
		ents = append(ents, ent("bulk", fmt.Sprint("n", i), fmt.Sprint("filler text number ", i)))
	}
	ents = append(ents,
		ent("notes", "Home", "harbor [[Kitty]] [[Why bother?]] [[Later one]]"),
		withAliases("pets", "Cats", "felines", "Kitty"),
	)
	if err := st.PutBatch(ctx, ents); err != nil {
		t.Fatal(err)
	}
	check := func(e *Engine, what string, want ...string) {
		t.Helper()
		res, err := e.Retrieve(ctx, Request{Query: "harbor", Budget: Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		want = append([]string{"hit notes:Home"}, want...)
		if got := keys(res.Items); !slices.Equal(got, want) {
			t.Errorf("%s: items %q\nwant %q", what, got, want)
		}
		res, err = e.Retrieve(ctx, Request{Query: "kitty", Budget: Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Items) == 0 || res.Items[0].Name != "Cats" {
			t.Errorf("%s: kitty finds %q first, want Cats (its alias)", what, keys(res.Items))
		}
	}
	load := func(what string) (*Engine, *readCounter) {
		t.Helper()
		rc := &readCounter{Store: st}
		e := New(rc, Options{Persist: st})
		if _, err := e.Load(ctx); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return e, rc
	}
	e, _ := load("build")
	check(e, "build", "link pets:Cats via notes:Home")
	e.Close() // saves the copy

	e, rc := load("mapped copy")
	if rc.all != 0 {
		t.Fatalf("the copy was not used")
	}
	check(e, "mapped copy", "link pets:Cats via notes:Home")
	e.Close()

	// Written behind the engine's back: the next process catches up.
	if err := st.Put(ctx, withAliases("dogs", "Dogs", "canines", "Why bother?")); err != nil {
		t.Fatal(err)
	}
	e, rc = load("catch-up")
	if rc.all != 0 {
		t.Fatalf("the copy was not caught up")
	}
	check(e, "catch-up", "link pets:Cats via notes:Home", "link dogs:Dogs via notes:Home")

	// A batch (Apply) large enough to compact, one alias among it.
	var batch []store.Entry
	for i := range 600 {
		batch = append(batch, ent("bulk", fmt.Sprint("m", i), fmt.Sprint("more filler ", i)))
	}
	batch = append(batch, withAliases("later", "Late", "late note", "Later one"))
	if err := e.PutBatch(ctx, batch); err != nil {
		t.Fatal(err)
	}
	check(e, "batch", "link pets:Cats via notes:Home", "link dogs:Dogs via notes:Home", "link later:Late via notes:Home")
	for i := range 300 {
		if err := e.Put(ctx, ent("bulk", fmt.Sprint("n", i), fmt.Sprint("rewritten ", i))); err != nil {
			t.Fatal(err)
		}
	}
	check(e, "after single writes", "link pets:Cats via notes:Home", "link dogs:Dogs via notes:Home", "link later:Late via notes:Home")
	e.Close()
	st.Close()
	if st, err = bolt.Open(path, &bolt.Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	e, _ = load("reopened")
	defer e.Close()
	check(e, "reopened", "link pets:Cats via notes:Home", "link dogs:Dogs via notes:Home", "link later:Late via notes:Home")
}

// TestCopyFromMainRebuilt: a bolt file written by recall at e4bcfff
// (testdata/main-e4bcfff-v5.db: `recall import` of a vault of 7 notes, one
// with "aliases: [Kitty]", then `recall reindex`, which saved a format 5
// index copy under recall.index/snapshot) is rebuilt, not misread: the
// load walks the store, finds the alias main never indexed, and the next
// save drops the old copy.
func TestCopyFromMainRebuilt(t *testing.T) {
	ctx := context.Background()
	data, err := os.ReadFile("testdata/main-e4bcfff-v5.db")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "v5.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	hasOld := func() bool {
		t.Helper()
		db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		old := false
		db.View(func(tx *bbolt.Tx) error {
			if b := tx.Bucket([]byte("recall.index")); b != nil {
				v := b.Get([]byte("snapshot"))
				// e4bcfff: the revision (8 bytes), then the copy.
				old = len(v) > 8 && bytes.HasPrefix(v[8:], []byte("RCLSNAP\n\x05\x00\x00\x00"))
			}
			return nil
		})
		return old
	}
	if !hasOld() {
		t.Fatal("the fixture holds no format 5 copy")
	}
	st, err := bolt.Open(path, &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rc := &readCounter{Store: st}
	e := New(rc, Options{Persist: st})
	if _, err := e.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if rc.all == 0 {
		t.Error("the format 5 copy was used")
	}
	res, err := e.Retrieve(ctx, Request{Query: "harbor", Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(res.Items), []string{"hit notes:Home", "link notes:Cats via notes:Home"}; !slices.Equal(got, want) {
		t.Errorf("items %q, want %q", got, want)
	}
	res, err = e.Retrieve(ctx, Request{Query: "kitty", Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) == 0 || res.Items[0].Name != "Cats" {
		t.Errorf("kitty: %q, want Cats first", keys(res.Items))
	}
	e.Close() // saves the new copy
	st.Close()
	if hasOld() {
		t.Error("the format 5 copy is still in the file after a save")
	}
	st2, err := bolt.Open(path, &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	rc = &readCounter{Store: st2}
	e = New(rc, Options{Persist: st2})
	defer e.Close()
	if _, err := e.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if rc.all != 0 {
		t.Error("the new copy was not used by the next process")
	}
}

// TestServerRestartsAfterWrites: a server that takes concurrent writes
// (group commits, store/bolt commit.go) and stops; the next process
// catches its copy up and answers as a fresh build; and a session that
// only reads (Load, retrieve, Close) leaves the file's times alone, so
// that the verification record (<file>.verified) written after the next
// check still holds: a start after a read-only session need not check
// the whole file again.
func TestServerRestartsAfterWrites(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	open := func() *bolt.Store {
		t.Helper()
		st, err := bolt.Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	st := open()
	var ents []store.Entry
	for i := range 400 {
		ents = append(ents, ent("bulk", fmt.Sprint("n", i), fmt.Sprint("filler harbor text ", i)))
	}
	if err := st.PutBatch(ctx, ents); err != nil {
		t.Fatal(err)
	}
	// The first start builds and saves its copy (Close waits for the save;
	// a save that a write overtakes is dropped, so a server that writes at
	// once may leave no copy: then the next start builds, see below).
	e := New(st, Options{Persist: st})
	if _, err := e.Load(ctx); err != nil {
		t.Fatal(err)
	}
	e.Close()
	e = New(st, Options{Persist: st})
	if _, err := e.Load(ctx); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 80 { // 320 writes: past catchUpSave, so the next start saves its catch-up
				if err := e.Put(ctx, withAliases("w", fmt.Sprint("w", w, "-", i), fmt.Sprint("harbor walrus ", w, i), fmt.Sprint("alias ", w, i))); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	e.Close()
	st.Close()

	answers := func(e *Engine) []*Result {
		t.Helper()
		var out []*Result
		for _, q := range []string{"harbor", "walrus", "alias 3 7", "filler 12"} {
			res, err := e.Retrieve(ctx, Request{Query: q, Limit: 20, Budget: Unlimited})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, res)
		}
		return out
	}
	session := func() (time.Time, []*Result) {
		t.Helper()
		st := open()
		defer st.Close()
		rc := &readCounter{Store: st}
		e := New(rc, Options{Persist: st})
		defer e.Close()
		stats, err := e.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if rc.all != 0 {
			t.Errorf("the copy was not used: %+v", stats)
		}
		got := answers(e)
		fresh := New(st, Options{})
		defer fresh.Close()
		if _, err := fresh.Rebuild(ctx); err != nil {
			t.Fatal(err)
		}
		if want := answers(fresh); !reflect.DeepEqual(got, want) {
			t.Error("answers differ from a fresh build")
		}
		return statTimes(t, path), got
	}
	session() // catches up, and saves the result
	session()
	before := statTimes(t, path)
	after, _ := session()
	if !after.Equal(before) {
		t.Errorf("a read-only session changed the file (%v → %v): the next start checks it again", before, after)
	}
}

// statTimes is the later of the file's modification and status-change
// times, as far as os.Stat tells (the modification time everywhere).
func statTimes(t *testing.T, path string) time.Time {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime()
}

// TestMappedNameLinkForms: a note in a mapped folder with a mapped name
// is reached by every link form Obsidian writes for it: a wiki-link path
// (whose folder holds ':', which is no category:name then), a markdown
// link URL-escaped, and a bare name with ".md".
func TestMappedNameLinkForms(t *testing.T) {
	ctx := context.Background()
	st := newMemStore(
		ent("notes", "Home", "harbor [[Odd: x/What is it?]]"),
		ent("notes", "Md", "walrus [t](Odd%3A%20x/What%20is%20it%3F.md) and [u](<Odd%3A x/Q3: plan.md>) [v](<Odd: x/x.md>)"),
		ent("notes", "Bare", "zebra [[Why?.md]] [[Why?#Part]]"),
		ent("Odd%3A x", "What is it%3F", "a"),
		ent("Odd%3A x", "Q3%3A plan", "b"),
		ent("qs", "Why%3F", "c"),
	)
	eng := New(st, Options{})
	defer eng.Close()
	for q, want := range map[string][]string{
		"harbor": {"hit notes:Home", "link Odd%3A x:What is it%3F via notes:Home"},
		"walrus": {"hit notes:Md", "link Odd%3A x:What is it%3F via notes:Md", "link Odd%3A x:Q3%3A plan via notes:Md"},
		"zebra":  {"hit notes:Bare", "link qs:Why%3F via notes:Bare"},
	} {
		res, err := eng.Retrieve(ctx, Request{Query: q, Budget: Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		if got := keys(res.Items); !slices.Equal(got, want) || len(res.UnresolvedLinks) != 0 {
			t.Errorf("%s: items %q, want %q; unresolved %q", q, got, want, res.UnresolvedLinks)
		}
	}
}

// TestCodeFenceRuleAgrees: three packages know which lines are in a code
// fence: links (maskCode), inline tags (store.InlineTags) and sections
// (section.Split). For one body they must agree: the link, the tag and
// the heading of each case are all in code, or all outside it.
func TestCodeFenceRuleAgrees(t *testing.T) {
	const probe = "[[A]] #ta\n# H\n"
	for _, c := range []struct {
		name   string
		body   string
		inCode bool
	}{
		{"backticks", "```\n" + probe + "```\nafter\n", true},
		{"tildes", "~~~\n" + probe + "~~~\n", true},
		{"closer too short: to the end", "~~~~\n" + probe + "~~~\n", true},
		{"closer with text is no closer", "``` x\n" + probe + "``` y\n", true},
		{"other fence char does not close", "```\n~~~\n" + probe, true},
		{"CRLF", "```\r\n[[A]] #ta\r\n# H\r\n```\r\n", true},
		{"tilde info with a backtick", "~~~ a`b\n" + probe + "~~~\n", true},
		{"three spaces of indent", "   ```\n" + probe + "```\n", true},
		{"after the fence", "```\ncode\n```\n" + probe, false},
		{"four spaces: no fence", "    ```\n" + probe, false},
		{"backtick info with a backtick: no fence", "``` a`b\n" + probe, false},
		{"two backticks: no fence", "``\n" + probe, false},
		// Inline code spans (internal/mdcode, since issue 24): a span runs
		// within its paragraph, and a heading ends the paragraph, so none
		// runs from the first line to the last here (on main links took it
		// for code and inline tags did not).
		{"no span across a heading", "`x\n" + probe + "`\n", false},
	} {
		links := len(ParseLinks("c", c.body)) == 0
		tags := len(store.InlineTags(c.body)) == 0
		heads := true
		for _, s := range section.Split(c.body) {
			if s.Name() == "H" {
				heads = false
			}
		}
		if links != c.inCode || tags != c.inCode || heads != c.inCode {
			t.Errorf("%s: in code by links %v, by inline tags %v, by sections %v; want %v", c.name, links, tags, heads, c.inCode)
		}
	}
}

// TestDeviceNameLinkCase: a link reaches a note whose mapped name escapes
// a letter (a Windows device name: "CON" is "%43ON") in any case, as
// Obsidian ignores case: "[[con]]" maps to "%63on", which only the name
// as written ("con" and "CON") shows to be the same.
func TestDeviceNameLinkCase(t *testing.T) {
	ctx := context.Background()
	st := newMemStore(
		ent("notes", "Home", "harbor [[con]] [[CON]] [[what is it?]]"),
		ent("n", "%43ON", "x"),
		ent("q", "What is it%3F", "y"),
	)
	eng := New(st, Options{})
	defer eng.Close()
	res, err := eng.Retrieve(ctx, Request{Query: "harbor", Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"hit notes:Home", "link n:%43ON via notes:Home", "link q:What is it%3F via notes:Home"}
	if got := keys(res.Items); !slices.Equal(got, want) || len(res.UnresolvedLinks) != 0 {
		t.Errorf("items %q, want %q; unresolved %q", got, want, res.UnresolvedLinks)
	}
	// A write: the overlay's fold index follows the same rule.
	for _, e := range []store.Entry{ent("notes", "Two", "walrus [[prn]]"), ent("n", "%50RN", "z")} {
		if err := eng.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	res, err = eng.Retrieve(ctx, Request{Query: "walrus", Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(res.Items), []string{"hit notes:Two", "link n:%50RN via notes:Two"}; !slices.Equal(got, want) {
		t.Errorf("after a write: items %q, want %q; unresolved %q", got, want, res.UnresolvedLinks)
	}
}
