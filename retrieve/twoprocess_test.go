package retrieve_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/fs"
)

// visibleWithin is how soon a write by another process to a watched
// folder must be retrievable (SPEC §4: about a second).
const visibleWithin = time.Second

const writerEnv = "RECALL_TEST_FOLDER_WRITER"

// TestTwoProcessWatchedFolder: this process serves a watched folder store
// through an Engine, the way `recall serve` does; a second process (this
// test binary, re-executed) writes to the same folder through its own
// Store and edits, adds and removes files by hand, with pauses and in
// bursts. Every write must be retrievable here (and every removal gone)
// within visibleWithin of the moment the writer saw it land.
func TestTwoProcessWatchedFolder(t *testing.T) {
	if dir := os.Getenv(writerEnv); dir != "" {
		folderWriter(t, dir)
		return
	}
	if testing.Short() {
		t.Skip("runs a second process for a few seconds")
	}
	dir := t.TempDir()
	for i := range 500 {
		writeEntryFile(t, dir, fmt.Sprintf("c%d", i%10), fmt.Sprintf("n%d", i), fmt.Sprintf("filler %d", i))
	}
	st := openFolder(t, dir, true)
	e := retrieve.New(st, retrieve.Options{})
	defer e.Close()
	warm(t, e)

	cmd := exec.Command(os.Args[0], "-test.run=^TestTwoProcessWatchedFolder$")
	cmd.Env = append(os.Environ(), writerEnv+"="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	ack, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	var delays []time.Duration
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		// "<op> <unix nanos> <category> <name> <term>"
		f := strings.Fields(sc.Text())
		if len(f) == 1 && f[0] == "round" {
			fmt.Fprintln(ack, "ok")
			continue
		}
		if len(f) != 5 || (f[0] != "wrote" && f[0] != "removed") {
			continue
		}
		ns, _ := strconv.ParseInt(f[1], 10, 64)
		landed := time.Unix(0, ns)
		want := f[0] == "wrote"
		for finds(t, e, f[4], f[2], f[3]) != want {
			if time.Since(landed) > 10*time.Second {
				cs, _ := st.Changes(context.Background(), 0)
				snap, _ := e.Snapshot(context.Background())
				g, gerr := st.Get(context.Background(), f[2], f[3])
				t.Logf("feed since 0: %+v\nsnapshot rev %d has it: %v\nstore: %+v %v", cs, snap.Revision(), snap.Lookup(f[2], f[3]) != nil, g, gerr)
				t.Fatalf("%s %s:%s (%s) not reflected after 10 s", f[0], f[2], f[3], f[4])
			}
			time.Sleep(2 * time.Millisecond)
		}
		d := time.Since(landed)
		delays = append(delays, d)
		if d > visibleWithin {
			t.Errorf("%s %s:%s reflected after %v, more than %v", f[0], f[2], f[3], d.Round(time.Millisecond), visibleWithin)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("writer process: %v", err)
	}
	if len(delays) < 40 {
		t.Fatalf("only %d writes checked", len(delays))
	}
	slices.Sort(delays)
	t.Logf("%d writes by another process: visible after p50 %v, max %v", len(delays),
		delays[len(delays)/2].Round(time.Millisecond), delays[len(delays)-1].Round(time.Millisecond))
}

// folderWriter is the second process: it writes through its own Store
// (no watch) and by hand, and reports each write once it has landed. It
// works in rounds, one write or a burst of five, and waits for the server
// side to acknowledge each round, so that no write is undone before it is
// checked.
func folderWriter(t *testing.T, dir string) {
	ctx := context.Background()
	st, err := fs.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := rand.New(rand.NewPCG(1, 2))
	acks := bufio.NewScanner(os.Stdin)
	say := func(op, category, name, term string) {
		fmt.Printf("%s %d %s %s %s\n", op, time.Now().UnixNano(), category, name, term)
	}
	var created []store.Key // by earlier rounds, not removed yet
	i := 0
	for round := range 30 {
		n := 1
		if round%5 == 4 {
			n = 5 // a burst, as a git pull or a script makes
		}
		var fresh []store.Key
		for range n {
			i++
			term := fmt.Sprintf("proc%dterm", i)
			cat := fmt.Sprintf("c%d", i%10)
			switch i % 4 {
			case 0: // a new entry through the Store
				k := store.Key{Category: cat, Name: fmt.Sprintf("new%d", i)}
				if err := st.Put(ctx, store.Entry{Category: k.Category, Name: k.Name, Content: term + " from another process"}); err != nil {
					t.Fatal(err)
				}
				fresh = append(fresh, k)
				say("wrote", k.Category, k.Name, term)
			case 1: // an edit of an existing entry through the Store
				name := fmt.Sprintf("n%d", i)
				err := st.Update(ctx, cat, name, func(old store.Entry, _ bool) (store.Entry, error) {
					old.Content += " " + term
					return old, nil
				})
				if err != nil {
					t.Fatal(err)
				}
				say("wrote", cat, name, term)
			case 2: // an editor saving a file
				name := fmt.Sprintf("n%d", i)
				writeEntryFile(t, dir, cat, name, "rewritten in an editor "+term)
				say("wrote", cat, name, term)
			case 3: // removing an entry an earlier round added
				if len(created) == 0 {
					continue
				}
				k := created[0]
				created = created[1:]
				if err := os.Remove(filepath.Join(dir, k.Category, k.Name+".md")); err != nil {
					t.Fatal(err)
				}
				say("removed", k.Category, k.Name, "proc"+strings.TrimPrefix(k.Name, "new")+"term")
			}
		}
		created = append(created, fresh...)
		fmt.Println("round")
		if !acks.Scan() {
			t.Fatal("no acknowledgement")
		}
		time.Sleep(time.Duration(20+r.IntN(150)) * time.Millisecond)
	}
}
