package fs

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/storetest"
)

var _ storetest.VectorBackend = (*Store)(nil)

func TestVectorsConformance(t *testing.T) {
	storetest.RunVectors(t,
		func(t *testing.T) storetest.VectorBackend { return openTemp(t) },
		func(t *testing.T, s storetest.VectorBackend) storetest.VectorBackend {
			t.Helper()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			return mustOpen(t, s.(*Store).root)
		})
}

func mustOpen(t *testing.T, root string) *Store {
	t.Helper()
	s, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func vectorPath(s *Store, model string) string {
	return filepath.Join(s.vectorDir(), vectorStem(model)+vectorExt)
}

func fileSize(t *testing.T, path string) int {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return int(fi.Size())
}

func headerLen(model string) int { return headerFixed + len(model) + 4 }

func recordLen(dim int) int { return recordOverhead + 4*dim }

// Loading a model that was never stored leaves the disk alone.
func TestLoadUnknownModelCreatesNothing(t *testing.T) {
	root := t.TempDir()
	s := mustOpen(t, root)
	storetest.MustPutVectors(t, s, "m", []string{storetest.VectorKey(0)}, [][]float32{{1}})
	if got := storetest.LoadAll(t, s, "never-stored"); len(got) != 0 {
		t.Fatalf("unknown model yielded %d vectors", len(got))
	}
	if _, err := os.Stat(filepath.Join(s.vectorDir(), "never-stored.vec")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("loading an unknown model touched the disk: %v", err)
	}
}

func TestVectorsCompactAndRemove(t *testing.T) {
	s := openTemp(t)
	const model, dim = "hash:v1:4", 4
	path := vectorPath(s, model)
	r := rand.New(rand.NewPCG(3, 4))
	keys, vecs := storetest.RandVectors(r, 0, 10, dim)
	storetest.MustPutVectors(t, s, model, keys, vecs)

	// Replace two, one given twice in the same call: the later wins. Dead
	// records (3) do not outweigh live ones (10), so the file is kept as is.
	_, fresh := storetest.RandVectors(r, 0, 3, dim)
	storetest.MustPutVectors(t, s, model, []string{keys[1], keys[2], keys[2]}, fresh)
	vecs[1], vecs[2] = fresh[0], fresh[2]
	storetest.CheckVectorsEqual(t, storetest.LoadAll(t, s, model), keys, vecs)
	if n, want := fileSize(t, path), headerLen(model)+13*recordLen(dim); n != want {
		t.Fatalf("file is %d bytes, want %d (nothing compacted yet)", n, want)
	}

	// Eleven more replacements make the dead records outweigh the live: the
	// load compacts the file down to one record per key.
	for range 11 {
		_, v := storetest.RandVectors(r, 0, 1, dim)
		storetest.MustPutVectors(t, s, model, keys[3:4], v)
		vecs[3] = v[0]
	}
	storetest.CheckVectorsEqual(t, storetest.LoadAll(t, s, model), keys, vecs)
	if n, want := fileSize(t, path), headerLen(model)+10*recordLen(dim); n != want {
		t.Fatalf("after compaction the file is %d bytes, want %d", n, want)
	}

	// Delete two and a key that was never stored: the file is rewritten.
	if err := s.DeleteVectors(ctx, model, []string{keys[0], keys[5], storetest.VectorKey(999)}); err != nil {
		t.Fatal(err)
	}
	keys = append(append([]string{}, keys[1:5]...), keys[6:]...)
	vecs = append(append([][]float32{}, vecs[1:5]...), vecs[6:]...)
	storetest.CheckVectorsEqual(t, storetest.LoadAll(t, s, model), keys, vecs)
	if n, want := fileSize(t, path), headerLen(model)+8*recordLen(dim); n != want {
		t.Fatalf("after delete the file is %d bytes, want %d", n, want)
	}
	// Appending still works after a rewrite.
	k, v := storetest.RandVectors(r, 500, 1, dim)
	storetest.MustPutVectors(t, s, model, k, v)
	storetest.CheckVectorsEqual(t, storetest.LoadAll(t, s, model), append(keys, k...), append(vecs, v...))
	if err := s.DeleteVectors(ctx, model, k); err != nil {
		t.Fatal(err)
	}

	// Deleting from a model that has nothing is fine and creates nothing.
	if err := s.DeleteVectors(ctx, "other", keys); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(vectorPath(s, "other")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("DeleteVectors of an unknown model created its file: %v", err)
	}
	// Deleting the rest removes the file.
	if err := s.DeleteVectors(ctx, model, keys); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the file of an emptied model is still there: %v", err)
	}
	if got := storetest.LoadAll(t, s, model); len(got) != 0 {
		t.Fatalf("%d vectors left after deleting all", len(got))
	}
}

// A refused call does not even create the vector folder.
func TestVectorsInvalidTouchesNothing(t *testing.T) {
	s := openTemp(t)
	good := []float32{1, 2}
	calls := map[string]struct {
		model string
		keys  []string
		vecs  [][]float32
	}{
		"empty model":     {"", []string{storetest.VectorKey(1)}, [][]float32{good}},
		"long model":      {strings.Repeat("m", store.MaxModelBytes+1), []string{storetest.VectorKey(1)}, [][]float32{good}},
		"count mismatch":  {"m", []string{storetest.VectorKey(1), storetest.VectorKey(2)}, [][]float32{good}},
		"short key":       {"m", []string{storetest.VectorKey(1), "abc"}, [][]float32{good, good}},
		"upper-case key":  {"m", []string{strings.ToUpper(storetest.VectorKey(1))}, [][]float32{good}},
		"non-hex key":     {"m", []string{strings.Repeat("g", 64)}, [][]float32{good}},
		"empty vector":    {"m", []string{storetest.VectorKey(1), storetest.VectorKey(2)}, [][]float32{good, {}}},
		"too long vector": {"m", []string{storetest.VectorKey(1)}, [][]float32{make([]float32, maxVectorDim+1)}},
	}
	for name, c := range calls {
		if err := s.PutVectors(ctx, c.model, c.keys, c.vecs); !errors.Is(err, store.ErrInvalid) {
			t.Fatalf("%s: PutVectors = %v, want ErrInvalid", name, err)
		}
		if _, err := os.Stat(s.vectorDir()); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s: a refused call touched the disk: %v", name, err)
		}
	}
}

func TestVectorStem(t *testing.T) {
	tests := []struct{ model, want string }{
		{"hash:v1:256", "hash%3Av1%3A256"},
		{"openai:text-embedding-3-small:1536", "openai%3Atext-embedding-3-small%3A1536"},
		{"Model", "%4Dodel"},
		{"a/b\\c%d", "a%2Fb%5Cc%25d"},
		{"..", ".."},
		{"模", "%E6%A8%A1"},
		{"x y~", "x%20y%7E"},
	}
	for _, tt := range tests {
		if got := vectorStem(tt.model); got != tt.want {
			t.Errorf("vectorStem(%q) = %q, want %q", tt.model, got, tt.want)
		}
	}
	// Distinct models get names that differ even ignoring case, and long
	// ones are cut but stay distinct.
	long := strings.Repeat("ollama:", 40)
	models := []string{"model", "Model", "MODEL", "a%41", "aA", long + "a", long + "b", long}
	seen := map[string]string{}
	for _, m := range models {
		stem := vectorStem(m)
		if len(stem) > maxStemBytes {
			t.Errorf("vectorStem(%.20q…) is %d bytes, over %d", m, len(stem), maxStemBytes)
		}
		folded := strings.ToLower(stem)
		if other, dup := seen[folded]; dup {
			t.Errorf("models %q and %q share the file %q", m, other, stem)
		}
		seen[folded] = m
	}
	if stem := vectorStem(long); !strings.Contains(stem, "~") {
		t.Errorf("a cut stem %q lacks its hash suffix", stem)
	}
}

// vectorFileOf builds the layout the damage tests expect: five records of
// dim 8, written by three PutVectors calls so they are appended.
func vectorFileOf(t *testing.T, s *Store, model string) ([]string, [][]float32) {
	t.Helper()
	keys, vecs := storetest.RandVectors(rand.New(rand.NewPCG(5, 6)), 0, 5, 8)
	storetest.MustPutVectors(t, s, model, keys[:2], vecs[:2])
	storetest.MustPutVectors(t, s, model, keys[2:4], vecs[2:4])
	storetest.MustPutVectors(t, s, model, keys[4:], vecs[4:])
	return keys, vecs
}

func TestVectorFileDamage(t *testing.T) {
	const model, dim = "hash:v1:8", 8
	hdr, rec := headerLen(model), recordLen(dim)
	at := func(i int) int { return hdr + i*rec } // start of record i
	edit := func(f func(b []byte) []byte) func(t *testing.T, path string) {
		return func(t *testing.T, path string) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, f(b), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	flip := func(off int) func(t *testing.T, path string) {
		return edit(func(b []byte) []byte { b[off] ^= 0x20; return b })
	}
	cut := func(n int) func(t *testing.T, path string) {
		return edit(func(b []byte) []byte { return b[:n] })
	}
	// newHeader is a whole file: a header made of the given parts, then
	// the records of the original file.
	newHeader := func(magic string, version byte, model string) func(t *testing.T, path string) {
		return edit(func(b []byte) []byte {
			h := append([]byte(magic), version)
			h = binary.LittleEndian.AppendUint16(h, uint16(len(model)))
			h = append(h, model...)
			h = binary.LittleEndian.AppendUint32(h, crc32.Checksum(h, castagnoli))
			return append(h, b[hdr:]...)
		})
	}
	tests := []struct {
		name   string
		damage func(t *testing.T, path string)
		kept   int  // records 0..kept-1 survive
		aside  bool // the header is rejected and the file moved aside
	}{
		{"flipped value byte", flip(at(3) + 40), 3, false},
		{"flipped key byte", flip(at(3) + 1), 3, false},
		{"flipped checksum byte", flip(at(4) + rec - 1), 4, false},
		{"dim too large", flip(at(2) + rawKeyLen + 3), 2, false},
		{"dim zero", edit(func(b []byte) []byte { clear(b[at(1)+rawKeyLen : at(1)+rawKeyLen+4]); return b }), 1, false},
		{"truncated mid-values", cut(at(4) + rec/2), 4, false},
		{"truncated mid-key", cut(at(4) + 10), 4, false},
		{"truncated before checksum", cut(at(5) - 2), 4, false},
		{"trailing garbage", edit(func(b []byte) []byte { return append(b, 1, 2, 3) }), 5, false},
		{"first record damaged", flip(at(0) + 50), 0, false},
		{"wrong magic", edit(func(b []byte) []byte { b[0] = 'X'; return b }), 0, true},
		{"other version", newHeader(vectorMagic, vectorVersion+1, model), 0, true},
		{"other model", newHeader(vectorMagic, vectorVersion, "hash:v1:9"), 0, true},
		{"flipped header checksum", flip(hdr - 1), 0, true},
		{"flipped model byte", flip(headerFixed + 2), 0, true},
		{"header truncated", cut(hdr - 3), 0, true},
		{"empty file", cut(0), 0, true},
	}
	for _, tt := range tests {
		// The damage is found by a load, or by a Put of a Store that has
		// not seen the file yet (it must not append after the damage).
		for _, first := range []string{"load", "put"} {
			t.Run(tt.name+"/"+first, func(t *testing.T) {
				root := t.TempDir()
				s := mustOpen(t, root)
				keys, vecs := vectorFileOf(t, s, model)
				path := vectorPath(s, model)
				_ = s.Close()
				tt.damage(t, path)
				var before []byte
				if tt.aside {
					before, _ = os.ReadFile(path)
				}

				s = mustOpen(t, root)
				newKeys, newVecs := storetest.RandVectors(rand.New(rand.NewPCG(7, 8)), 100, 2, dim)
				wantKeys := append(keys[:tt.kept:tt.kept], newKeys...)
				wantVecs := append(vecs[:tt.kept:tt.kept], newVecs...)
				if first == "load" {
					// The load counts what it dropped: a set-aside file or a
					// tail without a good record to size it by as 1, a tail
					// as the records of the file's size it could hold.
					wantDropped := 1
					if !tt.aside && tt.kept > 0 {
						wantDropped = (fileSize(t, path) - at(tt.kept) + rec - 1) / rec
					}
					got, dropped := storetest.LoadAllReport(t, s, model)
					storetest.CheckVectorsEqual(t, got, keys[:tt.kept], vecs[:tt.kept])
					if dropped != wantDropped {
						t.Fatalf("LoadVectorsReport dropped %d records, want %d", dropped, wantDropped)
					}
					// Repaired: exactly the good records are left.
					if !tt.aside || tt.kept > 0 {
						if n, want := fileSize(t, path), at(tt.kept); n != want {
							t.Fatalf("file is %d bytes after the load, want %d", n, want)
						}
					} else if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
						t.Fatalf("a file with a rejected header is still in place: %v", err)
					}
				}
				storetest.MustPutVectors(t, s, model, newKeys, newVecs)
				storetest.CheckVectorsEqual(t, storetest.LoadAll(t, s, model), wantKeys, wantVecs)
				if n, want := fileSize(t, path), at(len(wantKeys)); n != want {
					t.Fatalf("file is %d bytes, want %d", n, want)
				}
				if tt.aside {
					if got, err := os.ReadFile(path + ".bad"); err != nil || !bytes.Equal(got, before) {
						t.Fatalf("the rejected file was not set aside unchanged: %v", err)
					}
				}
				// And a third Store, reading from scratch, agrees.
				storetest.CheckVectorsEqual(t, storetest.LoadAll(t, mustOpen(t, root), model), wantKeys, wantVecs)
			})
		}
	}
}

// A Store must not trust what it knows of a file that changed behind its
// back: here garbage lands after its last append.
func TestVectorsFileChangedBehindStore(t *testing.T) {
	root := t.TempDir()
	s := mustOpen(t, root)
	const model = "m"
	keys, vecs := storetest.RandVectors(rand.New(rand.NewPCG(9, 9)), 0, 4, 3)
	storetest.MustPutVectors(t, s, model, keys[:3], vecs[:3])
	f, err := os.OpenFile(vectorPath(s, model), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.Write([]byte("torn"))
	_ = f.Close()
	storetest.MustPutVectors(t, s, model, keys[3:], vecs[3:])
	storetest.CheckVectorsEqual(t, storetest.LoadAll(t, mustOpen(t, root), model), keys, vecs)
}

// Two Stores on one folder stand for two processes: each sees the other's
// appends and rewrites.
func TestVectorsTwoStores(t *testing.T) {
	root := t.TempDir()
	a, b := mustOpen(t, root), mustOpen(t, root)
	const model = "m"
	keys, vecs := storetest.RandVectors(rand.New(rand.NewPCG(10, 10)), 0, 6, 5)
	storetest.MustPutVectors(t, a, model, keys[0:2], vecs[0:2])
	storetest.MustPutVectors(t, b, model, keys[2:4], vecs[2:4])
	storetest.MustPutVectors(t, a, model, keys[4:6], vecs[4:6])
	storetest.CheckVectorsEqual(t, storetest.LoadAll(t, b, model), keys, vecs)
	if err := b.DeleteVectors(ctx, model, keys[:1]); err != nil {
		t.Fatal(err)
	}
	// a's knowledge of the file is stale after b's rewrite.
	k, v := storetest.RandVectors(rand.New(rand.NewPCG(11, 11)), 100, 1, 5)
	storetest.MustPutVectors(t, a, model, k, v)
	storetest.CheckVectorsEqual(t, storetest.LoadAll(t, b, model), append(keys[1:], k...), append(vecs[1:], v...))
}

func TestLockFileWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := lockFile(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
	defer cancel()
	if _, err := lockFile(short, path); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second lockFile while held = %v, want it to wait until the deadline", err)
	}
	unlock()
	unlock2, err := lockFile(ctx, path)
	if err != nil {
		t.Fatalf("lockFile after release: %v", err)
	}
	unlock2()
}

func TestOpenRemovesStaleVectorTemps(t *testing.T) {
	root := t.TempDir()
	dir := mustOpen(t, root).vectorDir()
	old := time.Now().Add(-time.Hour)
	files := map[string]bool{ // name: removed
		".m.vec.tmp-0123456789abcdef":     true,
		".m.vec.tmp-0123456789abcdeX":     false, // not a temp name
		"m.vec":                           false,
		"m.vec.lock":                      false,
		".%3A.vec.tmp-00000000000000ff":   true,
		".young.vec.tmp-1111111111111111": false, // written a moment ago
	}
	for name := range files {
		writeFile(t, filepath.Join(dir, name), "x")
		if !strings.HasPrefix(name, ".young") {
			if err := os.Chtimes(filepath.Join(dir, name), old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	mustOpen(t, root)
	for name, removed := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := errors.Is(err, os.ErrNotExist); gone != removed {
			t.Errorf("%s: removed = %v, want %v", name, gone, removed)
		}
	}
}

// Writers and readers of two models, through two Stores on one folder (as
// two processes would), run at once; loads see whole vectors only, and
// everything written is there. The suite covers one Store.
func TestVectorsTwoStoresConcurrent(t *testing.T) {
	root := t.TempDir()
	stores := []*Store{mustOpen(t, root), mustOpen(t, root)}
	const writers, batches, per, dim = 4, 5, 10, 16
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range writers {
		s, model := stores[w%2], fmt.Sprint("m", w/2)
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 0))
			for b := range batches {
				keys, vecs := storetest.RandVectors(r, (w*batches+b)*per, per, dim)
				if err := s.PutVectors(ctx, model, keys, vecs); err != nil {
					errs <- err
					return
				}
			}
		})
		wg.Go(func() {
			for range batches {
				err := s.LoadVectors(ctx, model, func(k string, v []float32) error {
					if len(v) != dim {
						return fmt.Errorf("vector %s has %d dims", k, len(v))
					}
					return nil
				})
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for m := range 2 {
		if got := storetest.LoadAll(t, stores[0], fmt.Sprint("m", m)); len(got) != 2*batches*per {
			t.Fatalf("model m%d: %d vectors, want %d", m, len(got), 2*batches*per)
		}
	}
}

// FuzzVectorFile: arbitrary bytes never panic the decoder, and everything
// it accepts is exactly what the encoder writes for the decoded values.
func FuzzVectorFile(f *testing.F) {
	const model = "m"
	valid := appendHeader(nil, model)
	r := rand.New(rand.NewPCG(1, 1))
	keys, vecs := storetest.RandVectors(r, 0, 3, 2)
	for i := range keys {
		raw, _ := decodeVectorKey(keys[i])
		valid = appendRecord(valid, &raw, vecs[i])
	}
	raw, _ := decodeVectorKey(keys[0])
	valid = appendRecord(valid, &raw, []float32{1, 2, 3}) // supersedes record 0
	f.Add(valid)
	f.Add(valid[:len(valid)-5])
	f.Add(valid[:headerLen(model)])
	f.Add(valid[:7])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		// Records from offset 0, without a header, exercise scanRecords on
		// all of the input.
		recs, end := scanRecords(data, 0)
		pos := 0
		for _, r := range recs {
			if r.off != pos || r.dim < 1 || r.dim > maxVectorDim {
				t.Fatalf("record %+v after position %d", r, pos)
			}
			k := r.key(data)
			v := make([]float32, r.dim)
			r.values(data, v)
			if again := appendRecord(nil, &k, v); !bytes.Equal(again, data[r.off:r.off+r.size()]) {
				t.Fatalf("record at %d does not re-encode to its bytes", r.off)
			}
			pos += r.size()
		}
		if end != pos || end > len(data) {
			t.Fatalf("end %d, records end at %d, input %d bytes", end, pos, len(data))
		}

		d, err := parseVectorFile(data, model)
		if err != nil {
			if !errors.Is(err, errVectorHeader) {
				t.Fatalf("error %v does not wrap errVectorHeader", err)
			}
			return
		}
		if d.hdr != headerLen(model) || d.end < d.hdr || d.end > len(data) || d.liveBytes > d.end-d.hdr {
			t.Fatalf("inconsistent parse: hdr %d end %d live %d of %d bytes", d.hdr, d.end, d.liveBytes, len(data))
		}
		seen := map[[rawKeyLen]byte]bool{}
		for _, r := range d.live {
			if k := r.key(data); seen[k] {
				t.Fatalf("key %x live twice", k)
			} else {
				seen[k] = true
			}
		}
	})
}

func BenchmarkLoadVectors(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		const dim = 384
		b.Run(fmt.Sprintf("n=%d/dim=%d", n, dim), func(b *testing.B) {
			s, err := Open(b.TempDir(), nil)
			if err != nil {
				b.Fatal(err)
			}
			keys, vecs := storetest.RandVectors(rand.New(rand.NewPCG(1, 1)), 0, n, dim)
			storetest.MustPutVectors(b, s, "bench", keys, vecs)
			b.SetBytes(int64(n * dim * 4))
			b.ResetTimer()
			for b.Loop() {
				count := 0
				err := s.LoadVectors(ctx, "bench", func(string, []float32) error { count++; return nil })
				if err != nil || count != n {
					b.Fatalf("loaded %d, %v", count, err)
				}
			}
		})
	}
}
