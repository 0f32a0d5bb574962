package bolt

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

// vectorBackend mirrors the interface package embed/cache declares and
// finds by type assertion.
type vectorBackend interface {
	LoadVectors(ctx context.Context, model string, fn func(key string, vec []float32) error) error
	PutVectors(ctx context.Context, model string, keys []string, vecs [][]float32) error
	DeleteVectors(ctx context.Context, model string, keys []string) error
}

var _ vectorBackend = (*Store)(nil)

func vkey(i int) string {
	sum := sha256.Sum256([]byte(fmt.Sprint("text ", i)))
	return hex.EncodeToString(sum[:])
}

// randVectors returns n keys (vkey(first)...) and vectors of dim values.
func randVectors(r *rand.Rand, first, n, dim int) ([]string, [][]float32) {
	keys := make([]string, n)
	vecs := make([][]float32, n)
	for i := range n {
		keys[i] = vkey(first + i)
		vecs[i] = make([]float32, dim)
		for j := range vecs[i] {
			vecs[i][j] = r.Float32()*2 - 1
		}
	}
	return keys, vecs
}

func loadAll(t *testing.T, s *Store, model string) map[string][]float32 {
	t.Helper()
	got := map[string][]float32{}
	err := s.LoadVectors(ctx, model, func(k string, v []float32) error {
		if _, dup := got[k]; dup {
			t.Errorf("key %s yielded twice", k)
		}
		got[k] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// sameBits compares vectors bit for bit, so NaN payloads and -0 count.
func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

func checkVectorsEqual(t *testing.T, got map[string][]float32, keys []string, vecs [][]float32) {
	t.Helper()
	if len(got) != len(keys) {
		t.Fatalf("loaded %d vectors, want %d", len(got), len(keys))
	}
	for i, k := range keys {
		if !sameBits(got[k], vecs[i]) {
			t.Fatalf("vector %s: got %v…, want %v…", k, head(got[k]), head(vecs[i]))
		}
	}
}

func head(v []float32) []float32 { return v[:min(len(v), 4)] }

func mustPutVectors(t *testing.T, s *Store, model string, keys []string, vecs [][]float32) {
	t.Helper()
	if err := s.PutVectors(ctx, model, keys, vecs); err != nil {
		t.Fatal(err)
	}
}

// Three models share keys but not vectors; each gets back exactly its own,
// across a reopen, and no vector operation moves the revision.
func TestVectorsRoundTripAndReopen(t *testing.T) {
	path := tempPath(t)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustPut(t, s, "a", "b", "c")
	rev := revision(t, s)

	r := rand.New(rand.NewPCG(1, 2))
	models := []struct {
		name string
		dim  int
	}{{"hash:v1:256", 256}, {"openai:text-embedding-3-small:1536", 1536}, {"ollama:nomic-embed-text", 7}}
	type set struct {
		keys []string
		vecs [][]float32
	}
	want := map[string]set{}
	for _, m := range models {
		keys, vecs := randVectors(r, 0, 300, m.dim)
		// Two calls, so a model's bucket is reused rather than created.
		mustPutVectors(t, s, m.name, keys[:100], vecs[:100])
		mustPutVectors(t, s, m.name, keys[100:], vecs[100:])
		want[m.name] = set{keys, vecs}
	}
	special := []float32{float32(math.NaN()), float32(math.Copysign(0, -1)), float32(math.Inf(1)), math.MaxFloat32, math.SmallestNonzeroFloat32}
	mustPutVectors(t, s, "special", []string{vkey(0)}, [][]float32{special})
	want["special"] = set{[]string{vkey(0)}, [][]float32{special}}

	check := func() {
		t.Helper()
		for m, w := range want {
			checkVectorsEqual(t, loadAll(t, s, m), w.keys, w.vecs)
		}
		if got := loadAll(t, s, "never-stored"); len(got) != 0 {
			t.Fatalf("unknown model yielded %d vectors", len(got))
		}
		if r := revision(t, s); r != rev {
			t.Fatalf("revision %d after vector operations, want %d", r, rev)
		}
	}
	check()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(path, nil); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check()
}

func TestVectorsReplaceAndDelete(t *testing.T) {
	s := openTemp(t)
	rev := revision(t, s)
	const model = "hash:v1:4"
	r := rand.New(rand.NewPCG(3, 4))
	keys, vecs := randVectors(r, 0, 10, 4)
	mustPutVectors(t, s, model, keys, vecs)

	// Replace two, one of them given twice in the same call: the later wins.
	_, fresh := randVectors(r, 0, 3, 4)
	mustPutVectors(t, s, model, []string{keys[1], keys[2], keys[2]}, fresh)
	vecs[1], vecs[2] = fresh[0], fresh[2]
	checkVectorsEqual(t, loadAll(t, s, model), keys, vecs)

	// Delete two and a key that was never stored.
	if err := s.DeleteVectors(ctx, model, []string{keys[0], keys[5], vkey(999)}); err != nil {
		t.Fatal(err)
	}
	keys = append([]string{}, keys[1:5]...)
	keys = append(keys, vkey(6), vkey(7), vkey(8), vkey(9))
	vecs = append(append([][]float32{}, vecs[1:5]...), vecs[6:]...)
	checkVectorsEqual(t, loadAll(t, s, model), keys, vecs)

	// Deleting from a model that has nothing is fine.
	if err := s.DeleteVectors(ctx, "other", keys); err != nil {
		t.Fatal(err)
	}
	// Deleting the rest removes the model's bucket.
	if err := s.DeleteVectors(ctx, model, keys); err != nil {
		t.Fatal(err)
	}
	if got := loadAll(t, s, model); len(got) != 0 {
		t.Fatalf("%d vectors left after deleting all", len(got))
	}
	_ = s.db.View(func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketVectors).Bucket([]byte(model)) != nil {
			t.Error("empty model bucket was kept")
		}
		return nil
	})
	if r := revision(t, s); r != rev {
		t.Fatalf("revision %d after vector writes, want %d", r, rev)
	}
}

// Bad input is refused whole: nothing of the call is written.
func TestVectorsInvalid(t *testing.T) {
	s := openTemp(t)
	good := []float32{1, 2}
	tests := []struct {
		name  string
		model string
		keys  []string
		vecs  [][]float32
		field string // the FieldError's field, "" when it is not one
	}{
		{"empty model", "", []string{vkey(1)}, [][]float32{good}, "model"},
		{"long model", strings.Repeat("m", store.MaxModelBytes+1), []string{vkey(1)}, [][]float32{good}, "model"},
		{"count mismatch", "m", []string{vkey(1), vkey(2)}, [][]float32{good}, ""},
		{"short key", "m", []string{vkey(1), "abc"}, [][]float32{good, good}, "vector key"},
		{"upper-case key", "m", []string{strings.ToUpper(vkey(1))}, [][]float32{good}, "vector key"},
		{"non-hex key", "m", []string{strings.Repeat("g", 64)}, [][]float32{good}, "vector key"},
		{"empty vector", "m", []string{vkey(1), vkey(2)}, [][]float32{good, {}}, "vector"},
		{"too long vector", "m", []string{vkey(1)}, [][]float32{make([]float32, store.MaxVectorDim+1)}, "vector"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.PutVectors(ctx, tt.model, tt.keys, tt.vecs)
			if !errors.Is(err, store.ErrInvalid) {
				t.Fatalf("PutVectors = %v, want ErrInvalid", err)
			}
			var fe *store.FieldError
			if tt.field != "" && (!errors.As(err, &fe) || fe.Field != tt.field) {
				t.Fatalf("PutVectors = %v, want a FieldError for %q", err, tt.field)
			}
			if tt.model != "" && len(tt.model) <= store.MaxModelBytes {
				if got := loadAll(t, s, tt.model); len(got) != 0 {
					t.Fatalf("a refused call stored %d vectors", len(got))
				}
			}
		})
	}
	if err := s.DeleteVectors(ctx, "m", []string{"nope"}); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("DeleteVectors with a bad key = %v, want ErrInvalid", err)
	}
	if err := s.LoadVectors(ctx, "", func(string, []float32) error { return nil }); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("LoadVectors of an empty model = %v, want ErrInvalid", err)
	}
}

// corruptions each damage the stored value of one key.
var corruptions = []struct {
	name string
	do   func(b *bbolt.Bucket, key []byte) error
}{
	{"flipped value byte", func(b *bbolt.Bucket, k []byte) error {
		v := append([]byte{}, b.Get(k)...)
		v[7] ^= 0x10
		return b.Put(k, v)
	}},
	{"flipped checksum byte", func(b *bbolt.Bucket, k []byte) error {
		v := append([]byte{}, b.Get(k)...)
		v[len(v)-1] ^= 0x01
		return b.Put(k, v)
	}},
	{"truncated", func(b *bbolt.Bucket, k []byte) error {
		v := b.Get(k)
		return b.Put(k, append([]byte{}, v[:len(v)-3]...))
	}},
	{"dim larger than value", func(b *bbolt.Bucket, k []byte) error {
		v := append([]byte{}, b.Get(k)...)
		v[4] = 0x7f
		return b.Put(k, v)
	}},
	{"other format version", func(b *bbolt.Bucket, k []byte) error {
		// A consistent value of a future version: only the version differs.
		v := append([]byte{}, b.Get(k)...)
		v[0] = vectorVersion + 1
		v = v[:len(v)-4]
		v = append(v, 0, 0, 0, 0)
		crc := crcOf(v[:len(v)-4])
		copy(v[len(v)-4:], crc)
		return b.Put(k, v)
	}},
	{"empty value", func(b *bbolt.Bucket, k []byte) error { return b.Put(k, []byte{}) }},
	{"key not hex", func(b *bbolt.Bucket, k []byte) error {
		return b.Put([]byte("not-a-sha256"), b.Get(k))
	}},
}

// crcOf is the little-endian CRC-32C of b, as the value layout stores it.
func crcOf(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(nil, crc32.Checksum(b, castagnoli))
}

func TestVectorsCorrupt(t *testing.T) {
	const model = "hash:v1:8"
	for _, c := range corruptions {
		t.Run(c.name, func(t *testing.T) {
			path := tempPath(t)
			s, err := Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			keys, vecs := randVectors(rand.New(rand.NewPCG(5, 6)), 0, 5, 8)
			mustPutVectors(t, s, model, keys, vecs)
			_ = s.Close()

			// Damage key 2 behind the store's back.
			db, err := bbolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			err = db.Update(func(tx *bbolt.Tx) error {
				return c.do(tx.Bucket(bucketVectors).Bucket([]byte(model)), []byte(keys[2]))
			})
			_ = db.Close()
			if err != nil {
				t.Fatal(err)
			}

			s, err = Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			rev := revision(t, s)
			wantKeys := append(append([]string{}, keys[:2]...), keys[3:]...)
			wantVecs := append(append([][]float32{}, vecs[:2]...), vecs[3:]...)
			if c.name == "key not hex" {
				wantKeys, wantVecs = keys, vecs // the original is intact
			}
			checkVectorsEqual(t, loadAll(t, s, model), wantKeys, wantVecs)

			// The damaged value is gone from the file, not only skipped.
			_ = s.db.View(func(tx *bbolt.Tx) error {
				n := tx.Bucket(bucketVectors).Bucket([]byte(model)).Stats().KeyN
				if n != len(wantKeys) {
					t.Errorf("bucket holds %d keys after the load, want %d", n, len(wantKeys))
				}
				return nil
			})
			if r := revision(t, s); r != rev {
				t.Fatalf("dropping a corrupt vector moved the revision from %d to %d", rev, r)
			}
			// And the key can be stored again.
			mustPutVectors(t, s, model, keys[2:3], vecs[2:3])
			checkVectorsEqual(t, loadAll(t, s, model), keys, vecs)
		})
	}
}

// The cleanup after a load must not delete a value that a Put made good in
// the meantime.
func TestDropCorruptKeepsRepaired(t *testing.T) {
	s := openTemp(t)
	keys, vecs := randVectors(rand.New(rand.NewPCG(7, 8)), 0, 2, 3)
	mustPutVectors(t, s, "m", keys, vecs)
	if err := s.dropCorruptVectors(ctx, "m", [][]byte{[]byte(keys[0])}); err != nil {
		t.Fatal(err)
	}
	checkVectorsEqual(t, loadAll(t, s, "m"), keys, vecs)
}

func TestLoadVectorsCallback(t *testing.T) {
	s := openTemp(t)
	keys, vecs := randVectors(rand.New(rand.NewPCG(9, 10)), 0, 5, 3)
	mustPutVectors(t, s, "m", keys, vecs)

	// fn's error stops the load and comes back unchanged.
	stop := errors.New("stop")
	calls := 0
	err := s.LoadVectors(ctx, "m", func(string, []float32) error { calls++; return stop })
	if err != stop || calls != 1 {
		t.Fatalf("LoadVectors = %v after %d calls, want the callback's error after 1", err, calls)
	}

	// fn may write to the store: no transaction is open while it runs.
	err = s.LoadVectors(ctx, "m", func(k string, v []float32) error {
		return s.PutVectors(ctx, "copy", []string{k}, [][]float32{v})
	})
	if err != nil {
		t.Fatal(err)
	}
	checkVectorsEqual(t, loadAll(t, s, "copy"), keys, vecs)

	// Vectors handed to fn are its own: changing one changes nothing stored.
	got := loadAll(t, s, "m")
	for _, v := range got {
		v[0] = 42
	}
	checkVectorsEqual(t, loadAll(t, s, "m"), keys, vecs)
}

func TestVectorsClosedAndCancelled(t *testing.T) {
	s := openTemp(t)
	keys, vecs := randVectors(rand.New(rand.NewPCG(11, 12)), 0, 1, 3)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	noop := func(string, []float32) error { return nil }
	if err := s.PutVectors(cctx, "m", keys, vecs); !errors.Is(err, context.Canceled) {
		t.Fatalf("PutVectors with a cancelled context = %v", err)
	}
	if err := s.LoadVectors(cctx, "m", noop); !errors.Is(err, context.Canceled) {
		t.Fatalf("LoadVectors with a cancelled context = %v", err)
	}
	_ = s.Close()
	for name, err := range map[string]error{
		"put":    s.PutVectors(ctx, "m", keys, vecs),
		"load":   s.LoadVectors(ctx, "m", noop),
		"delete": s.DeleteVectors(ctx, "m", keys),
	} {
		if !errors.Is(err, store.ErrClosed) {
			t.Errorf("%s after Close = %v, want ErrClosed", name, err)
		}
	}
}

// Writers of two models and readers run at once; every load sees whole
// vectors only, and in the end everything written is there.
func TestVectorsConcurrent(t *testing.T) {
	s := openTemp(t)
	const writers, batches, per, dim = 4, 5, 20, 16
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range writers {
		wg.Go(func() {
			model := fmt.Sprint("m", w%2)
			r := rand.New(rand.NewPCG(uint64(w), 0))
			for b := range batches {
				keys, vecs := randVectors(r, (w*batches+b)*per, per, dim)
				if err := s.PutVectors(ctx, model, keys, vecs); err != nil {
					errs <- err
					return
				}
			}
		})
		wg.Go(func() {
			for range batches {
				err := s.LoadVectors(ctx, fmt.Sprint("m", w%2), func(k string, v []float32) error {
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
		if got := loadAll(t, s, fmt.Sprint("m", m)); len(got) != writers/2*batches*per {
			t.Fatalf("model m%d: %d vectors, want %d", m, len(got), writers/2*batches*per)
		}
	}
}

func BenchmarkLoadVectors(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		const dim = 384
		b.Run(fmt.Sprintf("n=%d/dim=%d", n, dim), func(b *testing.B) {
			s, err := Open(b.TempDir()+"/bench.db", &Options{NoSync: true})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			keys, vecs := randVectors(rand.New(rand.NewPCG(1, 1)), 0, n, dim)
			if err := s.PutVectors(ctx, "bench", keys, vecs); err != nil {
				b.Fatal(err)
			}
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
