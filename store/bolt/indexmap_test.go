//go:build linux

package bolt

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

// indexKeys returns the copy keys in the file (keyCurrent aside).
func indexKeys(t *testing.T, st *Store) int {
	t.Helper()
	n := 0
	err := st.db.View(func(tx *bbolt.Tx) error {
		if b := tx.Bucket(bucketIndex); b != nil {
			return b.ForEach(func(k, v []byte) error {
				if v == nil {
					n++
				}
				return nil
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A mapped copy stays as it was, in the file, while the process lives:
// through saves of newer copies, writes that grow the file, and a close
// and reopen; the first save of a later process (the table of mappings
// forgotten) drops it.
func TestMapIndexSurvivesSaves(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	st, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = st.Close() }()
	if err := st.MapIndex(ctx, func([]byte, uint64, func([]byte)) error {
		t.Fatal("open called without a copy")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := st.Put(ctx, store.Entry{Category: "a", Name: "x", Content: "one"}); err != nil {
		t.Fatal(err)
	}
	rev, _ := st.Revision(ctx)
	first := bytes.Repeat([]byte("first copy "), 50_000)
	if err := st.SaveIndex(ctx, rev, first); err != nil {
		t.Fatal(err)
	}
	var kept []byte
	err = st.MapIndex(ctx, func(data []byte, r uint64, release func([]byte)) error {
		if r != rev || !bytes.Equal(data, first) {
			t.Fatalf("mapped %d bytes at %d, want the copy at %d", len(data), r, rev)
		}
		release(data)
		kept = data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		mappedMu.Lock()
		defer mappedMu.Unlock()
		for k := range mapped {
			if k.dev == st.ident.dev && k.ino == st.ident.ino {
				delete(mapped, k)
			}
		}
	})
	for i := range 3 {
		for j := range 200 {
			e := store.Entry{Category: "b", Name: string(rune('a'+i)) + string(rune('a'+j%26)) + string(rune('a'+j/26)), Content: string(bytes.Repeat([]byte("grow "), 2000))}
			if err := st.Put(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		rev, _ = st.Revision(ctx)
		if err := st.SaveIndex(ctx, rev, bytes.Repeat([]byte{byte('0' + i)}, 300_000)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(kept, first) {
			t.Fatalf("save %d changed the mapped copy", i)
		}
	}
	if n := indexKeys(t, st); n != 2 {
		t.Fatalf("%d copies in the file, want the mapped one and the current one", n)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	rev, _ = st.Revision(ctx)
	if err := st.SaveIndex(ctx, rev, []byte("after reopening")); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(kept, first) || indexKeys(t, st) != 2 {
		t.Fatal("a save after reopening in the same process dropped or changed the mapped copy")
	}
	// A later process: it has mapped nothing.
	mappedMu.Lock()
	for k := range mapped {
		if k.dev == st.ident.dev && k.ino == st.ident.ino {
			delete(mapped, k)
		}
	}
	mappedMu.Unlock()
	if err := st.SaveIndex(ctx, rev, []byte("later process")); err != nil {
		t.Fatal(err)
	}
	if n := indexKeys(t, st); n != 1 {
		t.Fatalf("%d copies after a later process's save, want 1", n)
	}
	if data, r, err := st.LoadIndex(ctx); err != nil || string(data) != "later process" || r != rev {
		t.Fatalf("LoadIndex: %q at %d, %v", data, r, err)
	}
}

// A copy the reader refuses is not kept mapped: the next save drops it.
func TestMapIndexRefused(t *testing.T) {
	ctx := context.Background()
	st := openTemp(t)
	if err := st.Put(ctx, store.Entry{Category: "a", Name: "x", Content: "one"}); err != nil {
		t.Fatal(err)
	}
	rev, _ := st.Revision(ctx)
	if err := st.SaveIndex(ctx, rev, bytes.Repeat([]byte("refused "), 10_000)); err != nil {
		t.Fatal(err)
	}
	no := errors.New("no")
	if err := st.MapIndex(ctx, func([]byte, uint64, func([]byte)) error { return no }); !errors.Is(err, no) {
		t.Fatalf("MapIndex = %v, want open's error", err)
	}
	if err := st.SaveIndex(ctx, rev, []byte("next")); err != nil {
		t.Fatal(err)
	}
	if n := indexKeys(t, st); n != 1 {
		t.Fatalf("%d copies, want 1: the refused one was kept", n)
	}
}

// A copy too small to have pages of its own is not mapped: the reader
// views it instead.
func TestMapIndexSmallCopy(t *testing.T) {
	ctx := context.Background()
	st := openTemp(t)
	if err := st.Put(ctx, store.Entry{Category: "a", Name: "x", Content: "one"}); err != nil {
		t.Fatal(err)
	}
	rev, _ := st.Revision(ctx)
	if err := st.SaveIndex(ctx, rev, []byte("small")); err != nil {
		t.Fatal(err)
	}
	err := st.MapIndex(ctx, func([]byte, uint64, func([]byte)) error {
		t.Fatal("a small copy was mapped")
		return nil
	})
	if !errors.Is(err, store.ErrNotMapped) {
		t.Fatalf("MapIndex = %v, want ErrNotMapped", err)
	}
}
