package retrieve_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
	"github.com/recallhq/recall/store/fs"
)

// Regression tests for issue 8 (trustworthy writes and freshness), on real
// stores: a folder and a bbolt file. Case 1 (a lost tag change) is a
// store-level property, covered by storetest's UpdateConcurrent; case 5
// (vectors pruned during a sync) is in embed/cache.

// fillFolder writes n entries as files directly, as an editor or git
// would, and returns the folder.
func fillFolder(t testing.TB, n int) string {
	t.Helper()
	dir := fastTempDir(t)
	for i := range n {
		writeEntryFile(t, dir, fmt.Sprintf("c%d", i%20), fmt.Sprintf("n%d", i), fmt.Sprintf("filler text number %d alpha", i))
	}
	return dir
}

// fastTempDir is a temporary folder in memory (/dev/shm) where there is
// one, so that the many fsyncs of a write-heavy test cost nothing; else
// the usual temporary folder.
func fastTempDir(t testing.TB) string {
	t.Helper()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "recall-test-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

func writeEntryFile(t testing.TB, root, category, name, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(category), name+".md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	// Written aside and renamed in, as editors and git do: a reader never
	// sees half a file.
	tmp := filepath.Join(filepath.Dir(p), ".tmp-"+name)
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
}

func openFolder(t testing.TB, dir string, watch bool) *fs.Store {
	t.Helper()
	st, err := fs.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if watch {
		if err := st.Watch(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func openBoltFilled(t testing.TB, n int) *bolt.Store {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "m.db"), &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for i := range n {
		if err := st.Put(context.Background(), store.Entry{Category: fmt.Sprintf("c%d", i%20), Name: fmt.Sprintf("n%d", i),
			Content: fmt.Sprintf("filler text number %d alpha", i)}); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// finds reports whether a retrieve for term returns the entry as a hit.
func finds(t testing.TB, e *retrieve.Engine, term, category, name string) bool {
	t.Helper()
	res, err := e.Retrieve(context.Background(), retrieve.Request{Query: term, Limit: 50, NoLinks: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range res.Items {
		if it.Category == category && it.Name == name {
			return true
		}
	}
	return false
}

// warm builds the engine's index.
func warm(t testing.TB, e *retrieve.Engine) {
	t.Helper()
	s, err := e.Snapshot(context.Background())
	if err != nil || s.Count() == 0 {
		t.Fatalf("warm-up: %v, %v", s, err)
	}
}

// Case 3: a retrieve that starts after a direct store write in the same
// process returned sees it, and sees a direct delete, with no wait and no
// Rebuild (the old engine answered from the stale index while rebuilding).
func TestIssue8DirectStoreWriteSeen(t *testing.T) {
	ctx := context.Background()
	for _, backend := range []string{"fs", "bolt"} {
		t.Run(backend, func(t *testing.T) {
			var st store.Store
			if backend == "fs" {
				st = openFolder(t, fillFolder(t, 2000), false)
			} else {
				st = openBoltFilled(t, 2000)
			}
			e := retrieve.New(st, retrieve.Options{})
			defer e.Close()
			warm(t, e)
			for i := range 5 {
				term := fmt.Sprintf("zanzibar%d", i)
				if err := st.Put(ctx, store.Entry{Category: "direct", Name: term, Content: term + " written to the store"}); err != nil {
					t.Fatal(err)
				}
				if !finds(t, e, term, "direct", term) {
					t.Fatalf("write %d: a retrieve after a direct store Put returned does not see it", i)
				}
				if err := st.Delete(ctx, "direct", term); err != nil {
					t.Fatal(err)
				}
				if finds(t, e, term, "direct", term) {
					t.Fatalf("write %d: a retrieve after a direct store Delete returned still sees the entry", i)
				}
			}
		})
	}
}

// Case 2: a background compaction must not install an index that lacks a
// write made behind the engine while it ran. The engine's writes grow the
// overlay until a compaction starts (at 20k entries it takes a while),
// then a direct store write lands, then one more engine write. It runs
// with -short too (about 10 s under -race): the race detector is what
// checks the compaction's hand-over, and CI's race run is the -short one.
func TestIssue8CompactionKeepsOutsideWrite(t *testing.T) {
	ctx := context.Background()
	st := openFolder(t, fillFolder(t, 20_000), false)
	e := retrieve.New(st, retrieve.Options{})
	defer e.Close()
	warm(t, e)
	// The overlay asks for compaction past 256 documents at this size.
	for i := range 260 {
		if err := e.Put(ctx, store.Entry{Category: "engine", Name: fmt.Sprint(i), Content: "written through the engine"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Put(ctx, store.Entry{Category: "outside", Name: "o", Content: "quixotic outside write"}); err != nil {
		t.Fatal(err)
	}
	if err := e.Put(ctx, store.Entry{Category: "engine", Name: "last", Content: "written through the engine"}); err != nil {
		t.Fatal(err)
	}
	// Whatever the compaction does when it lands, the write stays visible.
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if !finds(t, e, "quixotic", "outside", "o") {
			t.Fatal("the outside write vanished from the index (a compaction installed an index without it)")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Case 4: Rebuild is serialised with writes. A hand edit to an unwatched
// folder is what Rebuild is for; a concurrent engine write must not
// publish over the rebuild's result with an index that lacks the edit.
func TestIssue8RebuildSerialisedWithWrites(t *testing.T) {
	ctx := context.Background()
	dir := fillFolder(t, 300)
	st := openFolder(t, dir, false)
	e := retrieve.New(st, retrieve.Options{})
	defer e.Close()
	warm(t, e)
	for i := range 30 {
		term := fmt.Sprintf("handedit%d", i)
		writeEntryFile(t, dir, "hand", term, term+" made in an editor")
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := e.Rebuild(ctx); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if err := e.Put(ctx, store.Entry{Category: "engine", Name: fmt.Sprint(i), Content: "concurrent engine write"}); err != nil {
				t.Error(err)
			}
		}()
		wg.Wait()
		if !finds(t, e, term, "hand", term) {
			t.Fatalf("round %d: the hand edit Rebuild read is missing after a concurrent engine write", i)
		}
	}
}

// Case 6: an outside edit to a watched folder is applied incrementally:
// it becomes visible promptly and the index keeps its base (the old engine
// re-read and re-indexed the whole store for each edit).
func TestIssue8OutsideEditIsIncremental(t *testing.T) {
	dir := fillFolder(t, 2000)
	st := openFolder(t, dir, true)
	e := retrieve.New(st, retrieve.Options{})
	defer e.Close()
	warm(t, e)
	before, err := e.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		term := fmt.Sprintf("editor%d", i)
		writeEntryFile(t, dir, "c3", term, term+" saved by an editor")
		start := time.Now()
		for !finds(t, e, term, "c3", term) {
			if time.Since(start) > 10*time.Second {
				t.Fatalf("edit %d never became visible", i)
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Logf("edit %d visible after %v", i, time.Since(start).Round(time.Millisecond))
	}
	after, err := e.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !after.SameBase(before) {
		t.Error("three outside edits rebuilt the index from the whole store instead of patching it")
	}
}

// gatedBolt is a bolt store whose Changes, while armed, stops in the
// middle of the first call it gets (signalling entered) until released:
// an Engine's write is then held between its commit and its publish.
type gatedBolt struct {
	*bolt.Store
	armed   chan struct{} // closed: armed
	entered chan struct{}
	release chan struct{}
	once    sync.Once
}

func (g *gatedBolt) Changes(ctx context.Context, since uint64) (store.ChangeSet, error) {
	select {
	case <-g.armed:
		g.once.Do(func() {
			close(g.entered)
			<-g.release
		})
	default:
	}
	return g.Store.Changes(ctx, since)
}

// On bolt (store.AckRevisioner) a retrieve does not wait for an Engine's
// own write that has committed but not yet returned: it answers from the
// snapshot before it. Before, every retrieve in that window queued on the
// publish lock behind the write's catch-up (at 10% writes, a quarter of
// a server's retrieve throughput: docs/performance.md). Once the write
// returns, it is seen; another Engine's write over the same store, and a
// direct store write, are waited for as before.
func TestOwnWriteInFlightNotWaitedFor(t *testing.T) {
	ctx := context.Background()
	g := &gatedBolt{Store: openBoltFilled(t, 200), armed: make(chan struct{}), entered: make(chan struct{}), release: make(chan struct{})}
	e := retrieve.New(g, retrieve.Options{})
	defer e.Close()
	warm(t, e)
	close(g.armed)
	wrote := make(chan error, 1)
	go func() {
		wrote <- e.Put(ctx, store.Entry{Category: "own", Name: "w", Content: "omega written through the engine"})
	}()
	<-g.entered // committed; its catch-up is held
	if rev, _ := g.Revision(ctx); rev != 201 {
		t.Fatalf("store revision %d, want 201", rev)
	}
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, err := e.Retrieve(tctx, retrieve.Request{Query: "omega", NoLinks: true})
	if err != nil {
		t.Fatalf("a retrieve during the engine's own write waited for it: %v", err)
	}
	if len(res.Items) != 0 {
		t.Fatalf("the write is not published yet, got %d items", len(res.Items))
	}
	close(g.release)
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	if !finds(t, e, "omega", "own", "w") {
		t.Fatal("a retrieve after the engine's write returned does not see it")
	}
	e2 := retrieve.New(g.Store, retrieve.Options{})
	defer e2.Close()
	warm(t, e2)
	if err := e2.Put(ctx, store.Entry{Category: "other", Name: "w", Content: "psi written through another engine"}); err != nil {
		t.Fatal(err)
	}
	if !finds(t, e, "psi", "other", "w") {
		t.Fatal("a retrieve after another engine's write returned does not see it")
	}
	if err := g.Store.Put(ctx, store.Entry{Category: "direct", Name: "w", Content: "chi written to the store"}); err != nil {
		t.Fatal(err)
	}
	if !finds(t, e, "chi", "direct", "w") || !finds(t, e2, "chi", "direct", "w") {
		t.Fatal("a retrieve after a direct store write returned does not see it")
	}
}

// An Engine's own write whose catch-up fails (its context ends once the
// store has it) is owed: it returns nil, the write having landed, and the
// next retrieve catches up rather than skip it as a write in flight.
func TestOwnWriteOwedWhenItsCatchUpFails(t *testing.T) {
	ctx := context.Background()
	st := openBoltFilled(t, 200)
	e := retrieve.New(st, retrieve.Options{})
	defer e.Close()
	warm(t, e)
	wctx, cancel := context.WithCancel(ctx)
	err := e.Update(wctx, "own", "u", func(store.Entry, bool) (store.Entry, error) {
		cancel() // the store commits it; the Engine's catch-up fails on wctx
		return store.Entry{Category: "own", Name: "u", Content: "upsilon written, its catch-up cancelled"}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !finds(t, e, "upsilon", "own", "u") {
		t.Fatal("a retrieve after the write returned does not see it")
	}
}

// panickyBolt panics once in Changes while armed: a stand-in for any panic
// in an Engine write's catch-up before the snapshot is stored (Changes,
// apply's reads and index.Snapshot.Apply, a rebuild).
type panickyBolt struct {
	*bolt.Store
	arm atomic.Bool
}

func (p *panickyBolt) Changes(ctx context.Context, since uint64) (store.ChangeSet, error) {
	if p.arm.CompareAndSwap(true, false) {
		panic("catch-up bug")
	}
	return p.Store.Changes(ctx, since)
}

// An own write whose catch-up panics (found by review) has committed,
// marked with the Engine's Publisher: it is owed, so the Engine's next
// retrieve catches up rather than skip it until some other write moves
// the acknowledged revision.
func TestOwnWriteOwedWhenItsCatchUpPanics(t *testing.T) {
	ctx := context.Background()
	st := &panickyBolt{Store: openBoltFilled(t, 50)}
	e := retrieve.New(st, retrieve.Options{})
	defer e.Close()
	warm(t, e)
	st.arm.Store(true)
	func() {
		defer func() { _ = recover() }() // as net/http does for a handler
		_ = e.Put(ctx, store.Entry{Category: "own", Name: "p", Content: "kappa written, catch-up panicked"})
	}()
	if _, err := st.Get(ctx, "own", "p"); err != nil {
		t.Fatalf("the write did not land: %v", err)
	}
	if !finds(t, e, "kappa", "own", "p") {
		t.Fatal("the committed write is in the store (Get finds it) but the Engine's retrieves skip it")
	}
}
