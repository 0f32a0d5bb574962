package fusion

import (
	"errors"
	"fmt"
	"math"
)

// DefaultAlpha is the weight of the BM25 side when none is configured.
const DefaultAlpha = 0.5

// Sentinel errors, wrapped with the offending values.
var (
	// ErrAlpha means α is outside [0, 1] (or NaN).
	ErrAlpha = errors.New("alpha must be in [0, 1]")
	// ErrLength means the score slices are not aligned.
	ErrLength = errors.New("score slices differ in length")
)

// ValidateAlpha reports whether alpha can weigh the two sides.
func ValidateAlpha(alpha float64) error {
	if !(alpha >= 0 && alpha <= 1) { // written so that NaN fails
		return fmt.Errorf("%w: %v", ErrAlpha, alpha)
	}
	return nil
}

// MinMax returns xs scaled to [0, 1] over all of its elements:
// (x − min) / (max − min), or, when max == min, 1 for every element if
// that value is above 0 and 0 otherwise. It returns a new slice; order is
// preserved (x ≤ y implies MinMax(x) ≤ MinMax(y)).
func MinMax(xs []float64) []float64 {
	out := make([]float64, len(xs))
	lo, hi, ok := bounds(xs, func(int) bool { return true })
	if !ok {
		return out
	}
	for i, x := range xs {
		out[i] = scale(x, lo, hi)
	}
	return out
}

// Fuse returns, for each entry i, α·mm(bm25[i]) + (1−α)·mm(cos[i]).
//
// The slices are aligned by entry. hasVec[i] says whether entry i has a
// vector (nil means every entry has one); cos[i] is read only when it
// does. Candidates are the entries with bm25 > 0 or a vector; mm of the
// BM25 side is taken over all candidates, mm of the cosine side over the
// candidates with a vector (see the package documentation). Entries that
// are not candidates score 0, and an entry without a vector gets 0 on the
// cosine side. Every result is in [0, 1]; 0 means not a hit.
//
// It fails with ErrAlpha or ErrLength, and never on the scores themselves.
func Fuse(bm25, cos []float64, hasVec []bool, alpha float64) ([]float64, error) {
	if err := ValidateAlpha(alpha); err != nil {
		return nil, err
	}
	if len(cos) != len(bm25) || (hasVec != nil && len(hasVec) != len(bm25)) {
		return nil, fmt.Errorf("%w: %d bm25, %d cos, %d hasVec", ErrLength, len(bm25), len(cos), len(hasVec))
	}
	// Bounds in one pass, without per-element closures: this loop runs
	// over every entry of the store on each fused retrieve.
	var (
		bLo, bHi, cLo, cHi float64
		bOK, cOK           bool
	)
	for i, b := range bm25 {
		v := hasVec == nil || hasVec[i]
		if v {
			c := cos[i]
			if !cOK {
				cLo, cHi, cOK = c, c, true
			} else {
				cLo, cHi = min(cLo, c), max(cHi, c)
			}
		}
		if b > 0 || v {
			if !bOK {
				bLo, bHi, bOK = b, b, true
			} else {
				bLo, bHi = min(bLo, b), max(bHi, b)
			}
		}
	}
	out := make([]float64, len(bm25))
	for i, b := range bm25 {
		v := hasVec == nil || hasVec[i]
		if !(b > 0 || v) {
			continue
		}
		f := alpha * scale(b, bLo, bHi)
		if v {
			f += (1 - alpha) * scale(cos[i], cLo, cHi)
		}
		// Both terms are in [0, 1] and their weights add up to 1, but
		// 1−α is rounded, so the sum could exceed 1 by an ulp.
		out[i] = min(max(f, 0), 1)
	}
	return out, nil
}

// bounds returns the minimum and maximum of the xs[i] for which in(i)
// holds, and false when there is none.
func bounds(xs []float64, in func(int) bool) (lo, hi float64, ok bool) {
	for i, x := range xs {
		if !in(i) {
			continue
		}
		if !ok {
			lo, hi, ok = x, x, true
			continue
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi, ok
}

// scale maps x in [lo, hi] to [0, 1], with the max == min rule of SPEC §6.
func scale(x, lo, hi float64) float64 {
	if hi == lo {
		if hi > 0 {
			return 1
		}
		return 0
	}
	span := hi - lo
	if math.IsInf(span, 1) {
		// Only for magnitudes near MaxFloat64; halving first keeps the
		// difference finite and the result in [0, 1].
		return (x/2 - lo/2) / (hi/2 - lo/2)
	}
	return (x - lo) / span
}
