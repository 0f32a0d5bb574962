package backup

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// A JSONL backup of a live PostgreSQL store is one instant: while writers
// commit pairs of entries (one PutBatch each, the two entries at opposite
// ends of the key order, so a walk in several instants reads the first
// before a pair lands and the second after), every backup holds both
// entries of a pair or neither.
func TestPostgresBackupIsOneInstant(t *testing.T) {
	st := postgresStore(t)
	b := st.(store.Batcher)
	var fill []store.Entry
	for i := range 1500 { // several chunks of the walk between the ends
		fill = append(fill, store.Entry{Category: "m", Name: fmt.Sprintf("filler %04d", i), Content: "filler"})
	}
	if err := b.PutBatch(ctx, fill); err != nil {
		t.Fatal(err)
	}
	var (
		stop  atomic.Bool
		pairs atomic.Int64
		wg    sync.WaitGroup
	)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				name := fmt.Sprintf("pair %d-%05d", w, i)
				err := b.PutBatch(ctx, []store.Entry{
					{Category: "a", Name: name, Content: "first of " + name},
					{Category: "z", Name: name, Content: "second of " + name},
				})
				if err != nil {
					t.Error(err)
					return
				}
				pairs.Add(1)
			}
		}()
	}
	dir := t.TempDir()
	during := int64(0)
	for n := range 5 {
		dest := filepath.Join(dir, fmt.Sprintf("b%d.jsonl", n))
		before := pairs.Load()
		rep, err := Backup(ctx, st, dest, Options{Progress: func(done int) {
			if done%200 == 0 {
				time.Sleep(2 * time.Millisecond) // let writers commit mid-walk
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		during += pairs.Load() - before
		first, second := map[string]bool{}, map[string]bool{}
		f, err := os.Open(dest)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		lines := 0
		for sc.Scan() {
			var rec struct{ Category, Name string }
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				t.Fatal(err)
			}
			lines++
			switch rec.Category {
			case "a":
				first[rec.Name] = true
			case "z":
				second[rec.Name] = true
			}
		}
		f.Close()
		if lines != rep.Entries {
			t.Fatalf("backup %d: %d lines, report says %d", n, lines, rep.Entries)
		}
		for name := range first {
			if !second[name] {
				t.Errorf("backup %d holds the first entry of %s but not the second", n, name)
			}
		}
		for name := range second {
			if !first[name] {
				t.Errorf("backup %d holds the second entry of %s but not the first", n, name)
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	if during == 0 {
		t.Fatal("no pair was committed while a backup ran: the test proved nothing")
	}
	t.Logf("%d pairs committed during the backups", during)
}
