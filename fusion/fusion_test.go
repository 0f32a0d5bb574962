package fusion

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

const eps = 1e-12

func near(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > eps {
			return false
		}
	}
	return true
}

func TestMinMax(t *testing.T) {
	tests := []struct {
		name string
		in   []float64
		want []float64
	}{
		{"empty", nil, []float64{}},
		// min 1, max 3, span 2: (1−1)/2, (2−1)/2, (3−1)/2
		{"spread", []float64{1, 2, 3}, []float64{0, 0.5, 1}},
		// min −2, max 2, span 4: (−2+2)/4, (0+2)/4, (2+2)/4
		{"negative", []float64{-2, 0, 2}, []float64{0, 0.5, 1}},
		// max == min == 5 > 0: all 1
		{"single positive", []float64{5}, []float64{1}},
		{"all equal positive", []float64{0.4, 0.4}, []float64{1, 1}},
		// max == min == 0: all 0
		{"all zero", []float64{0, 0}, []float64{0, 0}},
		// max == min == −1 ≤ 0: all 0
		{"all equal negative", []float64{-1, -1}, []float64{0, 0}},
		// span 2e308 overflows; halves: (0 + 0.5e308) / 1e308 = 0.5
		{"huge", []float64{1e308, -1e308, 0}, []float64{1, 0, 0.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MinMax(tt.in); !near(got, tt.want) {
				t.Errorf("MinMax(%v) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestFuse(t *testing.T) {
	tests := []struct {
		name   string
		bm25   []float64
		cos    []float64
		hasVec []bool
		alpha  float64
		want   []float64
	}{
		{
			name: "normal",
			bm25: []float64{3, 1, 0, 2},
			cos:  []float64{0.2, 0.8, 0.5, 0.35},
			// C = all four (all have vectors).
			// mm(bm25): min 0, max 3    → 1, 1/3, 0, 2/3
			// mm(cos):  min 0.2, max 0.8 → 0, 1, 0.5, 0.25
			// fused = 0.5·bm + 0.5·cos:
			//   0.5·1 + 0.5·0       = 0.5
			//   0.5·1/3 + 0.5·1     = 2/3
			//   0.5·0 + 0.5·0.5     = 0.25
			//   0.5·2/3 + 0.5·0.25  = 11/24
			alpha: 0.5,
			want:  []float64{0.5, 2.0 / 3, 0.25, 11.0 / 24},
		},
		{
			name: "alpha 0.3",
			bm25: []float64{2, 1},
			cos:  []float64{0, 1},
			// mm(bm25) = 1, 0; mm(cos) = 0, 1
			// 0.3·1 + 0.7·0 = 0.3;  0.3·0 + 0.7·1 = 0.7
			alpha: 0.3,
			want:  []float64{0.3, 0.7},
		},
		{
			name: "bm25 max == min > 0",
			bm25: []float64{2, 2},
			cos:  []float64{0.9, 0.3},
			// mm(bm25): max == min == 2 > 0 → 1, 1
			// mm(cos): 1, 0
			// 0.5·1 + 0.5·1 = 1;  0.5·1 + 0.5·0 = 0.5
			alpha: 0.5,
			want:  []float64{1, 0.5},
		},
		{
			name: "bm25 max == min == 0: only vector candidates",
			bm25: []float64{0, 0, 0},
			cos:  []float64{0.1, 0.4, 0.7},
			// mm(bm25): max == min == 0 → 0, 0, 0
			// mm(cos): min 0.1, max 0.7 → 0, 0.5, 1
			// 0 + 0.5·0 = 0 (not a hit);  0.5·0.5 = 0.25;  0.5·1 = 0.5
			alpha: 0.5,
			want:  []float64{0, 0.25, 0.5},
		},
		{
			name: "cos max == min > 0",
			bm25: []float64{4, 1},
			cos:  []float64{0.5, 0.5},
			// mm(bm25): min 1, max 4 → 1, 0
			// mm(cos): max == min == 0.5 > 0 → 1, 1
			// 0.5·1 + 0.5·1 = 1;  0.5·0 + 0.5·1 = 0.5
			alpha: 0.5,
			want:  []float64{1, 0.5},
		},
		{
			name: "cos max == min < 0",
			bm25: []float64{4, 1},
			cos:  []float64{-0.2, -0.2},
			// mm(bm25) = 1, 0;  mm(cos): max == min == −0.2 ≤ 0 → 0, 0
			// 0.5·1 = 0.5;  0.5·0 = 0 (not a hit)
			alpha: 0.5,
			want:  []float64{0.5, 0},
		},
		{
			name:   "entries without vectors",
			bm25:   []float64{4, 2, 0, 0},
			cos:    []float64{99, 0.9, 0.1, -99}, // 99 and −99 have no vector: never read
			hasVec: []bool{false, true, true, false},
			// C = {0 (bm25 > 0), 1, 2 (vectors)}; entry 3 is outside C → 0.
			// mm(bm25) over C = {4, 2, 0}: min 0, max 4 → 1, 0.5, 0
			// mm(cos) over entries with vectors = {0.9, 0.1} → _, 1, 0
			//   0.5·1 + (no vector) 0    = 0.5
			//   0.5·0.5 + 0.5·1          = 0.75
			//   0.5·0 + 0.5·0            = 0 (not a hit)
			//   outside C                = 0
			alpha: 0.5,
			want:  []float64{0.5, 0.75, 0, 0},
		},
		{
			name:   "no entry has a vector",
			bm25:   []float64{3, 1, 0},
			cos:    []float64{0, 0, 0},
			hasVec: []bool{false, false, false},
			// C = {0, 1}; mm(bm25) over {3, 1} → 1, 0; cosine side 0 for all.
			// 0.5·1 = 0.5;  0.5·0 = 0;  outside C = 0
			alpha: 0.5,
			want:  []float64{0.5, 0, 0},
		},
		{
			name: "alpha 1: BM25 only",
			bm25: []float64{3, 1, 0},
			cos:  []float64{0.1, 0.9, 0.5},
			// mm(bm25) over C (all three): min 0, max 3 → 1, 1/3, 0
			// 1·bm + 0·cos
			alpha: 1,
			want:  []float64{1, 1.0 / 3, 0},
		},
		{
			name:   "alpha 0: cosine only",
			bm25:   []float64{3, 1, 0, 5},
			cos:    []float64{0.1, 0.9, 0.5, 0},
			hasVec: []bool{true, true, true, false},
			// mm(cos) over entries with vectors: min 0.1, max 0.9 → 0, 1, 0.5
			// 0·bm + 1·cos; entry 3 has no vector, so nothing on its only
			// weighted side → 0 despite the best BM25.
			alpha: 0,
			want:  []float64{0, 1, 0.5, 0},
		},
		{
			name: "negative cosines",
			bm25: []float64{1, 0, 0},
			cos:  []float64{-0.3, -0.1, -0.5},
			// mm(bm25) over C (all have vectors): min 0, max 1 → 1, 0, 0
			// mm(cos): min −0.5, max −0.1, span 0.4 →
			//   (−0.3+0.5)/0.4 = 0.5, (−0.1+0.5)/0.4 = 1, 0
			// 0.5·1 + 0.5·0.5 = 0.75;  0.5·0 + 0.5·1 = 0.5;  0
			alpha: 0.5,
			want:  []float64{0.75, 0.5, 0},
		},
		{
			name:  "empty",
			alpha: 0.5,
			want:  []float64{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Fuse(tt.bm25, tt.cos, tt.hasVec, tt.alpha)
			if err != nil {
				t.Fatalf("Fuse: %v", err)
			}
			if !near(got, tt.want) {
				t.Errorf("Fuse = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFuseNilHasVecMeansAllHaveVectors(t *testing.T) {
	bm25, cos := []float64{0, 2, 1}, []float64{0.3, -0.4, 0.8}
	all, err := Fuse(bm25, cos, []bool{true, true, true}, 0.4)
	if err != nil {
		t.Fatal(err)
	}
	withNil, err := Fuse(bm25, cos, nil, 0.4)
	if err != nil {
		t.Fatal(err)
	}
	if !near(all, withNil) {
		t.Errorf("nil hasVec = %v, all true = %v", withNil, all)
	}
}

func TestFuseCandidatesOnlyEqualsAllEntries(t *testing.T) {
	// Passing the whole corpus or only C gives the same scores for C.
	bm25 := []float64{0, 3, 0, 1, 0}
	cos := []float64{0, 0.2, 0.7, 0, 0}
	has := []bool{false, true, true, false, false}
	all, err := Fuse(bm25, cos, has, DefaultAlpha)
	if err != nil {
		t.Fatal(err)
	}
	cand, err := Fuse([]float64{3, 0, 1}, []float64{0.2, 0.7, 0}, []bool{true, true, false}, DefaultAlpha)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{all[1], all[2], all[3]}; !near(cand, want) {
		t.Errorf("over C = %v, over all = %v", cand, want)
	}
	if all[0] != 0 || all[4] != 0 {
		t.Errorf("non-candidates scored %v, %v", all[0], all[4])
	}
}

func TestFuseErrors(t *testing.T) {
	tests := []struct {
		name   string
		bm25   []float64
		cos    []float64
		hasVec []bool
		alpha  float64
		want   error
	}{
		{"alpha below 0", []float64{1}, []float64{1}, nil, -0.1, ErrAlpha},
		{"alpha above 1", []float64{1}, []float64{1}, nil, 1.5, ErrAlpha},
		{"alpha NaN", []float64{1}, []float64{1}, nil, math.NaN(), ErrAlpha},
		{"cos shorter", []float64{1, 2}, []float64{1}, nil, 0.5, ErrLength},
		{"hasVec shorter", []float64{1, 2}, []float64{1, 2}, []bool{true}, 0.5, ErrLength},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Fuse(tt.bm25, tt.cos, tt.hasVec, tt.alpha)
			if !errors.Is(err, tt.want) || got != nil {
				t.Errorf("Fuse = %v, %v; want nil, %v", got, err, tt.want)
			}
		})
	}
}

// checkFuse asserts the properties Fuse promises for any finite input.
func checkFuse(t *testing.T, bm25, cos []float64, has []bool, alpha float64) {
	t.Helper()
	got, err := Fuse(bm25, cos, has, alpha)
	if err != nil {
		t.Fatalf("Fuse: %v", err)
	}
	cand := func(i int) bool { return bm25[i] > 0 || has[i] }
	for i, f := range got {
		if !(f >= 0 && f <= 1) {
			t.Fatalf("fused[%d] = %v, not in [0, 1] (bm25=%v cos=%v has=%v α=%v)", i, f, bm25, cos, has, alpha)
		}
		if !cand(i) && f != 0 {
			t.Fatalf("non-candidate %d scored %v", i, f)
		}
	}
	// Order-preserving: an entry at least as good on both sides (no vector
	// counts as worst on the cosine side) fuses at least as high.
	for i := range got {
		for j := range got {
			if !cand(i) || !cand(j) {
				continue
			}
			cosLE := !has[i] || (has[j] && cos[i] <= cos[j])
			if bm25[i] <= bm25[j] && cosLE && got[i] > got[j] {
				t.Fatalf("entry %d (bm25 %v, cos %v, vec %v) fused %v > entry %d (bm25 %v, cos %v, vec %v) fused %v",
					i, bm25[i], cos[i], has[i], got[i], j, bm25[j], cos[j], has[j], got[j])
			}
		}
	}
	// Each side alone preserves its order.
	onlyBM25, _ := Fuse(bm25, cos, has, 1)
	onlyCos, _ := Fuse(bm25, cos, has, 0)
	for i := range got {
		for j := range got {
			if cand(i) && cand(j) && bm25[i] < bm25[j] && onlyBM25[i] > onlyBM25[j] {
				t.Fatalf("α=1 reversed BM25 order of %d and %d", i, j)
			}
			if has[i] && has[j] && cos[i] < cos[j] && onlyCos[i] > onlyCos[j] {
				t.Fatalf("α=0 reversed cosine order of %d and %d", i, j)
			}
		}
	}
	// MinMax agrees with its own promise: order kept, ends at 0 and 1.
	mm := MinMax(cos)
	lo, hi, _ := bounds(cos, func(int) bool { return true })
	for i := range cos {
		if lo != hi && (cos[i] == lo && mm[i] != 0 || cos[i] == hi && mm[i] != 1) {
			t.Fatalf("MinMax(%v) = %v: min/max not mapped to 0/1", cos, mm)
		}
		for j := range cos {
			if cos[i] < cos[j] && mm[i] > mm[j] {
				t.Fatalf("MinMax reversed the order of %v and %v", cos[i], cos[j])
			}
		}
	}
}

func TestFuseProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		n := r.IntN(12)
		bm25, cos, has := make([]float64, n), make([]float64, n), make([]bool, n)
		for i := range n {
			if r.IntN(3) > 0 {
				bm25[i] = r.Float64() * 20
			}
			cos[i] = r.Float64()*2 - 1
			has[i] = r.IntN(4) > 0
			if r.IntN(5) == 0 && i > 0 { // ties
				bm25[i], cos[i] = bm25[i-1], cos[i-1]
			}
		}
		alpha := []float64{0, 1, DefaultAlpha, r.Float64()}[r.IntN(4)]
		checkFuse(t, bm25, cos, has, alpha)
	}
}

// FuzzFuse feeds arbitrary finite scores: 17 bytes per entry, 8 for BM25,
// 8 for the cosine (raw float64 bits, so magnitudes near the float limits
// come up), 1 for whether it has a vector.
func FuzzFuse(f *testing.F) {
	entry := func(bm25, cos float64, has bool) []byte {
		b := binary.LittleEndian.AppendUint64(nil, math.Float64bits(bm25))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(cos))
		if has {
			return append(b, 1)
		}
		return append(b, 0)
	}
	cat := func(parts ...[]byte) []byte {
		var out []byte
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	f.Add(cat(entry(3, 0.2, true), entry(1, 0.8, true), entry(0, 0.5, true)), 0.5)
	f.Add(cat(entry(4, 99, false), entry(0, -0.3, true), entry(0, 0, false)), 0.0)
	f.Add(cat(entry(2, 0.5, true), entry(2, 0.5, true)), 1.0)
	f.Add(cat(entry(math.MaxFloat64, -math.MaxFloat64, true), entry(-math.MaxFloat64, math.MaxFloat64, true)), 0.3)
	f.Add(cat(entry(5e-324, 0, true), entry(0, 5e-324, true)), 0.7)
	f.Fuzz(func(t *testing.T, data []byte, alpha float64) {
		if !(alpha >= 0 && alpha <= 1) {
			if _, err := Fuse(nil, nil, nil, alpha); !errors.Is(err, ErrAlpha) {
				t.Fatalf("Fuse with α=%v: %v, want ErrAlpha", alpha, err)
			}
			return
		}
		var bm25, cos []float64
		var has []bool
		for ; len(data) >= 17; data = data[17:] {
			b := math.Float64frombits(binary.LittleEndian.Uint64(data))
			c := math.Float64frombits(binary.LittleEndian.Uint64(data[8:]))
			if math.IsNaN(b) || math.IsInf(b, 0) || math.IsNaN(c) || math.IsInf(c, 0) {
				t.Skip("scores must be finite")
			}
			bm25, cos, has = append(bm25, b), append(cos, c), append(has, data[16]&1 == 1)
		}
		checkFuse(t, bm25, cos, has, alpha)
	})
}
