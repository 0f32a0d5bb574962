package fs

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// The crash test runs a writer in a child process (this test binary,
// re-executed with TestKillChild selected), SIGKILLs it at a random moment,
// and checks what the folder holds. Every entry must be a complete version
// (never a mix of two, never truncated), at least as new as the last version
// the child reported written, and never missing once it existed.
const (
	crashRootEnv  = "RECALL_FS_CRASH_ROOT"  // folder the child writes to
	crashStartEnv = "RECALL_FS_CRASH_START" // first version the child writes
	crashEntries  = 20
)

// crashKey spreads the entries over two categories.
func crashKey(i int) store.Key {
	return store.Key{Category: fmt.Sprintf("cat%d", i%2), Name: fmt.Sprintf("e%02d", i)}
}

// crashLetters is the pool crashContent cuts its payloads from.
var crashLetters = sync.OnceValue(func() string {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 512<<10)
	for i := range b {
		b[i] = 'a' + byte(r.IntN(26))
	}
	return string(b)
})

// crashContent is version v of entry i: a header that names both and the
// total length, then letters from an offset drawn from a generator seeded
// with (i, v), so two versions never share a body. 50-200 KB, so a write
// spans many pages and takes a while.
func crashContent(i int, v uint64) string {
	r := rand.New(rand.NewPCG(uint64(i), v))
	n := 50<<10 + r.IntN(150<<10)
	header := fmt.Sprintf("entry %d version %d length %d\n", i, v, n)
	off := r.IntN(len(crashLetters()) - n)
	return header + crashLetters()[off:off+n-len(header)]
}

// checkCrashContent returns the version c holds, or an error if c is not
// exactly some version of entry i.
func checkCrashContent(i int, c string) (uint64, error) {
	var gi, n int
	var v uint64
	if _, err := fmt.Sscanf(c, "entry %d version %d length %d\n", &gi, &v, &n); err != nil {
		return 0, fmt.Errorf("header of %.40q: %v", c, err)
	}
	if gi != i {
		return 0, fmt.Errorf("holds entry %d", gi)
	}
	if len(c) != n {
		return 0, fmt.Errorf("version %d is %d bytes, its header says %d (truncated)", v, len(c), n)
	}
	if c != crashContent(i, v) {
		return 0, fmt.Errorf("version %d: body differs from what was written (torn)", v)
	}
	return v, nil
}

// TestKillChild is the writer half of TestCrashKill; it runs only in the
// child process.
func TestKillChild(t *testing.T) {
	root := os.Getenv(crashRootEnv)
	if root == "" {
		t.Skip("runs only as the child process of TestCrashKill")
	}
	start, err := strconv.ParseUint(os.Getenv(crashStartEnv), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Never outlive the parent, even if it dies without killing us.
	ppid := os.Getppid()
	// A fixed creation time spares Put reading the old file, so the child
	// spends most of its time inside the write and kills land there.
	created := time.Now().UTC()
	deadline := time.Now().Add(30 * time.Second)
	out := bufio.NewWriter(os.Stdout)
	for v := start; os.Getppid() == ppid && time.Now().Before(deadline); v++ {
		i := int(v % crashEntries)
		k := crashKey(i)
		if err := s.Put(ctx, store.Entry{Category: k.Category, Name: k.Name, Content: crashContent(i, v), Meta: store.Meta{Created: created}}); err != nil {
			t.Fatal(err)
		}
		// Reported only once Put has returned: this version is durable.
		fmt.Fprintf(out, "ok %d %d\n", i, v)
		out.Flush()
	}
}

// ackWriter collects the child's "ok <entry> <version>" lines.
type ackWriter struct {
	mu      sync.Mutex
	partial []byte
	acked   map[int]uint64
	first   chan struct{} // closed at the first "ok"
	once    sync.Once
}

func (w *ackWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.partial = append(w.partial, p...)
	for {
		j := bytes.IndexByte(w.partial, '\n')
		if j < 0 {
			break
		}
		var i int
		var v uint64
		if _, err := fmt.Sscanf(string(w.partial[:j]), "ok %d %d", &i, &v); err == nil {
			w.acked[i] = max(w.acked[i], v)
			w.once.Do(func() { close(w.first) })
		}
		w.partial = w.partial[j+1:]
	}
	return len(p), nil
}

func TestCrashKill(t *testing.T) { crashKill(t, "TestKillChild", nil, checkAfterCrash) }

// crashCheck checks the folder after round's kill, given the highest
// version the child reported written per entry, and reports whether a temp
// file was left behind.
type crashCheck func(t *testing.T, root string, round int, acked map[int]uint64) bool

// crashKill runs the kill rounds against the writer test named child,
// started with env added to its environment.
func crashKill(t *testing.T, child string, env []string, check crashCheck) {
	switch runtime.GOOS {
	case "windows", "plan9", "js", "wasip1":
		t.Skip("needs SIGKILL and a re-executable test binary")
	}
	if testing.Short() {
		t.Skip("kills child processes for several seconds")
	}
	root := t.TempDir()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))

	acked := map[int]uint64{} // highest version reported written, per entry
	leftovers := 0            // rounds that left a temp file behind
	const rounds = 25
	stop := time.Now().Add(15 * time.Second)
	round := 0
	for ; round < rounds && time.Now().Before(stop); round++ {
		w := &ackWriter{acked: map[int]uint64{}, first: make(chan struct{})}
		var stderr bytes.Buffer
		cmd := exec.Command(os.Args[0], "-test.run=^"+child+"$", "-test.count=1")
		cmd.Env = append(os.Environ(),
			crashRootEnv+"="+root,
			crashStartEnv+"="+strconv.FormatUint(uint64(round+1)<<32, 10))
		cmd.Env = append(cmd.Env, env...)
		cmd.Stdout, cmd.Stderr = w, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-w.first:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("round %d: child wrote nothing; stderr:\n%s", round, stderr.String())
		}
		time.Sleep(time.Duration(rng.IntN(150)) * time.Millisecond)
		if round%2 == 1 {
			// Every other round aims at a write: poll until a temp file
			// appears and kill at once, rather than wherever the child
			// happens to be. (Sleeping between polls would oversleep the
			// few milliseconds a write takes.)
			for end := time.Now().Add(5 * time.Second); time.Now().Before(end); {
				if temps, _ := listTemps(root); len(temps) > 0 {
					break
				}
				runtime.Gosched()
			}
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		if ee, ok := err.(*exec.ExitError); !ok || ee.Exited() {
			t.Fatalf("round %d: child ended by itself (%v) before the kill; stderr:\n%s", round, err, stderr.String())
		}
		for i, v := range w.acked {
			acked[i] = max(acked[i], v)
		}
		if check(t, root, round, acked) {
			leftovers++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d rounds, %d left a temp file behind", round, leftovers)
	if round >= 10 && leftovers == 0 {
		// Half the kills aim at a write; that none left a temp file means
		// the kills are not hitting writes and the test has stopped
		// exercising crashes.
		t.Errorf("no round out of %d left a temp file: the kills never hit a write", round)
	}
}

// checkAfterCrash opens the folder the way a restarted process would and
// checks every entry. It reports whether a temp file was left behind.
func checkAfterCrash(t *testing.T, root string, round int, acked map[int]uint64) bool {
	t.Helper()
	s, err := Open(root, nil) // temp files are still young: Open keeps them
	if err != nil {
		t.Fatal(err)
	}
	temps := tempFiles(t, root)
	got := map[store.Key]string{}
	for e, err := range s.All(ctx) {
		if err != nil {
			t.Errorf("round %d: All: %v", round, err)
			continue
		}
		got[e.Key()] = e.Content
	}
	if len(got) > crashEntries {
		t.Errorf("round %d: All yielded %d entries, want at most %d", round, len(got), crashEntries)
	}
	for i := range crashEntries {
		k := crashKey(i)
		c, ok := got[k]
		if !ok {
			// Missing is fine only for an entry never written yet.
			if _, wrote := acked[i]; wrote {
				t.Errorf("round %d: %s missing after it was written", round, k)
			}
			continue
		}
		v, err := checkCrashContent(i, c)
		if err != nil {
			t.Errorf("round %d: %s: %v", round, k, err)
			continue
		}
		if v < acked[i] {
			t.Errorf("round %d: %s holds version %d, older than version %d the child had reported written", round, k, v, acked[i])
		}
		if e, err := s.Get(ctx, k.Category, k.Name); err != nil || e.Content != c {
			t.Errorf("round %d: Get(%s) disagrees with All: %v", round, k, err)
		}
	}
	if len(temps) == 0 {
		return false
	}
	// Aged past the threshold, the leftovers go at the next walk.
	sweepStaleTemps(t, root, round, temps)
	return true
}

// sweepStaleTemps ages the temp files a killed writer left past the
// stale age, walks the store and checks that the walk removed them all.
func sweepStaleTemps(t *testing.T, root string, round int, temps []string) {
	t.Helper()
	old := time.Now().Add(-2 * defaultStaleTempAge)
	for _, p := range temps {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range s.All(context.Background()) {
	}
	if rest := tempFiles(t, root); len(rest) > 0 {
		t.Errorf("round %d: a walk left stale temp files: %v", round, rest)
	}
}

func tempFiles(t *testing.T, root string) []string {
	t.Helper()
	temps, others := listTemps(root)
	if len(others) > 0 {
		t.Errorf("unexpected files: %v", others)
	}
	return temps
}

// listTemps returns the temp files in the category folders, and any other
// dot-files there (which the writer never makes).
func listTemps(root string) (temps, others []string) {
	matches, _ := filepath.Glob(filepath.Join(root, "*", ".*"))
	for _, p := range matches {
		if isTempName(filepath.Base(p)) {
			temps = append(temps, p)
		} else {
			others = append(others, p)
		}
	}
	return temps, others
}
