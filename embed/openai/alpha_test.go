package openai

import "testing"

// The engine asks an embedder for its default α by this method; without
// it, fusion's general 0.5 would apply, which costs quality with a weak
// model (docs/benchmarks.md).
func TestDefaultAlphaIsHigh(t *testing.T) {
	var e interface{ DefaultAlpha() float64 } = &Embedder{}
	if a := e.DefaultAlpha(); a != DefaultAlpha || a < 0.9 || a > 1 {
		t.Fatalf("DefaultAlpha() = %v", a)
	}
}
