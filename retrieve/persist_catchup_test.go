package retrieve

import (
	"bytes"
	"context"
	"fmt"
	"iter"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
)

// readCounter is a bolt store (change feed, index copy and all) that
// counts what is read from it: full walks and single entries, by key.
type readCounter struct {
	*bolt.Store
	mu   sync.Mutex
	all  int
	gets []store.Key
}

func (c *readCounter) All(ctx context.Context) iter.Seq2[store.Entry, error] {
	c.mu.Lock()
	c.all++
	c.mu.Unlock()
	return c.Store.All(ctx)
}

func (c *readCounter) Get(ctx context.Context, category, name string) (store.Entry, error) {
	c.mu.Lock()
	c.gets = append(c.gets, store.Key{Category: category, Name: name})
	c.mu.Unlock()
	return c.Store.Get(ctx, category, name)
}

// A copy saved before some writes is brought up to date in the next
// process by re-reading only the entries written since: no full walk, one
// read per changed entry, answers identical to a fresh build. Writes past
// the file's history, or a store without a feed, still rebuild.
func TestPersistedIndexCatchesUp(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	open := func(history int) *bolt.Store {
		t.Helper()
		st, err := bolt.Open(path, &bolt.Options{NoSync: true, History: history})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	g := synth.New(7, 3_000)
	ents := g.Entries(600, 40)
	st := open(0)
	if err := st.PutBatch(ctx, ents); err != nil {
		t.Fatal(err)
	}
	var queries []string
	for i := range 40 {
		queries = append(queries, g.Query(1+i%4))
	}
	queries = append(queries, "zebra", "walrus", g.Common(3)[0])
	answers := func(e *Engine) []*Result {
		t.Helper()
		var out []*Result
		for _, q := range queries {
			res, err := e.Retrieve(ctx, Request{Query: q, Limit: 20, Budget: Unlimited})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, res)
		}
		return out
	}
	// load opens the file as a new process would, Loads, and reports what
	// it read; want is the answers of an index built from scratch.
	load := func(st *bolt.Store) (*Engine, *readCounter, BuildStats) {
		t.Helper()
		rc := &readCounter{Store: st}
		e := New(rc, Options{Persist: st})
		stats, err := e.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return e, rc, stats
	}
	check := func(st *bolt.Store, what string, wantGets []store.Key) {
		t.Helper()
		e, rc, stats := load(st)
		defer e.Close()
		rev, _ := st.Revision(ctx)
		s, err := e.Snapshot(ctx)
		if err != nil || s.Revision() != rev {
			t.Fatalf("%s: snapshot at %v (%v), store at %d", what, s.Revision(), err, rev)
		}
		rc.mu.Lock()
		all, gets := rc.all, slices.Clone(rc.gets)
		rc.mu.Unlock()
		if wantGets == nil {
			if all == 0 {
				t.Fatalf("%s: Load did not rebuild from the store", what)
			}
		} else {
			if all != 0 {
				t.Fatalf("%s: Load walked the whole store instead of catching up the copy", what)
			}
			slices.SortFunc(gets, keyOrder)
			slices.SortFunc(wantGets, keyOrder)
			if !slices.Equal(gets, wantGets) {
				t.Fatalf("%s: Load read %d entries %v, want exactly the %d changed", what, len(gets), gets, len(wantGets))
			}
		}
		fresh := New(st, Options{})
		defer fresh.Close()
		fstats, err := fresh.Rebuild(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if stats.Entries != fstats.Entries || len(stats.Skipped) != len(fstats.Skipped) || e.Unreadable() != fresh.Unreadable() {
			t.Fatalf("%s: Load stats %+v (%d unreadable), a fresh build %+v (%d)", what, stats, e.Unreadable(), fstats, fresh.Unreadable())
		}
		if got, want := answers(e), answers(fresh); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: answers differ from a fresh build", what)
		}
	}

	e, _, _ := load(st)
	e.Close() // waits for the copy's save
	check(st, "no write", []store.Key{})

	// One add, one overwrite, one delete, in this process and the next.
	k := func(i int) store.Key { return ents[i].Key() }
	if err := st.Put(ctx, store.Entry{Category: "c", Name: "late", Content: "zebra walrus"}); err != nil {
		t.Fatal(err)
	}
	check(st, "one add", []store.Key{{Category: "c", Name: "late"}})
	st.Close()
	st = open(0)
	if err := st.Put(ctx, store.Entry{Category: k(3).Category, Name: k(3).Name, Content: "zebra zebra"}); err != nil {
		t.Fatal(err)
	}
	if err := st.Delete(ctx, k(5).Category, k(5).Name); err != nil {
		t.Fatal(err)
	}
	check(st, "add, overwrite, delete over two processes",
		[]store.Key{{Category: "c", Name: "late"}, k(3), k(5)})

	// Many writes (more than catchUpSave): caught up, and saved, so the
	// next process reads nothing.
	var many []store.Key
	for i := 10; i < 10+catchUpSave+20; i++ {
		ent := ents[i]
		ent.Content += fmt.Sprint(" walrus", i)
		if err := st.Put(ctx, ent); err != nil {
			t.Fatal(err)
		}
		many = append(many, ent.Key())
	}
	check(st, "many writes", append(many, store.Key{Category: "c", Name: "late"}, k(3), k(5)))
	check(st, "after the catch-up was saved", []store.Key{})

	// More changed entries than patching pays for: rebuilt.
	for i := range catchUpMax(len(ents)) + 1 {
		if err := st.Put(ctx, store.Entry{Category: "c", Name: fmt.Sprint("m", i), Content: "walrus"}); err != nil {
			t.Fatal(err)
		}
	}
	check(st, "more writes than catchUpMax", nil)

	// A store without a change feed cannot name the writes: rebuilt.
	if err := st.Put(ctx, store.Entry{Category: "c", Name: "late", Content: "zebra"}); err != nil {
		t.Fatal(err)
	}
	noFeed := &countingStore{Store: st}
	e = New(noFeed, Options{Persist: st})
	if _, err := e.Load(ctx); err != nil || noFeed.all.Load() == 0 {
		t.Fatalf("a copy behind a store without a feed was trusted (%v)", err)
	}
	e.Close()

	// A changed entry that cannot be read leaves the index and is
	// reported, as a full build reports it; a damaged copy is rebuilt.
	if err := st.Put(ctx, store.Entry{Category: "c", Name: "torn", Content: "walrus torn"}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	damage(t, path, func(tx *bbolt.Tx) error {
		b := tx.Bucket([]byte("recall.entries"))
		key := []byte("c\x00torn")
		v := bytes.Clone(b.Get(key))
		v[len(v)-1] ^= 1
		return b.Put(key, v)
	})
	st = open(0)
	check(st, "a changed entry damaged", []store.Key{{Category: "c", Name: "torn"}})
	if err := st.Delete(ctx, "c", "torn"); err != nil {
		t.Fatal(err)
	}
	data, rev, err := st.LoadIndex(ctx)
	if err != nil || data == nil {
		t.Fatalf("no copy: %v", err)
	}
	if cur, _ := st.Revision(ctx); rev >= cur {
		t.Fatalf("copy at %d, store at %d: want a copy behind", rev, cur)
	}
	st.Close()
	damage(t, path, func(tx *bbolt.Tx) error {
		// The layout of store/bolt/indexcache.go: "current" names the
		// copy's bucket, which holds it under "copydata".
		b := tx.Bucket([]byte("recall.index")).Bucket(tx.Bucket([]byte("recall.index")).Get([]byte("current")))
		v := bytes.Clone(b.Get([]byte("copydata")))
		v[len(v)/2] ^= 1
		return b.Put([]byte("copydata"), v)
	})
	st = open(0)
	check(st, "a damaged copy behind the store", nil)

	// Writes past the file's history: rebuilt.
	st.Close()
	st = open(4)
	defer func() { st.Close() }()
	for i := range 6 {
		if err := st.Put(ctx, store.Entry{Category: "c", Name: fmt.Sprint("h", i), Content: "walrus"}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	st = open(4)
	check(st, "writes past the history", nil)
}

// damage edits the closed bolt file at path with bare bbolt.
func damage(t *testing.T, path string, fn func(*bbolt.Tx) error) {
	t.Helper()
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

func keyOrder(a, b store.Key) int {
	if a.Category != b.Category {
		if a.Category < b.Category {
			return -1
		}
		return 1
	}
	switch {
	case a.Name < b.Name:
		return -1
	case a.Name > b.Name:
		return 1
	}
	return 0
}

// A server that took more writes than the file's history keeps leaves, on
// Close, a copy its successor uses as it is (before, the successor rebuilt
// from every entry); a few writes leave the copy alone (the next start
// repeats their catch-up, cheaper than a save at every Close).
func TestCloseSavesCopyBehind(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	st, err := bolt.Open(path, &bolt.Options{NoSync: true, History: 64})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g := synth.New(3, 2_000)
	if err := st.PutBatch(ctx, g.Entries(1_000, 30)); err != nil {
		t.Fatal(err)
	}
	copyRev := func() uint64 {
		t.Helper()
		var r uint64
		if err := st.ViewIndex(ctx, func(_ []byte, rev uint64) { r = rev }); err != nil {
			t.Fatal(err)
		}
		return r
	}
	start := func() (*Engine, *readCounter) {
		t.Helper()
		rc := &readCounter{Store: st}
		e := New(rc, Options{Persist: st})
		if _, err := e.Load(ctx); err != nil {
			t.Fatal(err)
		}
		return e, rc
	}
	e, _ := start() // builds, saves
	e.Close()
	saved := copyRev()
	rev, _ := st.Revision(ctx)
	if saved != rev {
		t.Fatalf("copy at %d after the first build, store at %d", saved, rev)
	}
	more := synth.New(4, 2_000).Entries(1_000, 30)
	write := func(e *Engine, n int) {
		t.Helper()
		for i := range n {
			ent := more[i]
			ent.Category, ent.Name = fmt.Sprintf("c%d", i%7), fmt.Sprintf("w%d", i)
			if err := e.Put(ctx, ent); err != nil {
				t.Fatal(err)
			}
		}
	}

	// A few writes: Close keeps the old copy; the next start catches up.
	e, _ = start()
	write(e, 10)
	e.Close()
	if got := copyRev(); got != saved {
		t.Fatalf("10 writes: Close saved the copy (at %d, was %d)", got, saved)
	}
	e, rc := start()
	if rc.all != 0 || len(rc.gets) != 10 {
		t.Fatalf("after 10 writes a start read %d walks and %d entries, want 0 and 10", rc.all, len(rc.gets))
	}

	// Past the history (64 revisions) and catchUpSave: Close saves.
	write(e, 300)
	e.Close()
	rev, _ = st.Revision(ctx)
	if got := copyRev(); got != rev {
		t.Fatalf("300 writes: copy at %d after Close, store at %d", got, rev)
	}
	e, rc = start()
	defer e.Close()
	if rc.all != 0 || len(rc.gets) != 0 {
		t.Fatalf("the start after a Close that saved read %d walks and %d entries, want none", rc.all, len(rc.gets))
	}
	fresh := New(st, Options{})
	defer fresh.Close()
	for _, q := range []string{g.Query(2), g.Query(3), "w17", more[5].Content[:20]} {
		a, err1 := e.Retrieve(ctx, Request{Query: q, Budget: Unlimited, Limit: 30})
		b, err2 := fresh.Retrieve(ctx, Request{Query: q, Budget: Unlimited, Limit: 30})
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("%q: the saved copy answers unlike a fresh build (%v, %v)", q, err1, err2)
		}
	}
}

// A read-only bolt file's copy is never saved, so the Engine does not
// encode one: a catch-up past catchUpSave, and Close, save nothing.
func TestReadOnlyStoreSavesNoCopy(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	st, err := bolt.Open(path, &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.PutBatch(ctx, synth.New(5, 2_000).Entries(1_000, 30)); err != nil {
		t.Fatal(err)
	}
	e := New(st, Options{Persist: st})
	if _, err := e.Load(ctx); err != nil { // builds and saves
		t.Fatal(err)
	}
	e.Close()
	for i := range 300 {
		if err := st.Put(ctx, store.Entry{Category: "late", Name: fmt.Sprint(i), Content: "written after the copy"}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	ro, err := bolt.Open(path, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if !ro.ReadOnly() {
		t.Fatal("ReadOnly() is false for a store opened read-only")
	}
	c := &countingSaves{Store: ro}
	e = New(ro, Options{Persist: c})
	if _, err := e.Load(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := e.Retrieve(ctx, Request{Query: "written after the copy", Limit: 5})
	if err != nil || len(res.Items) == 0 {
		t.Fatalf("the catch-up over a read-only file: %v, %v", res, err)
	}
	e.Close()
	if c.saves.Load() != 0 {
		t.Fatalf("%d saves encoded for a read-only store", c.saves.Load())
	}
}

type countingSaves struct {
	*bolt.Store
	saves atomic.Int32
}

func (c *countingSaves) SaveIndex(ctx context.Context, rev uint64, data []byte) error {
	c.saves.Add(1)
	return c.Store.SaveIndex(ctx, rev, data)
}
