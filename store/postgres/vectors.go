package postgres

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/recallhq/recall/store"
)

// The embedding vector cache: LoadVectors, PutVectors and DeleteVectors
// implement the persistent backend that package embed/cache finds by type
// assertion. Vectors live in their own table and are not entries: writing
// them never bumps the revision.
//
// A row holds dim, the floats as little-endian float32 (vec) and crc, the
// CRC-32C (Castagnoli) of dim (uint32 LE) followed by vec. Cosine stays in
// Go; the database only stores bytes.

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func vectorCRC(dim int, vec []byte) int64 {
	var d [4]byte
	binary.LittleEndian.PutUint32(d[:], uint32(dim))
	c := crc32.Update(0, castagnoli, d[:])
	return int64(crc32.Update(c, castagnoli, vec))
}

func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// checkVector reports whether a row is well formed: a valid key, a
// plausible dim that matches the bytes, and a matching CRC.
func checkVector(key string, dim int, vec []byte, crc int64) bool {
	return store.ValidateVectorKey(key) == nil &&
		dim > 0 && dim <= store.MaxVectorDim && len(vec) == 4*dim &&
		vectorCRC(dim, vec) == crc
}

// vectorPage is how many vectors LoadVectors reads per query.
const vectorPage = 1024

// LoadVectors calls fn for every valid vector stored for model, in key
// order. Each vec is fn's to keep. Rows that fail the check (edited by
// hand, damaged) are skipped and then deleted, unless a PutVectors has
// replaced them since (best effort: if that fails, the next load tries
// again).
//
// Vectors are read vectorPage at a time and fn runs between the queries,
// with no transaction open and no connection held, so fn may call any
// method of the store. An error from fn stops the load and is returned as
// is. The load is not a snapshot: vectors written meanwhile may or may not
// be seen.
func (s *Store) LoadVectors(ctx context.Context, model string, fn func(key string, vec []float32) error) error {
	_, err := s.LoadVectorsReport(ctx, model, fn)
	return err
}

// LoadVectorsReport is LoadVectors, and also returns how many rows it
// skipped as damaged (embed/cache.DamageReporter): each such row is one
// record, counted exactly.
func (s *Store) LoadVectorsReport(ctx context.Context, model string, fn func(key string, vec []float32) error) (int, error) {
	op := fmt.Sprintf("load vectors for %q", model)
	if err := store.ValidateModel(model); err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	var (
		after            string
		first            = true
		badKeys, badXmin []string
	)
	for {
		var (
			keys []string
			vecs [][]float32
			n    int
		)
		err := s.use(ctx, op, func(ctx context.Context) error {
			keys, vecs, n = keys[:0], vecs[:0], 0
			var args []any
			q := s.q.vecLoadAfter
			if first {
				q, args = s.q.vecLoadFirst, []any{model, vectorPage}
			} else {
				args = []any{model, after, vectorPage}
			}
			rows, err := s.pool.Query(ctx, q, args...)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var (
					key, xmin string
					dim       int32
					raw       []byte
					crc       int64
				)
				if err := rows.Scan(&key, &dim, &raw, &crc, &xmin); err != nil {
					return err
				}
				n++
				after = key
				if !checkVector(key, int(dim), raw, crc) {
					badKeys, badXmin = append(badKeys, key), append(badXmin, xmin)
					continue
				}
				v := make([]float32, dim)
				for i := range v {
					v[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
				}
				keys, vecs = append(keys, key), append(vecs, v)
			}
			return rows.Err()
		})
		if err != nil {
			return len(badKeys), err
		}
		first = false
		for i, k := range keys {
			if err := fn(k, vecs[i]); err != nil {
				return len(badKeys), err
			}
		}
		if n < vectorPage {
			break
		}
		if err := ctx.Err(); err != nil {
			return len(badKeys), fmt.Errorf("%s: %w", op, err)
		}
	}
	if len(badKeys) > 0 {
		_ = s.use(ctx, "drop corrupt vectors", func(ctx context.Context) error {
			_, err := s.pool.Exec(ctx, s.q.vecDrop, model, badKeys, badXmin)
			return err
		})
	}
	return len(badKeys), nil
}

// PutVectors stores vecs[i] under keys[i] for model, replacing existing
// ones, in one statement: all of them or none. The revision is not bumped.
// Keys must be 64 lower-case hex digits and vectors 1 to 65536 long;
// otherwise nothing is written and the error wraps store.ErrInvalid. When
// a key appears twice, the later vector wins.
func (s *Store) PutVectors(ctx context.Context, model string, keys []string, vecs [][]float32) error {
	op := fmt.Sprintf("put vectors for %q", model)
	if err := store.ValidateModel(model); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := store.ValidateVectors(keys, vecs); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	// ON CONFLICT cannot touch a row twice in one statement: keep the last.
	pos := make(map[string]int, len(keys))
	var (
		ks   []string
		dims []int32
		raws [][]byte
		crcs []int64
	)
	for i, k := range keys {
		raw := encodeVector(vecs[i])
		j, dup := pos[k]
		if !dup {
			j = len(ks)
			pos[k] = j
			ks, dims, raws, crcs = append(ks, k), append(dims, 0), append(raws, nil), append(crcs, 0)
		}
		dims[j], raws[j], crcs[j] = int32(len(vecs[i])), raw, vectorCRC(len(vecs[i]), raw)
	}
	return s.use(ctx, op, func(ctx context.Context) error {
		if len(ks) == 0 {
			return nil
		}
		_, err := s.pool.Exec(ctx, s.q.vecPut, model, ks, dims, raws, crcs)
		return err
	})
}

// DeleteVectors removes the keys of model in one statement; missing keys
// are fine. Keys that cannot exist (not 64 lower-case hex digits) are an
// error wrapping store.ErrInvalid. The revision is not bumped.
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
	return s.use(ctx, op, func(ctx context.Context) error {
		if len(keys) == 0 {
			return nil
		}
		_, err := s.pool.Exec(ctx, s.q.vecDelete, model, keys)
		return err
	})
}
