//go:build linux

package bolt

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/recallhq/recall/store"
)

// mapChecked opens path, maps its copy through MapCheckedIndex with open
// answering err, closes it and returns what checked was.
func mapChecked(t *testing.T, path string, err error) bool {
	t.Helper()
	st, oerr := Open(path, nil)
	if oerr != nil {
		t.Fatal(oerr)
	}
	defer st.Close()
	called, checked := false, false
	merr := st.MapCheckedIndex(context.Background(), func(data []byte, _ uint64, c bool, _ func([]byte)) error {
		called, checked = true, c
		return err
	})
	if !called || !errors.Is(merr, err) {
		t.Fatalf("MapCheckedIndex: called %v, err %v, want %v", called, merr, err)
	}
	t.Cleanup(func() { forgetMappings(st) })
	return checked
}

// forgetMappings drops this process's mappings of st's file from the
// table, as a new process starts without them.
func forgetMappings(st *Store) {
	mappedMu.Lock()
	defer mappedMu.Unlock()
	for k := range mapped {
		if k.dev == st.ident.dev && k.ino == st.ident.ino {
			delete(mapped, k)
		}
	}
}

// A copy checked whole is trusted at the next map of the same file in
// the same state, and at no other: not after a write through the store,
// not after a byte of the file changed from outside, not after a failed
// check, not when the record is gone or damaged; MapIndex never records.
func TestCheckedIndexRecord(t *testing.T) {
	quiet(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	copyBytes := bytes.Repeat([]byte("a copy "), 50_000)
	save := func() {
		st, err := Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Put(ctx, store.Entry{Category: "a", Name: "x", Content: "one"}); err != nil {
			t.Fatal(err)
		}
		rev, _ := st.Revision(ctx)
		if err := st.SaveIndex(ctx, rev, copyBytes); err != nil {
			t.Fatal(err)
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	}
	save()
	rec := path + indexVerifiedSuffix

	// MapIndex: never a record.
	st, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.MapIndex(ctx, func([]byte, uint64, func([]byte)) error { return nil }); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := os.Stat(rec); !os.IsNotExist(err) {
		t.Fatalf("MapIndex wrote a record: %v", err)
	}

	refused := errors.New("refused")
	if mapChecked(t, path, refused) {
		t.Fatal("checked before any check")
	}
	if mapChecked(t, path, nil) {
		t.Fatal("checked after a failed check")
	}
	for range 2 {
		if !mapChecked(t, path, nil) {
			t.Fatal("not checked after a check that passed, the file unchanged")
		}
	}

	// A write through the store (and a new copy).
	save()
	if mapChecked(t, path, nil) {
		t.Fatal("checked after a write")
	}
	if !mapChecked(t, path, nil) {
		t.Fatal("not checked after the check that followed the write")
	}

	// One byte of the copy changed from outside, size and all else kept.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(b, copyBytes[:4096])
	if at < 0 {
		t.Fatal("copy not found in the file")
	}
	b[at+100] ^= 1
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err = Open(path, nil) // the structure check passes: only a value changed
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if mapChecked(t, path, refused) {
		t.Fatal("checked after the file changed from outside")
	}

	// The record gone, or damaged: checked whole again.
	if mapChecked(t, path, nil) || !mapChecked(t, path, nil) {
		t.Fatal("record not taken after the damage was fixed")
	}
	r, _ := os.ReadFile(rec)
	r[len(r)/2] ^= 1
	if err := os.WriteFile(rec, r, 0o600); err != nil {
		t.Fatal(err)
	}
	if mapChecked(t, path, nil) {
		t.Fatal("checked under a damaged record")
	}
	if err := os.Remove(rec); err != nil {
		t.Fatal(err)
	}
	if mapChecked(t, path, nil) {
		t.Fatal("checked without a record")
	}
}
