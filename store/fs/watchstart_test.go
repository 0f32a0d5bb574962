package fs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
)

// Watch returns once every folder is watched and takes the files' picture
// on its own goroutine (a server's start-up does not wait for a stat of
// every note). Changes made right after it returns, while that picture is
// being taken, must all reach the feed: an edit in place, a new folder
// with a note already in it, and a folder moved out of the store with its
// notes (which no event names: the readers must rebuild). With -short,
// one round of four.
func TestWatchChangesDuringBaseline(t *testing.T) {
	ctx := context.Background()
	rounds := 4
	if testing.Short() {
		rounds = 1
	}
	for round := range rounds {
		t.Run(fmt.Sprint(round), func(t *testing.T) {
			root := t.TempDir()
			for c := range 8 {
				for n := range 150 {
					writeFile(t, filepath.Join(root, fmt.Sprintf("c%d", c), fmt.Sprintf("n%03d.md", n)), "note")
				}
			}
			s, err := Open(root, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			rev0, _ := s.Revision(ctx)
			if err := s.Watch(ctx, nil); err != nil {
				t.Fatal(err)
			}
			// Right away, while the watch may still be taking its picture.
			edited := filepath.Join(root, "c7", "n149.md")
			if err := os.WriteFile(edited, []byte("changed"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(root, "new"), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(root, "new", "x.md"), "fresh")
			moved := round%2 == 1
			if moved {
				if err := os.Rename(filepath.Join(root, "c6"), filepath.Join(t.TempDir(), "c6")); err != nil {
					t.Fatal(err)
				}
			}
			want := []store.Key{{Category: "c7", Name: "n149"}, {Category: "new", Name: "x"}}
			deadline := time.Now().Add(10 * time.Second)
			for {
				cs, err := s.Changes(ctx, rev0)
				if err != nil {
					t.Fatal(err)
				}
				if cs.Reset {
					return // readers rebuild: nothing can be missed
				}
				got := 0
				for _, k := range want {
					if slices.Contains(cs.Keys, k) {
						got++
					}
				}
				gone := !moved
				if moved {
					gone = slices.Contains(cs.Keys, store.Key{Category: "c6", Name: "n000"}) &&
						slices.Contains(cs.Keys, store.Key{Category: "c6", Name: "n149"})
				}
				if got == len(want) && gone {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("after 10 s the feed has %d keys, missing some of %v (moved folder reported: %v)", len(cs.Keys), want, gone)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}
