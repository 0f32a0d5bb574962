package bolt

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"testing"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store/storetest"
)

var _ storetest.VectorBackend = (*Store)(nil)

func TestVectorsConformance(t *testing.T) {
	storetest.RunVectors(t,
		func(t *testing.T) storetest.VectorBackend {
			s, err := Open(tempPath(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
		func(t *testing.T, s storetest.VectorBackend) storetest.VectorBackend {
			t.Helper()
			// The revision lives in the file: a reopen must not lose it.
			rev := revision(t, s)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s2, err := Open(s.(*Store).path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r := revision(t, s2); r != rev {
				t.Fatalf("revision %d after reopen, want %d", r, rev)
			}
			return s2
		})
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
			keys, vecs := storetest.RandVectors(rand.New(rand.NewPCG(5, 6)), 0, 5, 8)
			storetest.MustPutVectors(t, s, model, keys, vecs)
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
			got, dropped := storetest.LoadAllReport(t, s, model)
			storetest.CheckVectorsEqual(t, got, wantKeys, wantVecs)
			// The load says what it dropped, once.
			if dropped != 1 {
				t.Errorf("LoadVectorsReport dropped %d records, want 1", dropped)
			}
			if _, again := storetest.LoadAllReport(t, s, model); again != 0 {
				t.Errorf("a second load dropped %d records, want 0", again)
			}

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
			storetest.MustPutVectors(t, s, model, keys[2:3], vecs[2:3])
			storetest.CheckVectorsEqual(t, storetest.LoadAll(t, s, model), keys, vecs)
		})
	}
}

// The cleanup after a load must not delete a value that a Put made good in
// the meantime.
func TestDropCorruptKeepsRepaired(t *testing.T) {
	s := openTemp(t)
	keys, vecs := storetest.RandVectors(rand.New(rand.NewPCG(7, 8)), 0, 2, 3)
	storetest.MustPutVectors(t, s, "m", keys, vecs)
	if err := s.dropCorruptVectors(ctx, "m", [][]byte{[]byte(keys[0])}); err != nil {
		t.Fatal(err)
	}
	storetest.CheckVectorsEqual(t, storetest.LoadAll(t, s, "m"), keys, vecs)
}

// Deleting a model's last vector removes its bucket; deleting from a model
// that has none creates none.
func TestDeleteVectorsDropsEmptyBucket(t *testing.T) {
	s := openTemp(t)
	const model = "hash:v1:4"
	keys, vecs := storetest.RandVectors(rand.New(rand.NewPCG(3, 4)), 0, 3, 4)
	storetest.MustPutVectors(t, s, model, keys, vecs)
	for _, m := range []string{model, "other"} {
		if err := s.DeleteVectors(ctx, m, keys); err != nil {
			t.Fatal(err)
		}
	}
	_ = s.db.View(func(tx *bbolt.Tx) error {
		for _, m := range []string{model, "other"} {
			if tx.Bucket(bucketVectors).Bucket([]byte(m)) != nil {
				t.Errorf("model %q has a bucket after deleting everything", m)
			}
		}
		return nil
	})
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
			keys, vecs := storetest.RandVectors(rand.New(rand.NewPCG(1, 1)), 0, n, dim)
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

// FuzzVectorValue: arbitrary bytes as a stored vector value never panic
// and are accepted only when they are well formed; under a good checksum
// they reach the dim checks, and what is accepted round-trips.
func FuzzVectorValue(f *testing.F) {
	good := appendVector(nil, []float32{1, -2, 0.5})
	f.Add(good)
	f.Add(good[:len(good)-1])
	f.Add([]byte{vectorVersion, 0, 0, 0, 0})
	f.Add([]byte{vectorVersion, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, v := range [][]byte{b, append(b[:len(b):len(b)], crcOf(b)...)} {
			dim, err := checkVector(v)
			if err != nil {
				continue
			}
			if len(v) != 1+4+4*dim+4 || v[0] != vectorVersion {
				t.Fatalf("accepted %d bytes as a vector of dim %d", len(v), dim)
			}
			vec := make([]float32, dim)
			readVector(v, vec)
			if again := appendVector(nil, vec); string(again) != string(v) {
				t.Fatalf("accepted value does not round-trip: %x → %x", v, again)
			}
		}
	})
}
