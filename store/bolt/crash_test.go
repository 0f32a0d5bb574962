package bolt

import (
	"encoding/binary"
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

// The crash test writes crashEntries entries round-robin; entry version v
// goes to name e<v mod crashEntries>.
const crashEntries = 20

// crashContent is the self-checking content of version v: a header with the
// version and payload length, then a payload derived from v. Sizes vary
// from 1 KiB to about 100 KiB, so values span many overflow pages and a torn
// write would show.
func crashContent(v uint64) string {
	n := 1024 + int(v*7919%(96<<10))
	header := fmt.Sprintf("v=%d n=%d\n", v, n)
	var b strings.Builder
	b.Grow(len(header) + n)
	b.WriteString(header)
	x := v*0x9E3779B97F4A7C15 + 1
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
		b.WriteByte('a' + byte(x>>58)%26)
	}
	return b.String()
}

// checkCrashContent returns the version of c if c is exactly what
// crashContent wrote for it.
func checkCrashContent(c string) (uint64, error) {
	header, _, ok := strings.Cut(c, "\n")
	if !ok {
		return 0, fmt.Errorf("no header in %.40q", c)
	}
	var v uint64
	var n int
	if _, err := fmt.Sscanf(header, "v=%d n=%d", &v, &n); err != nil {
		return 0, fmt.Errorf("bad header %q: %v", header, err)
	}
	if len(c) != len(header)+1+n {
		return v, fmt.Errorf("version %d: %d bytes, header says %d", v, len(c)-len(header)-1, n)
	}
	if c != crashContent(v) {
		return v, fmt.Errorf("version %d: payload differs from what was written", v)
	}
	return v, nil
}

// churn is the child side: it overwrites the crash entries forever, one
// version per Put. It starts at revision+1, so as long as every Put bumps
// the revision by one in its own transaction, the revision always equals the
// newest version in the file.
func churn(s *Store) error {
	r, err := s.Revision(ctx)
	if err != nil {
		return err
	}
	for v := r + 1; ; v++ {
		e := store.Entry{Category: "crash", Name: fmt.Sprintf("e%02d", v%crashEntries), Content: crashContent(v)}
		if err := s.Put(ctx, e); err != nil {
			return err
		}
	}
}

// TestCrash kills a writing process at random moments (SIGKILL, no chance
// to clean up) and checks after each kill that the file opens, passes
// bbolt's consistency check, holds only complete versions, and that the
// revision matches the newest version and never goes down.
func TestCrash(t *testing.T) {
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
	const rounds = 25
	budget := time.Now().Add(15 * time.Second)
	var prev uint64
	for round := range rounds {
		if time.Now().After(budget) {
			t.Logf("time budget spent after %d rounds", round)
			break
		}
		c := startChild(t, "churn", path)
		c.waitReady(t)
		time.Sleep(time.Duration(rng.IntN(120)) * time.Millisecond)
		c.kill()

		r := verifyCrashFile(t, path)
		if r < prev {
			t.Fatalf("round %d: revision went down from %d to %d", round, prev, r)
		}
		prev = r
	}
	t.Logf("%d writes survived the kills", prev)
	if prev == 0 {
		t.Fatal("the helper never completed a write, so nothing was tested")
	}
}

// verifyCrashFile opens the file left by a killed writer, checks it and
// returns its revision.
func verifyCrashFile(t *testing.T, path string) uint64 {
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
	var newest uint64
	for e, err := range s.All(ctx) {
		if err != nil {
			t.Fatalf("All: %v", err)
		}
		v, err := checkCrashContent(e.Content)
		if err != nil {
			t.Fatalf("entry %s: %v", e.Key(), err)
		}
		if want := fmt.Sprintf("e%02d", v%crashEntries); e.Name != want {
			t.Fatalf("version %d stored under %s, want %s", v, e.Name, want)
		}
		newest = max(newest, v)
	}
	if newest != r {
		t.Fatalf("revision %d, newest version in the file %d: a write and its revision bump were separated", r, newest)
	}
	verifyCrashHistory(t, s, r)
	return r
}

// verifyCrashHistory checks the change history a killed writer left: each
// record passes its checksum and names exactly the entry churn wrote at
// its revision, the records are contiguous, and the last ends at the
// file's revision r: the history and the entries committed together.
func verifyCrashHistory(t *testing.T, s *Store, r uint64) {
	t.Helper()
	var last uint64
	err := s.db.View(func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketChanges).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			before, keys, err := decodeRecord(k, v)
			if err != nil {
				t.Fatalf("history record %x: %v", k, err)
			}
			after := binary.BigEndian.Uint64(k)
			// churn writes version v to e<v mod crashEntries>, so the
			// record names exactly those of its revisions (a batch's
			// record, several).
			want := map[store.Key]bool{}
			for v := before + 1; v <= after; v++ {
				want[store.Key{Category: "crash", Name: fmt.Sprintf("e%02d", v%crashEntries)}] = true
			}
			got := map[store.Key]bool{}
			for _, key := range keys {
				got[key] = true
			}
			if !maps.Equal(got, want) {
				t.Fatalf("history record (%d, %d] names %v, want %v", before, after, keys, want)
			}
			if last != 0 && before != last {
				t.Fatalf("history has a gap: a record ends at %d, the next starts at %d", last, before)
			}
			last = after
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if last != r {
		t.Fatalf("history ends at revision %d, the file is at %d", last, r)
	}
	if cs, err := s.Changes(ctx, r-1); err != nil || cs.Reset || len(cs.Keys) == 0 || cs.Rev != r {
		t.Fatalf("Changes(%d) after the kill = %+v, %v; want the one entry written last", r-1, cs, err)
	}
}

func TestCrashContent(t *testing.T) {
	for _, v := range []uint64{1, 2, 1000} {
		c := crashContent(v)
		if got, err := checkCrashContent(c); err != nil || got != v {
			t.Fatalf("check(content(%d)) = %d, %v", v, got, err)
		}
		mid := len(c) / 2
		for _, bad := range []string{c[:len(c)-1], c[:mid] + string(c[mid]^1) + c[mid+1:], c + "x"} {
			if _, err := checkCrashContent(bad); err == nil {
				t.Fatalf("a damaged version %d passed the check", v)
			}
		}
	}
}
