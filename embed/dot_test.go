package embed

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// plainDot is the loop Dot replaces: one accumulator, so each addition
// waits for the previous one.
func plainDot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// sumFloat32 reads xs once, sequentially, doing as little work per element
// as possible. Eight accumulators keep the additions off the critical path,
// so on data larger than the caches its speed is the memory bandwidth a
// single goroutine gets: the ceiling for any dot product over the same
// bytes.
func sumFloat32(xs []float32) float32 {
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	n := len(xs) &^ 7
	for i := 0; i < n; i += 8 {
		x := xs[i : i+8 : i+8]
		s0 += x[0]
		s1 += x[1]
		s2 += x[2]
		s3 += x[3]
		s4 += x[4]
		s5 += x[5]
		s6 += x[6]
		s7 += x[7]
	}
	for _, x := range xs[n:] {
		s0 += x
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

func randVec(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()*2 - 1
	}
	return v
}

var sink float32

// BenchmarkDot scores one query vector against a corpus, the inner loop of
// fused retrieval, and reads the same corpus bytes with sumFloat32 as the
// baseline. SetBytes counts the corpus bytes read, so the MB/s columns of
// the three are directly comparable (divide by 1000 for GB/s).
//
// "cache" fits in L1/L2 (one 1536-dimension vector, read repeatedly);
// "corpus" is 4096 vectors of 1536 dimensions (24 MiB), larger than the
// last-level cache of most machines, as a 10k-entry memory would be.
func BenchmarkDot(b *testing.B) {
	const dim = 1536
	r := rand.New(rand.NewPCG(7, 7))
	for _, size := range []struct {
		name string
		docs int
	}{{"cache", 1}, {"corpus", 4096}} {
		q := randVec(r, dim)
		flat := randVec(r, size.docs*dim)
		docs := make([][]float32, size.docs)
		for i := range docs {
			docs[i] = flat[i*dim : (i+1)*dim : (i+1)*dim]
		}
		bytes := int64(len(flat) * 4)
		b.Run(fmt.Sprintf("%s/unrolled", size.name), func(b *testing.B) {
			b.SetBytes(bytes)
			var s float32
			for b.Loop() {
				for _, d := range docs {
					s += Dot(q, d)
				}
			}
			sink = s
		})
		b.Run(fmt.Sprintf("%s/plain", size.name), func(b *testing.B) {
			b.SetBytes(bytes)
			var s float32
			for b.Loop() {
				for _, d := range docs {
					s += plainDot(q, d)
				}
			}
			sink = s
		})
		b.Run(fmt.Sprintf("%s/memread", size.name), func(b *testing.B) {
			b.SetBytes(bytes)
			var s float32
			for b.Loop() {
				s += sumFloat32(flat)
			}
			sink = s
		})
	}
}
