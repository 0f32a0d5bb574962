package embed

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func TestNormalize(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	tests := []struct {
		name    string
		in      []float32
		want    []float32 // nil: only check unit length
		wantErr error
	}{
		{name: "3-4-5", in: []float32{3, 4}, want: []float32{0.6, 0.8}},
		{name: "already unit", in: []float32{0, 1, 0}, want: []float32{0, 1, 0}},
		{name: "negative", in: []float32{-2, 0}, want: []float32{-1, 0}},
		{name: "tiny values", in: []float32{1e-30, 1e-30}, want: []float32{float32(math.Sqrt2 / 2), float32(math.Sqrt2 / 2)}},
		{name: "huge values", in: []float32{3e38, 3e38, 3e38}},
		{name: "zero vector", in: []float32{0, 0, 0}, wantErr: ErrDimension},
		{name: "empty", in: []float32{}, wantErr: ErrDimension},
		{name: "nil", in: nil, wantErr: ErrDimension},
		{name: "NaN", in: []float32{1, nan}, wantErr: ErrBadResponse},
		{name: "Inf", in: []float32{inf, 1}, wantErr: ErrBadResponse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := append([]float32(nil), tt.in...)
			err := Normalize(v)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Normalize(%v) = %v, want %v", tt.in, err, tt.wantErr)
				}
				for i := range v {
					if math.Float32bits(v[i]) != math.Float32bits(tt.in[i]) {
						t.Fatalf("Normalize modified the vector on error: %v", v)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Normalize(%v): %v", tt.in, err)
			}
			if n := norm(v); math.Abs(n-1) > 1e-6 {
				t.Errorf("norm after Normalize = %v, want 1", n)
			}
			for i := range tt.want {
				if math.Abs(float64(v[i]-tt.want[i])) > 1e-6 {
					t.Errorf("Normalize(%v) = %v, want %v", tt.in, v, tt.want)
					break
				}
			}
		})
	}
}

func TestDotMatchesFloat64Reference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	// Every remainder of len%4, plus the sizes real models produce.
	for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 384, 768, 1536, 3071} {
		a, b := make([]float32, n), make([]float32, n)
		var want float64
		for i := range a {
			a[i], b[i] = r.Float32()*2-1, r.Float32()*2-1
			want += float64(a[i]) * float64(b[i])
		}
		got := Dot(a, b)
		if math.Abs(float64(got)-want) > 1e-4 {
			t.Errorf("n=%d: Dot = %v, want %v", n, got, want)
		}
		if pl := plainDot(a, b); math.Abs(float64(pl)-float64(got)) > 1e-4 {
			t.Errorf("n=%d: Dot = %v, plain loop = %v", n, got, pl)
		}
	}
}

func TestDotOfUnitVectorsIsCosine(t *testing.T) {
	a := []float32{1, 2, 3, 4, 5}
	b := []float32{-1, 2, -3, 4, -5}
	// cos = (-1+4-9+16-25)/55 = -15/55
	want := -15.0 / 55
	if err := Normalize(a); err != nil {
		t.Fatal(err)
	}
	if err := Normalize(b); err != nil {
		t.Fatal(err)
	}
	if got := Dot(a, b); math.Abs(float64(got)-want) > 1e-6 {
		t.Errorf("Dot = %v, want %v", got, want)
	}
	if got := Dot(a, a); math.Abs(float64(got)-1) > 1e-6 {
		t.Errorf("Dot(a, a) = %v, want 1", got)
	}
}

func TestDotPanicsOnLengthMismatch(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Dot of vectors of length 3 and 4 did not panic")
		}
	}()
	Dot(make([]float32, 3), make([]float32, 4))
}

func TestIdentity(t *testing.T) {
	tests := []struct {
		provider, model string
		dim             int
		want            string
	}{
		{"openai", "text-embedding-3-small", 1536, "openai:text-embedding-3-small:1536"},
		{"openai", "text-embedding-3-small", 0, "openai:text-embedding-3-small"},
		{"ollama", "nomic-embed-text:latest", 768, "ollama:nomic-embed-text:latest:768"},
	}
	for _, tt := range tests {
		if got := Identity(tt.provider, tt.model, tt.dim); got != tt.want {
			t.Errorf("Identity(%q, %q, %d) = %q, want %q", tt.provider, tt.model, tt.dim, got, tt.want)
		}
	}
}
