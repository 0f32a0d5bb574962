//go:build linux

package retrieve

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/store/bolt"
)

// checkedSeen is a bolt store that notes what MapCheckedIndex told the
// engine: whether each copy it lent had been checked before.
type checkedSeen struct {
	*bolt.Store
	seen []bool
}

func (c *checkedSeen) MapCheckedIndex(ctx context.Context, open func([]byte, uint64, bool, func([]byte)) error) error {
	return c.Store.MapCheckedIndex(ctx, func(data []byte, rev uint64, checked bool, release func([]byte)) error {
		c.seen = append(c.seen, checked)
		return open(data, rev, checked, release)
	})
}

// TestCheckedCopyTrusted: the first process to map a bolt store's copy
// checks it whole and records it; the next, the file unchanged, opens it
// checked (index.OpenChecked) and answers exactly as a build; after a
// write it is checked whole again.
func TestCheckedCopyTrusted(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the store file to be quiet for bolt's record")
	}
	ctx := context.Background()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "m.db"), &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g := synth.New(7, 2_000)
	if err := st.PutBatch(ctx, g.Entries(500, 40)); err != nil {
		t.Fatal(err)
	}
	var queries []string
	for i := range 40 {
		queries = append(queries, g.Query(1+i%4))
	}
	answers := func(e *Engine) []*Result {
		var out []*Result
		for _, q := range queries {
			res, err := e.Retrieve(ctx, Request{Query: q, Limit: 20, Budget: Unlimited})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, res)
		}
		return out
	}
	want := answers(New(st, Options{}))
	load := func() ([]*Result, []bool) {
		t.Helper()
		cs := &checkedSeen{Store: st}
		e := New(st, Options{Persist: cs})
		defer e.Close() // waits for a save
		if _, err := e.Load(ctx); err != nil {
			t.Fatal(err)
		}
		return answers(e), cs.seen
	}
	load() // builds and saves the copy
	// bolt records a check only of a file left alone for 2 s (its
	// timestamps are coarse); this waits, it measures nothing.
	time.Sleep(2100 * time.Millisecond)
	for i, wantSeen := range [][]bool{{false}, {true}, {true}} {
		got, seen := load()
		if !reflect.DeepEqual(seen, wantSeen) {
			t.Fatalf("load %d: checked %v, want %v", i, seen, wantSeen)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("load %d: answers differ from a build", i)
		}
	}
	e := New(st, Options{})
	if err := e.Put(ctx, g.Entries(1, 40)[0]); err != nil {
		t.Fatal(err)
	}
	e.Close()
	if _, seen := load(); len(seen) != 1 || seen[0] {
		t.Fatalf("after a write: checked %v, want [false]", seen)
	}
}
