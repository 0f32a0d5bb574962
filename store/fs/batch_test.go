package fs

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/storetest"
)

func TestBatcher(t *testing.T) {
	storetest.RunBatcher(t, func(t *testing.T) store.Store { return openTemp(t) })
}

// crashFsyncEachEnv, set in a batch writer child, turns syncfs off, so that
// PutBatch fsyncs each temp file instead.
const crashFsyncEachEnv = "RECALL_FS_CRASH_FSYNC_EACH"

// TestCrashKillBatch is TestCrashKill with a writer that writes every
// entry in each PutBatch: after each kill, every entry is a complete
// version, never older than one the child reported written. The writer
// uses PutBatch as Open sets it up (one syncfs per chunk on Linux's local
// file systems).
func TestCrashKillBatch(t *testing.T) {
	t.Logf("syncfs: %v", canSyncFS(t.TempDir()))
	crashKill(t, "TestKillBatchChild", nil, checkAfterCrash)
}

// TestCrashKillBatchFsyncEach is TestCrashKillBatch with the fallback that
// fsyncs each temp file.
func TestCrashKillBatchFsyncEach(t *testing.T) {
	crashKill(t, "TestKillBatchChild", []string{crashFsyncEachEnv + "=1"}, checkAfterCrash)
}

// openCrashChild opens the child's store, with syncfs off when asked.
func openCrashChild(t *testing.T, root string) *Store {
	s, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv(crashFsyncEachEnv) != "" {
		s.syncFS = false
	}
	return s
}

// TestKillBatchChild is the writer half of TestCrashKillBatch; it runs only
// in the child process.
func TestKillBatchChild(t *testing.T) {
	root := os.Getenv(crashRootEnv)
	if root == "" {
		t.Skip("runs only as the child process of TestCrashKillBatch")
	}
	start, err := strconv.ParseUint(os.Getenv(crashStartEnv), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	s := openCrashChild(t, root)
	ppid := os.Getppid()
	created := time.Now().UTC()
	deadline := time.Now().Add(30 * time.Second)
	out := bufio.NewWriter(os.Stdout)
	for v := start; os.Getppid() == ppid && time.Now().Before(deadline); v += crashEntries {
		var es []store.Entry
		for w := v; w < v+crashEntries; w++ {
			i := int(w % crashEntries)
			k := crashKey(i)
			es = append(es, store.Entry{Category: k.Category, Name: k.Name, Content: crashContent(i, w), Meta: store.Meta{Created: created}})
		}
		if err := s.PutBatch(ctx, es); err != nil {
			t.Fatal(err)
		}
		// Reported only once PutBatch has returned: the batch is durable.
		for w := v; w < v+crashEntries; w++ {
			fmt.Fprintf(out, "ok %d %d\n", int(w%crashEntries), w)
		}
		out.Flush()
	}
}

// freshBatch is how many new entries each PutBatch of TestKillFreshChild
// writes, over three categories.
const freshBatch = 60

// freshKey is the identity of new entry i of TestCrashKillBatchFresh: the
// name carries i, so the checker knows which content belongs there.
func freshKey(i int) store.Key {
	return store.Key{Category: fmt.Sprintf("f%d", i%3), Name: fmt.Sprintf("e%09d", i)}
}

// TestCrashKillBatchFresh kills a child that keeps importing new entries
// (the shape of `recall import`), with syncfs and with an fsync per file:
// after each kill every entry that exists is complete, every entry the
// child reported written exists, and no temp file shows as an entry.
func TestCrashKillBatchFresh(t *testing.T) {
	for _, env := range [][]string{nil, {crashFsyncEachEnv + "=1"}} {
		t.Run(fmt.Sprintf("fsyncEach=%v", env != nil), func(t *testing.T) {
			crashKill(t, "TestKillFreshChild", env, checkFreshAfterCrash)
		})
	}
}

// TestKillFreshChild is the writer half of TestCrashKillBatchFresh; it runs
// only in the child process. Entry i is written once, as version i, and
// reported as "ok i i".
func TestKillFreshChild(t *testing.T) {
	root := os.Getenv(crashRootEnv)
	if root == "" {
		t.Skip("runs only as the child process of TestCrashKillBatchFresh")
	}
	start, err := strconv.ParseUint(os.Getenv(crashStartEnv), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	s := openCrashChild(t, root)
	ppid := os.Getppid()
	deadline := time.Now().Add(30 * time.Second)
	out := bufio.NewWriter(os.Stdout)
	// Rounds start 1<<32 apart; entry numbers stay below 1<<30 so that
	// crashContent's header reads back as an int on every platform.
	first := int(start>>32) << 20
	for i := first; os.Getppid() == ppid && time.Now().Before(deadline); i += freshBatch {
		var es []store.Entry
		for j := i; j < i+freshBatch; j++ {
			k := freshKey(j)
			es = append(es, store.Entry{Category: k.Category, Name: k.Name, Content: crashContent(j, uint64(j))[:4096]})
		}
		if err := s.PutBatch(ctx, es); err != nil {
			t.Fatal(err)
		}
		for j := i; j < i+freshBatch; j++ {
			fmt.Fprintf(out, "ok %d %d\n", j, j)
		}
		out.Flush()
	}
}

// checkFreshAfterCrash is checkAfterCrash for TestCrashKillBatchFresh.
func checkFreshAfterCrash(t *testing.T, root string, round int, acked map[int]uint64) bool {
	t.Helper()
	s, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	temps := tempFiles(t, root)
	got := map[store.Key]bool{}
	for e, err := range s.All(ctx) {
		if err != nil {
			t.Errorf("round %d: All: %v", round, err)
			continue
		}
		got[e.Key()] = true
		var i int
		if _, err := fmt.Sscanf(e.Name, "e%d", &i); err != nil || freshKey(i) != e.Key() {
			t.Errorf("round %d: unexpected entry %s", round, e.Key())
			continue
		}
		// Each entry is the first 4,096 bytes of version i of entry i.
		if want := crashContent(i, uint64(i))[:4096]; e.Content != want {
			t.Errorf("round %d: %s holds %d bytes that are not what was written (torn)", round, e.Key(), len(e.Content))
		}
	}
	for i := range acked {
		if !got[freshKey(i)] {
			t.Errorf("round %d: %s missing after it was written", round, freshKey(i))
		}
	}
	if len(temps) == 0 {
		return false
	}
	sweepStaleTemps(t, root, round, temps)
	return true
}

// BenchmarkPutBatch writes 2,000 entries of 1 KB into a fresh folder,
// durably, three ways in turn (the order rotates each round, every folder
// stays until the end, so that no way pays for the inodes another freed):
// PutBatch as Open sets it up (one syncfs per chunk where canSyncFS allows
// it), PutBatch fsyncing each file, and one Put each (500 entries). The
// metrics are the median entries/s of each way.
func BenchmarkPutBatch(b *testing.B) {
	body := strings.Repeat("memory notes about the sea, 海边. ", 40)[:1000]
	es := make([]store.Entry, 2000)
	for i := range es {
		es[i] = store.Entry{Category: fmt.Sprintf("c%d", i%8), Name: fmt.Sprintf("note-%06d", i), Content: body}
	}
	modes := []string{"batch", "batch-fsync-each", "put"}
	rates := map[string][]float64{}
	parent := b.TempDir()
	round := 0
	for b.Loop() {
		for j := range modes {
			mode := modes[(round+j)%len(modes)]
			b.StopTimer()
			s, err := Open(filepath.Join(parent, fmt.Sprintf("%s-%d", mode, round)), nil)
			if err != nil {
				b.Fatal(err)
			}
			if mode == "batch-fsync-each" {
				s.syncFS = false
			}
			b.StartTimer()
			start := time.Now()
			n := len(es)
			if mode == "put" {
				n = 500
				for _, e := range es[:n] {
					if err = s.Put(ctx, e); err != nil {
						break
					}
				}
			} else {
				err = s.PutBatch(ctx, es)
			}
			if err != nil {
				b.Fatal(err)
			}
			rates[mode] = append(rates[mode], float64(n)/time.Since(start).Seconds())
		}
		round++
	}
	for _, mode := range modes {
		b.ReportMetric(median(rates[mode]), "entries/s-"+mode)
	}
}

func median(xs []float64) float64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

// TestPutBatchConcurrent runs batches over overlapping identities, in
// shuffled orders, from two Stores on one folder (so their entry locks meet
// only in the cross-process lock file, as two processes' would) and from
// several goroutines of each, next to single Puts and Deletes of the same
// identities. It must finish (no deadlock between chunk locks), and every
// entry must then be one complete version. With -short, 4 rounds of 15.
func TestPutBatchConcurrent(t *testing.T) {
	root := t.TempDir()
	var stores [2]*Store
	for i := range stores {
		s, err := Open(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		stores[i] = s
	}
	const keys = 200
	key := func(i int) store.Key {
		return store.Key{Category: fmt.Sprintf("c%d", i%5), Name: fmt.Sprintf("k%03d", i)}
	}
	content := func(i, g, r int) string {
		return fmt.Sprintf("entry %d writer %d round %d %s", i, g, r, strings.Repeat("x", 500))
	}
	rounds := 15
	if testing.Short() {
		rounds = 4
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := stores[g%2]
			r := rand.New(rand.NewPCG(uint64(g), 1))
			for round := range rounds {
				switch g % 3 {
				case 0, 1: // a batch of 80 identities in a random order
					var es []store.Entry
					for _, i := range r.Perm(keys)[:80] {
						k := key(i)
						es = append(es, store.Entry{Category: k.Category, Name: k.Name, Content: content(i, g, round)})
					}
					if err := s.PutBatch(ctx, es); err != nil {
						errs <- err
						return
					}
				default: // single writes and deletes
					for range 10 {
						i := r.IntN(keys)
						k := key(i)
						var err error
						if r.IntN(3) == 0 {
							if err = s.Delete(ctx, k.Category, k.Name); errors.Is(err, store.ErrNotFound) {
								err = nil
							}
						} else {
							err = s.Put(ctx, store.Entry{Category: k.Category, Name: k.Name, Content: content(i, g, round)})
						}
						if err != nil {
							errs <- err
							return
						}
					}
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("concurrent batches did not finish: deadlock?")
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got, bad := collect(t, stores[0])
	if len(bad) > 0 {
		t.Errorf("All reported %v", bad)
	}
	for k, e := range got {
		var i, g, r int
		if _, err := fmt.Sscanf(e.Content, "entry %d writer %d round %d", &i, &g, &r); err != nil || key(i) != k || e.Content != content(i, g, r) {
			t.Errorf("%s holds %.60q", k, e.Content)
		}
	}
	if temps, others := listTemps(root); len(temps)+len(others) > 0 {
		t.Errorf("files left behind: %v %v", temps, others)
	}
}

// TestLockEntriesOrder: lockEntries takes the cross-process slots in slot
// order, whatever the keys' order, so a batch waiting for a slot holds no
// slot above it, and batches that share slots in crossed key order cannot
// each hold one and wait for the other. With keys k1 < k2 whose slots are
// in the other order, and k2's slot held elsewhere, a lockEntries of both
// must wait for k2's slot first, leaving k1's free.
func TestLockEntriesOrder(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("slot locks are Linux's; elsewhere the lock is the whole file")
	}
	var k1, k2 store.Key
	for i := 0; ; i++ {
		k1 = store.Key{Category: "a", Name: fmt.Sprintf("n%d", i)}
		k2 = store.Key{Category: "b", Name: fmt.Sprintf("n%d", i)}
		if lockSlot(k1) > lockSlot(k2) {
			break
		}
	}
	root := t.TempDir()
	open := func() *Store {
		s, err := Open(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	holder, batch, probe := open(), open(), open() // apart, as three processes
	release, err := holder.lockEntry(ctx, k2)
	if err != nil {
		t.Fatal(err)
	}
	// The positive signal: the batch found k2's slot held and waits for it.
	waiting := make(chan struct{})
	var once sync.Once
	testHookLockWait = func(off int64) {
		if off == lockSlot(k2) {
			once.Do(func() { close(waiting) })
		}
	}
	t.Cleanup(func() { testHookLockWait = nil })
	locked := make(chan func())
	go func() {
		unlock, err := batch.lockEntries(ctx, []store.Key{k1, k2})
		if err != nil {
			t.Error(err)
			unlock = func() {}
		}
		locked <- unlock
	}()
	select {
	case <-waiting:
	case <-time.After(10 * time.Second):
		t.Fatal("the batch never waited for k2's slot")
	}
	pctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	unlockProbe, err := probe.lockEntry(pctx, k1)
	if err != nil {
		t.Fatalf("k1's slot is held while the batch waits for k2's: %v", err)
	}
	unlockProbe()
	release()
	select {
	case unlock := <-locked:
		unlock()
	case <-time.After(10 * time.Second):
		t.Fatal("the batch never got its locks")
	}
}

// TestPutBatchRefusesCaseTwins: on a case-insensitive file system two
// identities of one batch that differ only by case (in the name, or in a
// category level) would be one file, or one folder, there: the second
// rename would replace the first entry, acknowledged, or file a note
// under the other's spelling. Put refuses the second of two such writes
// (checkCase); PutBatch refuses the batch before writing anything.
func TestPutBatchRefusesCaseTwins(t *testing.T) {
	for _, twins := range [][2]store.Key{
		{{Category: "Trips", Name: "Kyoto"}, {Category: "Trips", Name: "kyoto"}},
		{{Category: "Trips", Name: "Kyoto"}, {Category: "trips", Name: "Osaka"}},
		{{Category: "a/Deep", Name: "x"}, {Category: "a/deep/er", Name: "y"}},
	} {
		s, err := Open(t.TempDir(), &Options{Case: CaseInsensitive})
		if err != nil {
			t.Fatal(err)
		}
		err = s.PutBatch(ctx, []store.Entry{
			{Category: "other", Name: "fine", Content: "unrelated"},
			{Category: twins[0].Category, Name: twins[0].Name, Content: "first"},
			{Category: twins[1].Category, Name: twins[1].Name, Content: "second"},
		})
		var fe *store.FieldError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), "case") {
			t.Errorf("%v: PutBatch = %v, want a FieldError about case", twins, err)
		}
		for e, err := range s.All(ctx) {
			t.Errorf("%v: found %s (%v) after a refused batch", twins, e.Key(), err)
		}
		s.Close()
	}
}
