package retrieve_test

import (
	"context"
	"fmt"
	"iter"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/fs"
)

// readCounter is a folder's index cache that counts the entries its walk
// read (those the copy could not stand for).
type readCounter struct {
	*fs.Store
	read   atomic.Int32
	asking func(store.Key) // called before fresh, when not nil
}

func (c *readCounter) AllStamped(ctx context.Context, fresh func(store.Key, string) bool) iter.Seq2[store.StampedEntry, error] {
	if c.asking != nil {
		f := fresh
		fresh = func(k store.Key, stamp string) bool { c.asking(k); return f(k, stamp) }
	}
	return func(yield func(store.StampedEntry, error) bool) {
		for it, err := range c.Store.AllStamped(ctx, fresh) {
			if !it.Cached && it.Entry.Name != "" {
				c.read.Add(1)
			}
			if !yield(it, err) {
				return
			}
		}
	}
}

// settle waits until the file system's clock has moved past every file
// below dir, so that none of them is racily clean for the next walk.
func settle(t *testing.T, dir string) {
	t.Helper()
	var newest time.Time
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.ModTime().After(newest) {
			newest = fi.ModTime()
		}
		return nil
	})
	probe := filepath.Join(t.TempDir(), "probe")
	for range 500 {
		if err := os.WriteFile(probe, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(probe); err == nil && fi.ModTime().After(newest) {
			time.Sleep(20 * time.Millisecond) // change times trail a little on coarse clocks
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the file system's clock does not move")
}

type loaded struct {
	docs    map[store.Key]string
	skipped []string
	answers []*retrieve.Result
	read    int // entries the load read from files
}

// TestStampedIndex: a folder's persisted copy answers exactly like a
// fresh build, is patched for files edited (also in place, at the same
// size and modification time), added, removed and renamed, is rebuilt
// when damaged, truncated or made by another analyzer, never trusts a
// racily clean file, and keeps reporting the files it cannot index. With
// -short, 20 queries of 84 compare the answers.
func TestStampedIndex(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st := openFolder(t, dir, false)
	g := synth.New(7, 3_000)
	ents := g.Entries(600, 40)
	for _, e := range ents {
		if err := st.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	// Files that cannot be indexed: content that is not UTF-8 (read,
	// skipped), a symbolic link and a folder whose name cannot be a
	// category (reported by the walk itself). Broken front matter and
	// names SPEC §1 refuses for new entries are read since issue 24.
	writeEntryFile(t, dir, "bad", "frontmatter", "bad \xff byte")
	if err := os.Symlink(filepath.Join(dir, "bad", "frontmatter.md"), filepath.Join(dir, "bad", "link.md")); err != nil {
		t.Fatal(err)
	}
	writeEntryFile(t, dir, strings.Repeat("f", store.MaxNameBytes+1), "x", "unmappable")
	nq := 80
	if testing.Short() {
		nq = 16
	}
	var queries []string
	for i := range nq {
		queries = append(queries, g.Query(1+i%4))
	}
	queries = append(queries, "zebra", "giraffe", "okapi", g.Common(3)[0]+" "+g.Common(3)[1])

	run := func(e *retrieve.Engine, load bool) loaded {
		t.Helper()
		var l loaded
		var stats retrieve.BuildStats
		var err error
		if load {
			stats, err = e.Load(ctx)
		} else {
			stats, err = e.Rebuild(ctx)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range stats.Skipped {
			l.skipped = append(l.skipped, err.Error())
		}
		s, err := e.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		l.docs = map[store.Key]string{}
		s.Docs(func(d *index.Doc) bool {
			l.docs[store.Key{Category: d.Category, Name: d.Name}] = d.Content
			return true
		})
		if stats.Entries != len(l.docs) {
			t.Fatalf("stats say %d entries, the index holds %d", stats.Entries, len(l.docs))
		}
		for _, q := range queries {
			res, err := e.Retrieve(ctx, retrieve.Request{Query: q, Limit: 30, Budget: retrieve.Unlimited})
			if err != nil {
				t.Fatal(err)
			}
			l.answers = append(l.answers, res)
		}
		return l
	}
	// fresh is what a process without any copy answers.
	fresh := func(an *index.Analyzer) loaded {
		e := retrieve.New(st, retrieve.Options{Analyzer: an})
		defer e.Close()
		return run(e, false)
	}
	// start loads as a new process would, with the copy.
	var asking func(store.Key)
	start := func(an *index.Analyzer) loaded {
		t.Helper()
		c := &readCounter{Store: st, asking: asking}
		e := retrieve.New(st, retrieve.Options{Analyzer: an, Stamped: c})
		l := run(e, true)
		e.Close() // waits for the save
		l.read = int(c.read.Load())
		return l
	}
	same := func(what string, got loaded, wantRead int) {
		t.Helper()
		want := fresh(nil)
		if len(want.skipped) != 3 {
			t.Fatalf("%s: a fresh build skipped %q, want three", what, want.skipped)
		}
		if !reflect.DeepEqual(got.skipped, want.skipped) {
			t.Errorf("%s: skipped\n%q\nwant\n%q", what, got.skipped, want.skipped)
		}
		if !reflect.DeepEqual(got.docs, want.docs) {
			t.Errorf("%s: documents differ from a fresh build", what)
		}
		for i := range queries {
			if !reflect.DeepEqual(got.answers[i], want.answers[i]) {
				t.Errorf("%s: query %q answers differ from a fresh build", what, queries[i])
				break
			}
		}
		if wantRead >= 0 && got.read != wantRead {
			t.Errorf("%s: read %d entry files, want %d", what, got.read, wantRead)
		}
	}
	copyPath := filepath.Join(st.CacheDir(), "index")

	settle(t, dir)
	all := len(ents) + 1 // with the broken front matter
	const broken = 1     // it is read at every start: a failure is never taken from the copy
	same("no copy", start(nil), all)
	same("copy", start(nil), broken)

	// Edits: in place at the same size, with the modification time put
	// back (only the change time, on Linux, tells); a new file; a removed
	// one; a renamed one.
	p0, _ := st.Path(ents[0].Category, ents[0].Name)
	fi0, err := os.Stat(p0)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p0)
	i := strings.LastIndex(string(b), " ")
	copy(b[i-5:], "zebra")
	if err := os.WriteFile(p0, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p0, fi0.ModTime(), fi0.ModTime()); err != nil {
		t.Fatal(err)
	}
	writeEntryFile(t, dir, "new", "animal", "an okapi in the forest")
	p1, _ := st.Path(ents[1].Category, ents[1].Name)
	os.Remove(p1)
	p2, _ := st.Path(ents[2].Category, ents[2].Name)
	if err := os.Rename(p2, filepath.Join(filepath.Dir(p2), "renamed giraffe.md")); err != nil {
		t.Fatal(err)
	}
	settle(t, dir)
	edited := 3 + broken // the new file, the renamed one, and the edit where the change time tells
	if runtime.GOOS != "linux" {
		edited = -1
	}
	got := start(nil)
	same("after edits", got, edited)
	if _, ok := got.docs[store.Key{Category: "new", Name: "animal"}]; !ok {
		t.Error("new file not indexed")
	}
	// A few changes do not make a new copy (it is still right about the
	// rest): the next start reads the same files again.
	same("copy after edits", start(nil), edited)
	for i := range 70 { // enough changes to save one
		writeEntryFile(t, dir, "more", fmt.Sprintf("n%d", i), "more notes")
	}
	settle(t, dir)
	if edited >= 0 {
		edited += 70
	}
	same("many edits", start(nil), edited)
	same("copy after many edits", start(nil), broken)
	all += 70

	// Damage: a flipped byte, a truncation, no header at all.
	for _, damage := range []func([]byte) []byte{
		func(b []byte) []byte { b[len(b)/2] ^= 1; return b },
		func(b []byte) []byte { return b[:len(b)-1] },
		func(b []byte) []byte { return b[:10] },
		func([]byte) []byte { return nil },
	} {
		b, err := os.ReadFile(copyPath)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(copyPath, damage(b), 0o644); err != nil {
			t.Fatal(err)
		}
		same("damaged copy", start(nil), all)
		same("copy after damage", start(nil), broken)
	}

	// Another analyzer: a copy of the default one is not trusted, and
	// the other's copy is not trusted back.
	other := index.Spec()
	l := start(other)
	want := fresh(other)
	if l.read != all || !reflect.DeepEqual(l.answers, want.answers) {
		t.Errorf("another analyzer: read %d (want %d), same answers %v", l.read, all, reflect.DeepEqual(l.answers, want.answers))
	}
	same("back to the default analyzer", start(nil), all)

	// Racily clean: a file whose times are not before the walk's clock
	// (here, forged a minute ahead) is read at every start, so an edit
	// that keeps its size and times is seen.
	p3, _ := st.Path(ents[3].Category, ents[3].Name)
	future := time.Now().Add(time.Minute)
	if err := os.Chtimes(p3, future, future); err != nil {
		t.Fatal(err)
	}
	same("racy file", start(nil), 1+broken)
	same("racy file again", start(nil), 1+broken)
	b, _ = os.ReadFile(p3)
	i = strings.LastIndex(string(b), " ")
	copy(b[i-6:], " okapi")
	if err := os.WriteFile(p3, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p3, future, future); err != nil {
		t.Fatal(err)
	}
	got = start(nil)
	same("racy file edited", got, 1+broken)
	if c := got.docs[ents[3].Key()]; !strings.Contains(c, "okapi") {
		t.Errorf("racy edit not seen: %q", c)
	}

	// A file edited, then removed between its stat and its read: it
	// leaves the index.
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p3, past, past); err != nil {
		t.Fatal(err)
	}
	p4, _ := st.Path(ents[4].Category, ents[4].Name)
	writeEntryFile(t, dir, ents[4].Category, ents[4].Name, "edited, then removed")
	settle(t, dir)
	asking = func(k store.Key) {
		if k == ents[4].Key() {
			os.Remove(p4)
		}
	}
	got = start(nil)
	asking = nil
	if _, ok := got.docs[ents[4].Key()]; ok {
		t.Error("file removed during the load still indexed")
	}
	same("removed during the load", got, -1)
}

const loaderEnv = "RECALL_TEST_STAMPED_WRITER"

// TestStampedIndexTwoProcesses: another process writes entries (new ones,
// and again and again the same ones) through its own Store while this one
// loads the index over and over, saving copies as it goes. Once the
// writer is done, a load from the copy holds exactly what a fresh build
// does.
func TestStampedIndexTwoProcesses(t *testing.T) {
	if dir := os.Getenv(loaderEnv); dir != "" {
		st, err := fs.Open(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		for i := range 400 {
			e := store.Entry{Category: fmt.Sprintf("w%d", i%3), Name: fmt.Sprintf("n%d", i%50), Content: fmt.Sprintf("version %d of okapi%d", i, i%50)}
			if err := st.Put(context.Background(), e); err != nil {
				t.Fatal(err)
			}
			if i%40 == 0 {
				st.Delete(context.Background(), e.Category, fmt.Sprintf("n%d", (i+7)%50))
			}
		}
		return
	}
	if testing.Short() {
		t.Skip("runs a second process")
	}
	ctx := context.Background()
	dir := t.TempDir()
	st := openFolder(t, dir, false)
	for _, e := range synth.New(3, 2_000).Entries(300, 30) {
		if err := st.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestStampedIndexTwoProcesses$")
	cmd.Env = append(os.Environ(), loaderEnv+"="+dir)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	docsOf := func(e *retrieve.Engine) map[store.Key]string {
		s, err := e.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		m := map[store.Key]string{}
		s.Docs(func(d *index.Doc) bool {
			m[store.Key{Category: d.Category, Name: d.Name}] = d.Content
			return true
		})
		return m
	}
	load := func() map[store.Key]string {
		// A Store of its own, as a new process has.
		st2, err := fs.Open(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st2.Close()
		e := retrieve.New(st2, retrieve.Options{Stamped: st2})
		defer e.Close()
		if _, err := e.Load(ctx); err != nil {
			t.Fatal(err)
		}
		return docsOf(e)
	}
	loads := 0
	for running := true; running; loads++ {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("writer: %v", err)
			}
			running = false
		default:
		}
		load()
	}
	e := retrieve.New(st, retrieve.Options{})
	defer e.Close()
	if _, err := e.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	want := docsOf(e)
	if got := load(); !reflect.DeepEqual(got, want) {
		t.Fatalf("after %d loads during the writes, the copy holds %d entries, a fresh build %d (or contents differ)", loads, len(got), len(want))
	}
	t.Logf("%d loads while the other process wrote", loads)
}

// TestStampedIndexWriteDuringLoad: writes through the store while a load
// walks the folder (here, from inside the walk) are in the next
// snapshot: the load is tagged with the revision read before the walk, so
// the change feed names them afterwards.
func TestStampedIndexWriteDuringLoad(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st := openFolder(t, dir, false)
	ents := synth.New(9, 1_000).Entries(200, 20)
	for _, e := range ents {
		if err := st.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	settle(t, dir)
	e := retrieve.New(st, retrieve.Options{Stamped: st})
	if _, err := e.Load(ctx); err != nil { // makes the copy
		t.Fatal(err)
	}
	e.Close()

	wrote := false
	c := &readCounter{Store: st, asking: func(store.Key) {
		if wrote {
			return
		}
		wrote = true
		last := ents[len(ents)-1]
		last.Content = "rewritten during the load: okapi"
		if err := st.Put(ctx, last); err != nil {
			t.Error(err)
		}
		if err := st.Put(ctx, store.Entry{Category: "a", Name: "aaa", Content: "added during the load: okapi"}); err != nil {
			t.Error(err)
		}
		if err := st.Delete(ctx, ents[len(ents)-2].Category, ents[len(ents)-2].Name); err != nil {
			t.Error(err)
		}
	}}
	e = retrieve.New(st, retrieve.Options{Stamped: c})
	defer e.Close()
	if _, err := e.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if !wrote {
		t.Fatal("the walk asked about no entry")
	}
	res, err := e.Retrieve(ctx, retrieve.Request{Query: "okapi", Budget: retrieve.Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range res.Items {
		got = append(got, it.Category+":"+it.Name)
	}
	last := ents[len(ents)-1]
	if len(got) != 2 {
		t.Errorf("okapi finds %v, want a:aaa and %s", got, last.Key())
	}
	s, _ := e.Snapshot(ctx)
	if d := s.Lookup(ents[len(ents)-2].Category, ents[len(ents)-2].Name); d != nil {
		t.Error("entry deleted during the load still indexed")
	}
}

// TestStampedIndexRereadsUnreadable: a file the copy's build could not
// read is read again at every start, not taken from the copy. Why a read
// failed is not a property of the file's stamp alone (the folder moved,
// so the message's path is another; a transient error such as too many
// open files; another user who may read it): trusting the copy's message
// would report a stale reason, or hide a readable entry until its file
// changes.
func TestStampedIndexRereadsUnreadable(t *testing.T) {
	ctx := context.Background()
	parent := t.TempDir()
	a := filepath.Join(parent, "a")
	writeEntryFile(t, a, "notes", "good", "a readable note about otters")
	writeEntryFile(t, a, "bad", "frontmatter", "bad \xff byte") // broken front matter is read since issue 24
	settle(t, a)
	load := func(dir string) []string {
		t.Helper()
		st, err := fs.Open(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		e := retrieve.New(st, retrieve.Options{Stamped: st})
		defer e.Close() // waits for the save
		stats, err := e.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var msgs []string
		for _, err := range stats.Skipped {
			msgs = append(msgs, err.Error())
		}
		return msgs
	}
	if got := load(a); len(got) != 1 || !strings.Contains(got[0], a) {
		t.Fatalf("first load skipped %q, want one message naming %s", got, a)
	}
	if _, err := os.Stat(filepath.Join(openFolder(t, a, false).CacheDir(), "index")); err != nil {
		t.Fatalf("no copy saved: %v", err)
	}
	// The whole folder moves: renaming it keeps every file's stamp.
	b := filepath.Join(parent, "b")
	if err := os.Rename(a, b); err != nil {
		t.Fatal(err)
	}
	got := load(b)
	if len(got) != 1 || !strings.Contains(got[0], b) || strings.Contains(got[0], a+string(filepath.Separator)) {
		t.Errorf("after the folder moved, skipped %q, want one message naming %s", got, b)
	}
}

// TestStampedIndexPrivateToItsUser: the copy holds the content of every
// entry its writer could read, whatever the entry files' modes say, so it
// is readable by its writer only, and a copy another user wrote is not
// trusted (that user may read files this one may not, and the reverse):
// the load then reads every file itself.
func TestStampedIndexPrivateToItsUser(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no file owners")
	}
	ctx := context.Background()
	dir := t.TempDir()
	writeEntryFile(t, dir, "notes", "private", "a secret about otters")
	writeEntryFile(t, dir, "notes", "public", "a note about beavers")
	settle(t, dir)
	st := openFolder(t, dir, false)
	load := func() int {
		t.Helper()
		c := &readCounter{Store: st}
		e := retrieve.New(st, retrieve.Options{Stamped: c})
		if _, err := e.Load(ctx); err != nil {
			t.Fatal(err)
		}
		e.Close() // waits for the save
		return int(c.read.Load())
	}
	if n := load(); n != 2 {
		t.Fatalf("first load read %d files, want 2", n)
	}
	copyPath := filepath.Join(st.CacheDir(), "index")
	fi, err := os.Stat(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("the copy's mode is %v, want no access for group and others", fi.Mode().Perm())
	}
	if n := load(); n != 0 {
		t.Fatalf("load from its own copy read %d files, want 0", n)
	}
	if err := os.Chown(copyPath, os.Geteuid()+1000, -1); err != nil {
		t.Skipf("chown: %v", err)
	}
	if n := load(); n != 2 {
		t.Errorf("load beside another user's copy read %d files, want 2 (the copy not trusted)", n)
	}
}
