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

// Acked for each reader after a sequence of writes, by nobody (nil: every
// reader must see it) or by a publisher (every reader but it).
func TestChangeLogAcked(t *testing.T) {
	p, q, r := new(store.Publisher), new(store.Publisher), new(store.Publisher)
	type want struct{ p, q, r, none uint64 }
	steps := []struct {
		by   *store.Publisher
		want want
	}{
		{nil, want{11, 11, 11, 11}},
		{p, want{11, 12, 12, 12}}, // p need not wait for its own
		{p, want{11, 13, 13, 13}},
		{q, want{14, 13, 14, 14}}, // q waits for p's, p for q's
		{p, want{14, 15, 15, 15}},
		{nil, want{16, 16, 16, 16}},
		{q, want{17, 16, 17, 17}},
		{r, want{18, 18, 17, 18}},
		{r, want{19, 19, 17, 19}},
	}
	for _, by := range []string{"Add", "Record"} {
		l := store.NewChangeLog(10, 0)
		if got := l.Acked(p); got != 10 {
			t.Fatalf("%s: a new log: Acked %d, want 10", by, got)
		}
		for i, s := range steps {
			if by == "Add" {
				l.AddBy(s.by, store.Key{Category: "c", Name: "n"})
			} else {
				l.RecordBy(l.Rev()+1, s.by, store.Key{Category: "c", Name: "n"})
			}
			got := want{l.Acked(p), l.Acked(q), l.Acked(r), l.Acked(nil)}
			if got != s.want {
				t.Fatalf("%s: after write %d (rev %d): Acked p, q, r, nil = %v, want %v", by, i, l.Rev(), got, s.want)
			}
			if l.Acked(nil) != l.Rev() {
				t.Fatalf("%s: Acked(nil) %d != Rev %d", by, l.Acked(nil), l.Rev())
			}
		}
		l.LostTrack() // acknowledged to every reader
		if l.Acked(r) != l.Rev() || l.Acked(p) != l.Rev() {
			t.Fatalf("%s: after LostTrack: Acked %d, %d, want %d", by, l.Acked(r), l.Acked(p), l.Rev())
		}
	}
}
