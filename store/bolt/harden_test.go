package bolt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/storetest"
)

// damageFixture writes a store of some size (entries spread over several
// pages, nested categories, vectors) and returns its path and contents.
func damageFixture(t *testing.T) (string, map[store.Key]string) {
	t.Helper()
	path := tempPath(t)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[store.Key]string{}
	for i := range 300 {
		e := store.Entry{
			Category: fmt.Sprintf("cat%d/sub%d", i%5, i%3),
			Name:     fmt.Sprintf("entry %03d", i),
			Content:  strings.Repeat(fmt.Sprintf("content %d, ", i), 1+i%40),
			Meta:     store.Meta{Tags: []string{"t"}},
		}
		if err := s.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
		want[e.Key()] = e.Content
	}
	keys, vecs := storetest.RandVectors(rand.New(rand.NewPCG(1, 2)), 0, 200, 64)
	if err := s.PutVectors(ctx, "hash:v1:64", keys, vecs); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path, want
}

// exercise runs every read and some writes of the store API on a damaged
// file. It fails the test on a panic (the process would die), on a hang,
// on an error that is not a clear report of damage, and on any entry
// served with content other than what was written.
func exercise(t *testing.T, path string, want map[store.Key]string) (opened bool, damage int) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		// damaged reports whether err is acceptable, counting damage.
		acceptable := func(what string, err error) {
			switch {
			case err == nil:
			case errors.Is(err, store.ErrCorrupt):
				damage++
				if !strings.Contains(err.Error(), "damaged") {
					t.Errorf("%s: %v does not say damaged", what, err)
				}
			case errors.Is(err, store.ErrNotFound), errors.Is(err, ErrNotDatabase):
			default:
				t.Errorf("%s: unexpected error %v", what, err)
			}
		}
		s, err := Open(path, &Options{Timeout: 100 * time.Millisecond})
		acceptable("Open", err)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Errorf("Open error %q does not name the file", err)
			}
			return
		}
		opened = true
		defer s.Close()
		for k, c := range want {
			e, err := s.Get(ctx, k.Category, k.Name)
			acceptable("Get "+k.String(), err)
			if err == nil && e.Content != c {
				t.Errorf("Get %s served damaged content %.40q", k, e.Content)
			}
		}
		for e, err := range s.All(ctx) {
			acceptable("All", err)
			if err == nil {
				if c, ok := want[e.Key()]; !ok || c != e.Content {
					t.Errorf("All served %s with content %.40q, which was never written", e.Key(), e.Content)
				}
			}
		}
		n := 0
		err = s.LoadVectors(ctx, "hash:v1:64", func(string, []float32) error { n++; return nil })
		acceptable("LoadVectors", err)
		_, err = s.Revision(ctx)
		acceptable("Revision", err)
		acceptable("Put", s.Put(ctx, store.Entry{Category: "new", Name: "entry", Content: "x"}))
		acceptable("Update", s.Update(ctx, "cat0/sub0", "entry 000", func(old store.Entry, found bool) (store.Entry, error) {
			old.Content = "updated"
			return old, nil
		}))
		acceptable("Delete", s.Delete(ctx, "cat1/sub1", "entry 001"))
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the store API hung on a damaged file")
	}
	return opened, damage
}

// Random byte flips, 40 seeded runs of 20 flips each (issue 9): never a
// panic, a fault or a hang, never content other than what was written;
// damage is reported as ErrCorrupt naming the file or the entry.
func TestDamagedFileSeeded(t *testing.T) {
	path, want := damageFixture(t)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	runs := 40
	if testing.Short() {
		runs = 10
	}
	opened, reported := 0, 0
	for seed := range uint64(runs) {
		r := rand.New(rand.NewPCG(seed, 99))
		b := append([]byte(nil), orig...)
		for range 20 {
			b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		ok, n := exercise(t, path, want)
		if ok {
			opened++
		}
		if n > 0 {
			reported++
		}
		if t.Failed() {
			t.Fatalf("seed %d failed", seed)
		}
	}
	t.Logf("%d runs: %d opened, %d reported damage", runs, opened, reported)
}

// Flips confined to the pages that hold entries: most runs open and must
// report the damaged entries, not serve them.
func TestDamagedValuesReported(t *testing.T) {
	path, want := damageFixture(t)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Find where some contents sit in the file, and flip bytes there.
	var spots []int
	for k, c := range want {
		if i := strings.Index(string(orig), c); i >= 0 && len(spots) < 60 {
			spots = append(spots, i+len(c)/2)
		}
		_ = k
	}
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 7))
		b := append([]byte(nil), orig...)
		for range 3 {
			b[spots[r.IntN(len(spots))]] ^= 0x20
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		opened, damage := exercise(t, path, want)
		if opened && damage == 0 {
			t.Errorf("seed %d: damaged values went unreported", seed)
		}
		if t.Failed() {
			t.Fatalf("seed %d failed", seed)
		}
	}
}

// Truncated files: `truncate -s 8192 x.db; recall ls` was a SIGSEGV.
func TestTruncatedFile(t *testing.T) {
	path, want := damageFixture(t)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{1, 100, 4096, 4097, 8192, 12288, len(orig) / 2, len(orig) - 4096, len(orig) - 1} {
		if size <= 0 || size >= len(orig) {
			continue
		}
		if err := os.WriteFile(path, orig[:size], 0o600); err != nil {
			t.Fatal(err)
		}
		opened, _ := exercise(t, path, want)
		if opened && size < len(orig)/2 {
			t.Errorf("truncated to %d of %d bytes, the file still opened", size, len(orig))
		}
		if size == 8192 {
			_, err := Open(path, nil)
			if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), "store file "+path+" is damaged") {
				t.Errorf("Open of a file truncated to 8192 bytes = %v, want a damaged-file error naming it", err)
			}
		}
		if t.Failed() {
			t.Fatalf("size %d failed", size)
		}
	}
}

// A damaged value is reported by Get, All and Update, never served, and
// Put over it repairs it.
func TestDamagedValueNotServed(t *testing.T) {
	s := openTemp(t)
	mustPut(t, s, "a/b", "x", "the original content")
	mustPut(t, s, "a/b", "y", "another")
	err := s.db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketEntries)
		k := encodeKey("a/b", "x")
		v := append([]byte(nil), b.Get(k)...)
		v[3] ^= 0x01 // one bit of the content
		return b.Put(k, v)
	})
	if err != nil {
		t.Fatal(err)
	}
	if e, err := s.Get(ctx, "a/b", "x"); !errors.Is(err, store.ErrCorrupt) || !errors.Is(err, store.ErrUnreadable) || !strings.Contains(err.Error(), "a/b:x") || !strings.Contains(err.Error(), s.Path()) {
		t.Errorf("Get of a damaged value = %q, %v; want ErrCorrupt and ErrUnreadable naming the entry and file", e.Content, err)
	}
	n := 0
	for e, err := range s.All(ctx) {
		if err != nil {
			n++
			if !errors.Is(err, store.ErrCorrupt) || !errors.Is(err, store.ErrUnreadable) || !strings.Contains(err.Error(), "a/b:x") {
				t.Errorf("All error %v", err)
			}
		} else if e.Name != "y" {
			t.Errorf("All served %s", e.Key())
		}
	}
	if n != 1 {
		t.Errorf("All reported %d damaged entries, want 1", n)
	}
	if err := s.Update(ctx, "a/b", "x", func(old store.Entry, found bool) (store.Entry, error) {
		return old, nil
	}); !errors.Is(err, store.ErrCorrupt) || !errors.Is(err, store.ErrUnreadable) {
		t.Errorf("Update over a damaged value = %v, want ErrCorrupt and ErrUnreadable", err)
	}
	mustPut(t, s, "a/b", "x", "repaired")
	if e, err := s.Get(ctx, "a/b", "x"); err != nil || e.Content != "repaired" {
		t.Errorf("after repair: %q, %v", e.Content, err)
	}
}

// A file of format version 1 (values without checksums) is migrated on
// Open: entries, metadata and revision kept, values rewritten with a CRC.
func TestMigrateFormat1(t *testing.T) {
	path := tempPath(t)
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	created := time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC)
	old := map[store.Key]store.Meta{
		{Category: "people", Name: "alice"}:     {Created: created, Tags: []string{"friend"}},
		{Category: "旅行", Name: "三亚之行"}:          {Created: created, Updated: created.Add(time.Hour), Extra: map[string]any{"mood": "sunny"}},
		{Category: "legacy", Name: "trailing."}: {},
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		meta, err := tx.CreateBucket(bucketMeta)
		if err != nil {
			return err
		}
		if err := meta.Put(keyFormat, binary.AppendUvarint(nil, 1)); err != nil {
			return err
		}
		if err := meta.SetSequence(41); err != nil {
			return err
		}
		entries, err := tx.CreateBucket(bucketEntries)
		if err != nil {
			return err
		}
		for k, m := range old {
			extra, _ := marshalExtra(m.Extra)
			if err := entries.Put(encodeKey(k.Category, k.Name), appendBody(nil, valueVersionV1, "content of "+k.Name, m, extra)); err != nil {
				return err
			}
		}
		// A value that was already damaged stays reported, not migrated.
		return entries.Put(encodeKey("people", "broken"), []byte{1, 200})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	for round := range 2 { // the second Open finds nothing to migrate
		s, err := Open(path, nil)
		if err != nil {
			t.Fatalf("round %d: Open of a format 1 file: %v", round, err)
		}
		if r := revision(t, s); r != 41 {
			t.Errorf("round %d: revision %d after migration, want 41 kept", round, r)
		}
		for k, m := range old {
			e, err := s.Get(ctx, k.Category, k.Name)
			if err != nil {
				t.Errorf("round %d: Get %s: %v", round, k, err)
				continue
			}
			if e.Content != "content of "+k.Name || !sameMeta(e.Meta, m) {
				t.Errorf("round %d: %s = %q %+v, want %+v", round, k, e.Content, e.Meta, m)
			}
		}
		if _, err := s.Get(ctx, "people", "broken"); !errors.Is(err, store.ErrCorrupt) {
			t.Errorf("round %d: damaged old value = %v, want ErrCorrupt", round, err)
		}
		err = s.db.View(func(tx *bbolt.Tx) error {
			if v, _ := formatVersion(tx.Bucket(bucketMeta)); v != FormatVersion {
				t.Errorf("format version %d after migration", v)
			}
			v := tx.Bucket(bucketEntries).Get(encodeKey("people", "alice"))
			if v[0] != valueVersion {
				t.Errorf("value version %d after migration", v[0])
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// A panic of the function given to Update is the caller's, not damage:
// it propagates, and the store goes on working.
func TestUpdatePanicIsNotDamage(t *testing.T) {
	s := openTemp(t)
	mustPut(t, s, "a", "b", "c")
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want the function's own panic", r)
			}
		}()
		_ = s.Update(ctx, "a", "b", func(store.Entry, bool) (store.Entry, error) { panic("boom") })
	}()
	if e, err := s.Get(ctx, "a", "b"); err != nil || e.Content != "c" {
		t.Errorf("after the panic: %q, %v", e.Content, err)
	}
}

// Damage while the file is open (truncated under a running store) makes
// bbolt touch memory past the file's end; that SIGBUS is turned into an
// error wrapping ErrCorrupt, and the store refuses further use.
func TestDamageWhileOpen(t *testing.T) {
	path, want := damageFixture(t)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := os.Truncate(path, 8192); err != nil {
		t.Fatal(err)
	}
	var first error
	for k := range want {
		if _, err := s.Get(ctx, k.Category, k.Name); err != nil {
			first = err
			break
		}
	}
	if !errors.Is(first, store.ErrCorrupt) || errors.Is(first, store.ErrUnreadable) || !strings.Contains(first.Error(), "store file "+path+" is damaged") {
		t.Fatalf("Get on a file truncated under the store = %v, want ErrCorrupt naming the file", first)
	}
	if _, err := s.Revision(ctx); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("Revision after damage = %v, want ErrCorrupt", err)
	}
}

// FuzzVerify: the structure check reads whatever a damaged file holds; it
// must never panic or loop, whatever the bytes.
func FuzzVerify(f *testing.F) {
	dir := f.TempDir()
	s, err := Open(dir+"/seed.db", nil)
	if err != nil {
		f.Fatal(err)
	}
	for i := range 40 {
		if err := s.Put(ctx, store.Entry{Category: "c/d", Name: fmt.Sprint(i), Content: strings.Repeat("x", i*50)}); err != nil {
			f.Fatal(err)
		}
	}
	_ = s.Close()
	seed, err := os.ReadFile(dir + "/seed.db")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed, uint32(0), byte(0))
	f.Add(seed, uint32(4096*2+20), byte(0xff))
	f.Add(seed[:8192], uint32(0), byte(0))
	f.Fuzz(func(t *testing.T, b []byte, at uint32, xor byte) {
		if len(b) > 0 {
			b = append([]byte(nil), b...)
			b[int(at)%len(b)] ^= xor
		}
		v := verifier{f: bytesReaderAt(b), size: int64(len(b)), seen: map[uint64]bool{}}
		m, ok := v.meta()
		if !ok {
			return
		}
		v.pageSize, v.hwm = int64(m.pageSize), m.pgid
		if int64(m.pgid)*int64(m.pageSize) > v.size || m.pgid < 2 {
			return
		}
		if m.freelist != noFreelist {
			_ = v.freelist(m.freelist)
		}
		_ = v.tree(m.root, 0)
	})
}

type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off >= int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// The structure check reads only the first page of a large value (the
// index copy here) and what it must check beyond it: the file opens and
// serves the value whole, and a damaged length or overflow count in that
// page is still refused.
func TestVerifyLargeValue(t *testing.T) {
	path := tempPath(t)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, store.Entry{Category: "c", Name: "n", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	rev, err := s.Revision(ctx)
	if err != nil {
		t.Fatal(err)
	}
	big := []byte("MARKER" + strings.Repeat("0123456789abcdef", 40_000))
	if err := s.SaveIndex(ctx, rev, big); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := verifyFile(path); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := s.LoadIndex(ctx)
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("LoadIndex: %d bytes, %v; want the %d saved", len(got), err, len(big))
	}
	_ = s.Close()
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(orig, []byte("MARKER"))
	ps := os.Getpagesize()
	page := at / ps * ps
	le := binary.LittleEndian
	if le.Uint16(orig[page+8:]) != flagLeaf || le.Uint32(orig[page+12:]) == 0 {
		t.Fatalf("the value's page at %d is not a leaf with overflow pages", page)
	}
	for name, damage := range map[string]func(b []byte){
		"value length past the page": func(b []byte) { le.PutUint32(b[page+pageHeaderSize+12:], uint32(len(big)+2*ps)) },
		"overflow past the file":     func(b []byte) { le.PutUint32(b[page+12:], uint32(len(b)/ps)) },
	} {
		b := bytes.Clone(orig)
		damage(b)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := verifyFile(path); err == nil {
			t.Errorf("%s: the check passed", name)
		}
	}
}
