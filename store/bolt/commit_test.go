package bolt

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

// historyRecords returns the change history's records in revision order.
func historyRecords(t *testing.T, s *Store) (recs []struct {
	before, after uint64
	keys          []store.Key
}) {
	t.Helper()
	err := s.db.View(func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketChanges).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			before, keys, err := decodeRecord(k, v)
			if err != nil {
				return fmt.Errorf("history record %x: %v", k, err)
			}
			recs = append(recs, struct {
				before, after uint64
				keys          []store.Key
			}{before, binary.BigEndian.Uint64(k), keys})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// Puts and Deletes queued while another write holds the writer slot
// commit together, in one transaction with one history record naming all
// their keys, each bumping the revision by one; each caller returns only
// after that commit, and sees its own write.
func TestGroupCommit(t *testing.T) {
	s, err := Open(tempPath(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Put(ctx, store.Entry{Category: "g", Name: "gone", Content: "to delete"}); err != nil {
		t.Fatal(err)
	}
	r0 := revision(t, s)
	const n = 8
	s.wmu.Lock() // a write under way: everything below queues
	var wg sync.WaitGroup
	errs := make([]error, n+1)
	for i := range n {
		wg.Go(func() {
			errs[i] = s.Put(ctx, store.Entry{Category: "g", Name: fmt.Sprint("e", i), Content: fmt.Sprint("text ", i)})
		})
	}
	wg.Go(func() { errs[n] = s.Delete(ctx, "g", "gone") })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		s.qmu.Lock()
		q := len(s.queue)
		s.qmu.Unlock()
		if q == n+1 {
			break
		}
		if time.Now().After(deadline) {
			s.wmu.Unlock()
			t.Fatalf("%d writes queued, want %d", q, n+1)
		}
	}
	s.wmu.Unlock()
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	if r := revision(t, s); r != r0+n+1 {
		t.Fatalf("revision %d after %d writes from %d", r, n+1, r0)
	}
	recs := historyRecords(t, s)
	last := recs[len(recs)-1]
	if len(recs) != 2 || last.before != r0 || last.after != r0+n+1 || len(last.keys) != n+1 {
		t.Fatalf("history %+v: want one record of the %d queued writes after revision %d", recs, n+1, r0)
	}
	for i := range n {
		if e, err := s.Get(ctx, "g", fmt.Sprint("e", i)); err != nil || e.Content != fmt.Sprint("text ", i) {
			t.Fatalf("e%d: %+v, %v", i, e, err)
		}
	}
	if _, err := s.Get(ctx, "g", "gone"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted entry: %v", err)
	}
	if cs, err := s.Changes(ctx, r0); err != nil || cs.Reset || len(cs.Keys) != n+1 {
		t.Fatalf("Changes(%d) = %+v, %v", r0, cs, err)
	}
}

// Updates queued while another write holds the writer slot commit in the
// same group as Puts: one transaction, one history record naming the keys
// of the writes that wrote. Each read-modify-write sees the writes queued
// before it, so none is lost; an Update whose function fails, asks for no
// change or panics leaves no trace and the others commit; the panic is
// raised on its own caller's goroutine, and is not taken for damage. (On
// the code before, each Update took the writer slot for a transaction of
// its own and never queued.)
func TestGroupCommitUpdate(t *testing.T) {
	s, err := Open(tempPath(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Put(ctx, store.Entry{Category: "g", Name: "count", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	r0 := revision(t, s)
	const appends = 6
	refused := errors.New("refused")
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		recovered any
	)
	errs := make([]error, appends+4)
	s.wmu.Lock() // a write under way: everything below queues
	for i := range appends {
		wg.Go(func() {
			errs[i] = s.Update(ctx, "g", "count", func(old store.Entry, found bool) (store.Entry, error) {
				if !found {
					return store.Entry{}, errors.New("count not found")
				}
				old.Content += "x"
				return old, nil
			})
		})
	}
	wg.Go(func() { errs[appends] = s.Put(ctx, store.Entry{Category: "g", Name: "put", Content: "p"}) })
	wg.Go(func() {
		errs[appends+1] = s.Update(ctx, "g", "refused", func(store.Entry, bool) (store.Entry, error) { return store.Entry{}, refused })
	})
	wg.Go(func() {
		errs[appends+2] = s.Update(ctx, "g", "count", func(store.Entry, bool) (store.Entry, error) { return store.Entry{}, store.ErrNoChange })
	})
	wg.Go(func() {
		defer func() {
			mu.Lock()
			recovered = recover()
			mu.Unlock()
		}()
		errs[appends+3] = s.Update(ctx, "g", "panics", func(store.Entry, bool) (store.Entry, error) { panic("boom") })
	})
	const queued = appends + 4
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		s.qmu.Lock()
		q := len(s.queue)
		s.qmu.Unlock()
		if q == queued {
			break
		}
		if time.Now().After(deadline) {
			s.wmu.Unlock()
			wg.Wait()
			t.Fatalf("%d writes queued, want %d", q, queued)
		}
	}
	s.wmu.Unlock()
	wg.Wait()
	for i, err := range errs {
		switch {
		case i == appends+1:
			if err != refused {
				t.Errorf("the refused update returned %v", err)
			}
		case i == appends+3:
		case err != nil:
			t.Errorf("write %d: %v", i, err)
		}
	}
	if recovered != "boom" {
		t.Errorf("the panicking update's caller recovered %v, want its function's panic", recovered)
	}
	if e, err := s.Get(ctx, "g", "count"); err != nil || e.Content != "x"+strings.Repeat("x", appends) {
		t.Fatalf("count after %d appends: %q, %v", appends, e.Content, err)
	}
	for _, name := range []string{"refused", "panics"} {
		if _, err := s.Get(ctx, "g", name); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s: %v, want nothing written", name, err)
		}
	}
	if r := revision(t, s); r != r0+appends+1 {
		t.Fatalf("revision %d after %d writes from %d", r, appends+1, r0)
	}
	recs := historyRecords(t, s)
	last := recs[len(recs)-1]
	if len(recs) != 2 || last.before != r0 || last.after != r0+appends+1 || len(last.keys) != appends+1 {
		t.Fatalf("history %+v: want one record of the %d writes that wrote, after revision %d", recs, appends+1, r0)
	}
	if p := s.broken.Load(); p != nil {
		t.Fatalf("the store took the function's panic for damage: %v", *p)
	}
	if err := s.Put(ctx, store.Entry{Category: "g", Name: "after", Content: "a"}); err != nil {
		t.Fatalf("a write after the group: %v", err)
	}
}

// An Update whose function asks for no change, alone in its group, writes
// nothing to the file: no empty transaction is committed (and synced),
// as before Update joined the group commit.
func TestUpdateNoChangeWritesNothing(t *testing.T) {
	s := openTemp(t)
	mustPut(t, s, "a", "b", "c")
	r0 := revision(t, s)
	before := s.db.Stats().TxStats
	if err := s.Update(ctx, "a", "b", func(store.Entry, bool) (store.Entry, error) { return store.Entry{}, store.ErrNoChange }); err != nil {
		t.Fatal(err)
	}
	after := s.db.Stats().TxStats
	if d := after.Sub(&before); d.GetWrite() != 0 {
		w := d.GetWrite()
		t.Errorf("an update that changed nothing wrote %d pages", w)
	}
	if r := revision(t, s); r != r0 {
		t.Errorf("revision %d, want %d", r, r0)
	}
}

// A write that fails inside a group (a Delete of a missing entry, a Put
// that bbolt refuses) fails alone, with its own error, and leaves no trace;
// the others of its group commit without it.
func TestGroupCommitFailsAlone(t *testing.T) {
	s, err := Open(tempPath(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r0 := revision(t, s)
	put := func(name string) *request {
		e := store.Entry{Category: "g", Name: name, Content: "text " + name}
		return &request{keys: []store.Key{e.Key()}, fn: func(tx *bbolt.Tx) error { return putTx(tx, "put", e, nil) }}
	}
	missing := &request{keys: []store.Key{{Category: "g", Name: "missing"}}, fn: func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketEntries).Get(encodeKey("g", "missing")) == nil {
			return fmt.Errorf("delete g:missing: %w", store.ErrNotFound)
		}
		return tx.Bucket(bucketEntries).Delete(encodeKey("g", "missing"))
	}}
	// Writes, then fails: its write must vanish with the rollback.
	half := &request{keys: []store.Key{{Category: "g", Name: "half"}}, fn: func(tx *bbolt.Tx) error {
		if err := putTx(tx, "put", store.Entry{Category: "g", Name: "half", Content: "half"}, nil); err != nil {
			return err
		}
		return errors.New("refused after writing")
	}}
	g := []*request{put("a"), missing, put("b"), half, put("c")}
	s.wmu.Lock()
	s.commitGroup(g)
	s.wmu.Unlock()
	for i, r := range g {
		if !r.done {
			t.Fatalf("write %d not done", i)
		}
	}
	if !errors.Is(missing.err, store.ErrNotFound) || half.err == nil || half.err.Error() != "refused after writing" {
		t.Fatalf("failed writes: %v, %v", missing.err, half.err)
	}
	for _, r := range []*request{g[0], g[2], g[4]} {
		if r.err != nil {
			t.Fatalf("%v failed with its group: %v", r.keys, r.err)
		}
	}
	if _, err := s.Get(ctx, "g", "half"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the failed write's entry is there: %v", err)
	}
	if r := revision(t, s); r != r0+3 {
		t.Fatalf("revision %d, want %d", r, r0+3)
	}
	recs := historyRecords(t, s)
	if len(recs) != 1 || recs[0].before != r0 || recs[0].after != r0+3 || len(recs[0].keys) != 3 {
		t.Fatalf("history %+v: want one record of a, b, c", recs)
	}
}

// The concurrent crash test: concWriters goroutines Put at once (so the
// writes commit in groups), each its own entries (version v goes to
// concName(v), v ≡ writer mod concWriters), and append each version to an
// acknowledgement file once its Put has returned; one writer also deletes
// a missing entry now and then, a write that fails inside a group.
const (
	concWriters = 4
	concSlots   = 5
)

func concName(v uint64) string {
	return fmt.Sprintf("w%d-%d", v%concWriters, (v/concWriters)%concSlots)
}

// churnConcurrent is the child side of TestCrashGroupCommit and, with
// update, of TestCrashGroupUpdate: then every write is an Update whose
// function checks the entry it replaces (a complete older version of the
// same writer), every fifth first asks for no change (ErrNoChange), and
// writer 1 now and then runs an Update whose function fails, a write that
// fails inside a group.
func churnConcurrent(s *Store, path string, update bool) error {
	var next [concWriters]uint64
	for w := range next {
		next[w] = uint64(w)
	}
	for e, err := range s.All(ctx) {
		if err != nil {
			return err
		}
		v, err := checkCrashContent(e.Content)
		if err != nil {
			return err
		}
		next[v%concWriters] = max(next[v%concWriters], v+concWriters)
	}
	acks, err := os.OpenFile(path+".acks", os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	errc := make(chan error, concWriters)
	for w := range concWriters {
		go func() {
			for v := next[w]; ; v += concWriters {
				if w == 0 && v%7 == 0 {
					if err := s.Delete(ctx, "crash", "missing"); !errors.Is(err, store.ErrNotFound) {
						errc <- fmt.Errorf("delete of a missing entry: %v", err)
						return
					}
				}
				if update && w == 1 && v%5 == 1 {
					refused := errors.New("refused")
					if err := s.Update(ctx, "crash", concName(v), func(store.Entry, bool) (store.Entry, error) { return store.Entry{}, refused }); err != refused {
						errc <- fmt.Errorf("an update whose function fails: %v", err)
						return
					}
				}
				if update && v%5 == 0 {
					if err := s.Update(ctx, "crash", concName(v), func(store.Entry, bool) (store.Entry, error) { return store.Entry{}, store.ErrNoChange }); err != nil {
						errc <- fmt.Errorf("an update that changes nothing: %v", err)
						return
					}
				}
				e := store.Entry{Category: "crash", Name: concName(v), Content: crashContent(v)}
				var err error
				if update {
					err = s.Update(ctx, e.Category, e.Name, func(old store.Entry, found bool) (store.Entry, error) {
						if found {
							ov, err := checkCrashContent(old.Content)
							if err != nil || ov >= v || ov%concWriters != v%concWriters {
								return store.Entry{}, fmt.Errorf("version %d replaces %s holding %d: %v", v, e.Name, ov, err)
							}
						}
						return e, nil
					})
				} else {
					err = s.Put(ctx, e)
				}
				if err != nil {
					errc <- err
					return
				}
				// One write call: a kill cannot tear the line.
				if _, err := acks.WriteString(strconv.FormatUint(v, 10) + "\n"); err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	return <-errc
}

// TestCrashGroupCommit kills a process whose Puts commit in groups
// (SIGKILL at random moments) and checks after each kill that the file
// opens and passes bbolt's check, holds only complete versions, each under
// its name; that every acknowledged Put is there (its entry holds that
// version or a later one); that the revision counts at least every
// acknowledged Put and never goes down; and that the change history has
// no gap: contiguous records from revision 0 to the file's revision, each
// naming at least one and at most as many keys as revisions it spans, and
// naming together exactly the entries in the file.
func TestCrashGroupCommit(t *testing.T) { crashGroup(t, "churnconc") }

// TestCrashGroupUpdate is TestCrashGroupCommit with every write an Update
// (its read-modify-write committing in groups), some of them changing
// nothing and some failing inside their group.
func TestCrashGroupUpdate(t *testing.T) { crashGroup(t, "churnupdate") }

func crashGroup(t *testing.T, mode string) {
	if testing.Short() {
		t.Skip("kills helper processes; skipped with -short")
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("needs Unix signals")
	}
	path := tempPath(t)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	budget := time.Now().Add(15 * time.Second)
	var prev uint64
	acked := 0
	for round := range 25 {
		if time.Now().After(budget) {
			t.Logf("time budget spent after %d rounds", round)
			break
		}
		c := startChild(t, mode, path)
		c.waitReady(t)
		time.Sleep(time.Duration(rng.IntN(150)) * time.Millisecond)
		c.kill()
		r, n := verifyGroupCrash(t, path)
		if r < prev {
			t.Fatalf("round %d: revision went down from %d to %d", round, prev, r)
		}
		prev, acked = r, n
	}
	t.Logf("%d acknowledged Puts survived the kills (revision %d)", acked, prev)
	if acked == 0 {
		t.Fatal("the helper never acknowledged a write, so nothing was tested")
	}
}

// verifyGroupCrash checks the file and acknowledgements a killed
// churnConcurrent left (see TestCrashGroupCommit) and returns the file's
// revision and the number of acknowledged Puts.
func verifyGroupCrash(t *testing.T, path string) (uint64, int) {
	t.Helper()
	s, err := Open(path, nil)
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer s.Close()
	err = s.db.View(func(tx *bbolt.Tx) error {
		for err := range tx.Check() {
			t.Errorf("bbolt consistency check: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r := revision(t, s)
	held := map[string]uint64{}
	names := map[store.Key]bool{}
	for e, err := range s.All(ctx) {
		if err != nil {
			t.Fatalf("All: %v", err)
		}
		v, err := checkCrashContent(e.Content)
		if err != nil {
			t.Fatalf("entry %s: %v", e.Key(), err)
		}
		if e.Name != concName(v) {
			t.Fatalf("version %d stored under %s, want %s", v, e.Name, concName(v))
		}
		held[e.Name] = v
		names[e.Key()] = true
	}
	f, err := os.Open(path + ".acks")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	acked := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		v, err := strconv.ParseUint(sc.Text(), 10, 64)
		if err != nil {
			t.Fatalf("acknowledgement %q: %v", sc.Text(), err)
		}
		acked++
		if got, ok := held[concName(v)]; !ok || got < v {
			t.Fatalf("acknowledged version %d lost: %s holds %d (present %v)", v, concName(v), got, ok)
		}
	}
	if uint64(acked) > r {
		t.Fatalf("revision %d below the %d acknowledged Puts", r, acked)
	}
	var at uint64
	inHistory := map[store.Key]bool{}
	for _, rec := range historyRecords(t, s) {
		if rec.before != at {
			t.Fatalf("history has a gap: a record ends at %d, the next spans (%d, %d]", at, rec.before, rec.after)
		}
		distinct := map[store.Key]bool{}
		for _, k := range rec.keys {
			distinct[k] = true
			inHistory[k] = true
		}
		if len(distinct) == 0 || uint64(len(distinct)) > rec.after-rec.before {
			t.Fatalf("history record (%d, %d] names %d keys", rec.before, rec.after, len(distinct))
		}
		at = rec.after
	}
	if at != r {
		t.Fatalf("history ends at revision %d, the file is at %d", at, r)
	}
	if !maps.Equal(inHistory, names) {
		t.Fatalf("the history names %d keys, the file holds %d entries", len(inHistory), len(names))
	}
	if cs, err := s.Changes(ctx, 0); err != nil || cs.Reset || cs.Rev != r || len(cs.Keys) != len(names) {
		t.Fatalf("Changes(0) after the kill = %d keys, reset %v, rev %d, %v; want the %d entries at %d", len(cs.Keys), cs.Reset, cs.Rev, err, len(names), r)
	}
	return r, acked
}
