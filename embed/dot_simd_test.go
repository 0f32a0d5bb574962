package embed

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The vectorised Dot agrees with the portable one at every length (the
// 32-, 8- and 1-element loops and their seams) and alignment, up to float
// rounding, which differs because the sums are grouped differently.
func TestDotMatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= 200; n++ {
		for off := 0; off < 3; off++ {
			a := make([]float32, n+off)[off:]
			b := make([]float32, n+off)[off:]
			for i := range a {
				a[i] = float32(r.NormFloat64())
				b[i] = float32(r.NormFloat64())
			}
			got, want := Dot(a, b), dotGeneric(a, b)
			var mag float64
			for i := range a {
				mag += math.Abs(float64(a[i]) * float64(b[i]))
			}
			if math.Abs(float64(got-want)) > 1e-5*(mag+1) {
				t.Fatalf("n=%d off=%d: Dot %v, generic %v", n, off, got, want)
			}
		}
	}
	if got := Dot([]float32{1, 2, 3}, []float32{4, 5, 6}); got != 32 {
		t.Fatalf("Dot of small integers = %v, want exactly 32", got)
	}
}

func FuzzDot(f *testing.F) {
	f.Add(uint64(1), uint16(7))
	f.Add(uint64(2), uint16(384))
	f.Fuzz(func(t *testing.T, seed uint64, n uint16) {
		r := rand.New(rand.NewPCG(seed, 0))
		a, b := make([]float32, n%2048), make([]float32, n%2048)
		var mag float64
		for i := range a {
			a[i], b[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
			mag += math.Abs(float64(a[i]) * float64(b[i]))
		}
		if d := math.Abs(float64(Dot(a, b) - dotGeneric(a, b))); d > 1e-5*(mag+1) {
			t.Fatalf("n=%d: differ by %v", len(a), d)
		}
	})
}
