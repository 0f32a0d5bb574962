package embed

import (
	"context"
	"fmt"
	"math"
)

// Embedder turns texts into vectors.
//
// Implementations are safe for concurrent use by multiple goroutines.
type Embedder interface {
	// Embed returns one vector per text, in order. Vectors are
	// L2-normalised (unit length), so cosine similarity is a dot product.
	// Zero texts yield (nil, nil) without contacting anything.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Model is the identity of the vectors: provider, model and, once
	// known, dimension, e.g. "openai:text-embedding-3-small:1536". It
	// changes when any of them changes. (embed/cache stores vectors under
	// Model as it reads before the first Embed; see the package doc.)
	Model() string
}

// Identity builds the string an Embedder's Model returns. dim 0 means "not
// known yet" and is left out.
func Identity(provider, model string, dim int) string {
	if dim <= 0 {
		return provider + ":" + model
	}
	return fmt.Sprintf("%s:%s:%d", provider, model, dim)
}

// Normalize scales v in place to unit length.
//
// A vector with no elements or a zero norm has no direction and cannot be
// compared by cosine: Normalize leaves it untouched and returns an error
// wrapping ErrDimension. A NaN or infinite element yields an error wrapping
// ErrBadResponse, since it can only come from a broken service.
func Normalize(v []float32) error {
	if len(v) == 0 {
		return fmt.Errorf("%w: empty vector", ErrDimension)
	}
	// float64 so that 3072 squares of small float32s neither lose
	// precision nor overflow.
	var sum float64
	for i, x := range v {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%w: element %d is %v", ErrBadResponse, i, x)
		}
		sum += f * f
	}
	if sum == 0 {
		return fmt.Errorf("%w: zero vector", ErrDimension)
	}
	inv := 1 / math.Sqrt(sum)
	for i, x := range v {
		v[i] = float32(float64(x) * inv)
	}
	return nil
}

// Dot returns the dot product of a and b, which is their cosine similarity
// when both have unit length.
//
// a and b must have the same length: comparing vectors of different
// dimensions is a programming error (their identities differ, see
// Embedder.Model), and Dot panics on it like an out-of-range index would.
//
// Dot is safe for concurrent use; it only reads its arguments.
func Dot(a, b []float32) float32 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("embed.Dot: length mismatch: %d and %d", len(a), len(b)))
	}
	if useAVX2 {
		return dotAVX2(a, b)
	}
	return dotGeneric(a, b)
}

// dotGeneric is Dot in portable Go.
func dotGeneric(a, b []float32) float32 {
	// Four accumulators break the dependency of each addition on the one
	// before it, so the CPU can keep several multiply-adds in flight; the
	// plain loop is limited by the latency of one float add per element.
	var s0, s1, s2, s3 float32
	n := len(a) &^ 3
	for i := 0; i < n; i += 4 {
		// Re-slicing to a fixed length of 4 lets the compiler drop the
		// bounds checks on the eight loads below.
		x := a[i : i+4 : i+4]
		y := b[i : i+4 : i+4]
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
	}
	for i := n; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}
