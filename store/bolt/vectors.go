package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

// The embedding vector cache: LoadVectors, PutVectors and DeleteVectors
// implement the persistent backend that package embed/cache finds by type
// assertion. Vectors are not entries: writing them never bumps the
// revision, so caching a vector never makes an index rebuild.

var bucketVectors = []byte("recall.vectors")

// Vector value layout, version 1:
//
//	byte        version (1)
//	uint32 LE   dim
//	float32 LE  × dim
//	uint32 LE   CRC-32C (Castagnoli) of all the bytes before it
//
// bbolt checksums only its meta pages, not values, so the CRC is what
// catches a damaged value.
const vectorVersion = 1

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func appendVector(b []byte, vec []float32) []byte {
	start := len(b)
	b = append(b, vectorVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(vec)))
	for _, x := range vec {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli))
}

// checkVector returns the dimension of a well-formed value, or an error
// wrapping store.ErrCorrupt. It never trusts the stored dim beyond len(v).
func checkVector(v []byte) (int, error) {
	if len(v) < 1+4+4 {
		return 0, fmt.Errorf("%w: vector value of %d bytes", store.ErrCorrupt, len(v))
	}
	if v[0] != vectorVersion {
		return 0, fmt.Errorf("%w: vector format version %d", store.ErrCorrupt, v[0])
	}
	dim := binary.LittleEndian.Uint32(v[1:])
	if dim == 0 || dim > store.MaxVectorDim || uint64(len(v)) != 1+4+4*uint64(dim)+4 {
		return 0, fmt.Errorf("%w: vector of dim %d in %d bytes", store.ErrCorrupt, dim, len(v))
	}
	body := v[:len(v)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(v[len(body):]) {
		return 0, fmt.Errorf("%w: vector checksum mismatch", store.ErrCorrupt)
	}
	return int(dim), nil
}

// readVector decodes the values of v, which checkVector accepted, into dst
// (len dim).
func readVector(v []byte, dst []float32) {
	p := v[5:]
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(p[4*i:]))
	}
}

// LoadVectors calls fn for every valid vector stored for model, in key
// order. Each vec is fn's to keep. Values that are damaged, of another
// format version, or stored under a key that is not a hex SHA-256 are
// skipped, and deleted in a write transaction after the read one (best
// effort: if that fails, the next load tries again).
//
// Everything is read in one read transaction and fn runs after it has
// ended, so fn may call any method of the store. An error from fn stops
// the load and is returned as is.
func (s *Store) LoadVectors(ctx context.Context, model string, fn func(key string, vec []float32) error) error {
	_, err := s.LoadVectorsReport(ctx, model, fn)
	return err
}

// LoadVectorsReport is LoadVectors, and also returns how many values it
// skipped as damaged (embed/cache.DamageReporter). Each damaged value is
// one record, counted exactly.
func (s *Store) LoadVectorsReport(ctx context.Context, model string, fn func(key string, vec []float32) error) (int, error) {
	op := fmt.Sprintf("load vectors for %q", model)
	if err := store.ValidateModel(model); err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	var (
		keys []string
		vecs [][]float32
		bad  [][]byte
	)
	err := s.use(ctx, op, func() error {
		return s.db.View(func(tx *bbolt.Tx) error {
			mb := tx.Bucket(bucketVectors).Bucket([]byte(model))
			if mb == nil {
				return nil
			}
			// First pass validates; the second decodes the good values into
			// one allocation instead of one per vector.
			type ref struct {
				k, v []byte
				dim  int
			}
			var (
				refs  []ref
				total int
				n     int
			)
			c := mb.Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				if v == nil {
					continue // a nested bucket: not ours
				}
				if n++; n%4096 == 0 {
					if err := ctx.Err(); err != nil {
						return fmt.Errorf("%s: %w", op, err)
					}
				}
				dim, err := checkVector(v)
				if err == nil {
					err = store.ValidateVectorKey(string(k))
				}
				if err != nil {
					bad = append(bad, bytes.Clone(k))
					continue
				}
				refs = append(refs, ref{k, v, dim})
				total += dim
			}
			slab := make([]float32, total)
			keys = make([]string, len(refs))
			vecs = make([][]float32, len(refs))
			for i, r := range refs {
				vecs[i], slab = slab[:r.dim:r.dim], slab[r.dim:]
				readVector(r.v, vecs[i])
				keys[i] = string(r.k)
			}
			return nil
		})
	})
	if err != nil {
		return 0, err
	}
	if len(bad) > 0 {
		_ = s.dropCorruptVectors(ctx, model, bad)
	}
	for i, k := range keys {
		if i%4096 == 4095 {
			if err := ctx.Err(); err != nil {
				return len(bad), fmt.Errorf("%s: %w", op, err)
			}
		}
		if err := fn(k, vecs[i]); err != nil {
			return len(bad), err
		}
	}
	return len(bad), nil
}

// dropCorruptVectors deletes the keys LoadVectors found damaged, unless a
// Put has replaced them with good values since.
func (s *Store) dropCorruptVectors(ctx context.Context, model string, bad [][]byte) error {
	return s.use(ctx, "drop corrupt vectors", func() error {
		return s.db.Update(func(tx *bbolt.Tx) error {
			vb := tx.Bucket(bucketVectors)
			mb := vb.Bucket([]byte(model))
			if mb == nil {
				return nil
			}
			for _, k := range bad {
				v := mb.Get(k)
				if v == nil {
					continue
				}
				if _, err := checkVector(v); err == nil && store.ValidateVectorKey(string(k)) == nil {
					continue
				}
				if err := mb.Delete(k); err != nil {
					return err
				}
			}
			return dropIfEmpty(vb, mb, model)
		})
	})
}

// dropIfEmpty removes a model's bucket once it holds nothing, so a model
// that is no longer used leaves no trace.
func dropIfEmpty(vb, mb *bbolt.Bucket, model string) error {
	if k, _ := mb.Cursor().First(); k != nil {
		return nil
	}
	return vb.DeleteBucket([]byte(model))
}

// PutVectors stores vecs[i] under keys[i] for model, replacing existing
// ones, in one write transaction: after a crash either all of them are
// stored or none. The revision is not bumped. Keys must be 64 lower-case
// hex digits and vectors 1 to 65536 long; otherwise nothing is written and
// the error wraps store.ErrInvalid. When a key appears twice, the later
// vector wins.
func (s *Store) PutVectors(ctx context.Context, model string, keys []string, vecs [][]float32) error {
	op := fmt.Sprintf("put vectors for %q", model)
	if err := store.ValidateModel(model); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := store.ValidateVectors(keys, vecs); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	// Encoded before the transaction, to keep the writer lock short.
	size := 0
	for _, v := range vecs {
		size += 9 + 4*len(v)
	}
	buf := make([]byte, 0, size)
	vals := make([][]byte, len(vecs))
	for i, v := range vecs {
		start := len(buf)
		buf = appendVector(buf, v)
		vals[i] = buf[start:len(buf):len(buf)]
	}
	return s.use(ctx, op, func() error {
		if len(keys) == 0 {
			return nil
		}
		return s.db.Update(func(tx *bbolt.Tx) error {
			mb, err := tx.Bucket(bucketVectors).CreateBucketIfNotExists([]byte(model))
			if err != nil {
				return fmt.Errorf("%s: %w", op, err)
			}
			for i, k := range keys {
				if err := mb.Put([]byte(k), vals[i]); err != nil {
					return fmt.Errorf("%s: %w", op, err)
				}
			}
			return nil
		})
	})
}

// DeleteVectors removes the keys of model in one write transaction; missing
// keys are fine. Keys that cannot exist (not 64 lower-case hex digits) are
// an error wrapping store.ErrInvalid. The revision is not bumped.
func (s *Store) DeleteVectors(ctx context.Context, model string, keys []string) error {
	op := fmt.Sprintf("delete vectors for %q", model)
	if err := store.ValidateModel(model); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	for _, k := range keys {
		if err := store.ValidateVectorKey(k); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	return s.use(ctx, op, func() error {
		if len(keys) == 0 {
			return nil
		}
		return s.db.Update(func(tx *bbolt.Tx) error {
			vb := tx.Bucket(bucketVectors)
			mb := vb.Bucket([]byte(model))
			if mb == nil {
				return nil
			}
			for _, k := range keys {
				if err := mb.Delete([]byte(k)); err != nil {
					return fmt.Errorf("%s: %w", op, err)
				}
			}
			if err := dropIfEmpty(vb, mb, model); err != nil {
				return fmt.Errorf("%s: %w", op, err)
			}
			return nil
		})
	})
}
