package store

import (
	"encoding/json"
	"math"
)

// NormaliseNumbers turns the json.Number values of decoded metadata (a
// decoder with UseNumber) into what Meta.Extra holds once read back from a
// backend: int when the number is integral and fits, else float64, and the
// literal as a string when it is out of float64's range (kept rather than
// lost). Maps and slices are rewritten in place; the result replaces v.
func NormaliseNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil && i >= math.MinInt && i <= math.MaxInt {
			return int(i)
		}
		f, err := v.Float64()
		if err != nil {
			return v.String()
		}
		if f == math.Trunc(f) && f >= math.MinInt && f < -math.MinInt {
			return int(f)
		}
		return f
	case map[string]any:
		for k, x := range v {
			v[k] = NormaliseNumbers(x)
		}
	case []any:
		for i, x := range v {
			v[i] = NormaliseNumbers(x)
		}
	}
	return v
}
