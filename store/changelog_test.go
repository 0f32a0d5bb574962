package store_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/recallhq/recall/store"
)

func key(n int) store.Key { return store.Key{Category: "c", Name: fmt.Sprint(n)} }

func names(keys []store.Key) []string {
	var out []string
	for _, k := range keys {
		out = append(out, k.Name)
	}
	slices.Sort(out)
	return out
}

// The ring keeps the last size keys; a since that needs an overwritten one
// is Reset, one that does not is answered exactly.
func TestChangeLogRing(t *testing.T) {
	l := store.NewChangeLog(10, 4)
	if cs := l.Changes(9); !cs.Reset {
		t.Errorf("since before the start: %+v, want Reset", cs)
	}
	if cs := l.Changes(10); cs.Reset || len(cs.Keys) != 0 || cs.Rev != 10 {
		t.Errorf("since = start: %+v", cs)
	}
	for i := 1; i <= 3; i++ {
		if r := l.Add(key(i)); r != uint64(10+i) {
			t.Fatalf("Add returned %d", r)
		}
	}
	l.Add(key(1)) // rev 14, ring full: 1 2 3 1
	if cs := l.Changes(10); cs.Reset || !slices.Equal(names(cs.Keys), []string{"1", "2", "3"}) || cs.Rev != 14 {
		t.Errorf("Changes(10) = %+v", cs)
	}
	l.Add(key(5)) // rev 15 overwrites (11, 1)
	if cs := l.Changes(10); !cs.Reset {
		t.Errorf("Changes(10) after the ring wrapped: %+v, want Reset", cs)
	}
	if cs := l.Changes(11); cs.Reset || !slices.Equal(names(cs.Keys), []string{"1", "2", "3", "5"}) {
		t.Errorf("Changes(11) = %+v", cs)
	}
	if cs := l.Changes(13); !slices.Equal(names(cs.Keys), []string{"1", "5"}) {
		t.Errorf("Changes(13) = %+v", cs)
	}
	if cs := l.Changes(16); !cs.Reset {
		t.Errorf("future since: %+v, want Reset", cs)
	}
	// Several keys at one revision (a batch, a burst the watch saw).
	l.Record(20, key(6), key(7))
	if cs := l.Changes(15); cs.Rev != 20 || !slices.Equal(names(cs.Keys), []string{"6", "7"}) {
		t.Errorf("Changes(15) after Record(20) = %+v", cs)
	}
	// Lost track: every reader behind the new revision rebuilds.
	r := l.LostTrack()
	if cs := l.Changes(20); !cs.Reset {
		t.Errorf("Changes(20) after LostTrack = %+v", cs)
	}
	if cs := l.Changes(r); cs.Reset || len(cs.Keys) != 0 {
		t.Errorf("Changes(%d) after LostTrack = %+v", r, cs)
	}
	l.Add(key(8))
	if cs := l.Changes(r); cs.Reset || !slices.Equal(names(cs.Keys), []string{"8"}) {
		t.Errorf("Changes(%d) after LostTrack and a write = %+v", r, cs)
	}
}

func TestChangeLogSubscribe(t *testing.T) {
	l := store.NewChangeLog(0, 0)
	ch, cancel := l.Subscribe()
	for range 10 {
		l.Add(key(1))
	}
	<-ch
	select {
	case <-ch:
		t.Error("ten writes left more than one value pending")
	default:
	}
	l.Close()
	<-ch // Close wakes followers
	cancel()
	l.Add(key(2))
	select {
	case <-ch:
		t.Error("value after cancel")
	default:
	}
}
