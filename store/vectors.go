package store

import "fmt"

// Limits of the embedding vector cache that backends may implement (see
// package embed/cache), shared so that a vector one backend accepts every
// other accepts too.
const (
	// MaxModelBytes bounds a model identity ("openai:text-embedding-3-small:1536").
	MaxModelBytes = 1024
	// MaxVectorDim bounds a vector's length; real models stay far below.
	MaxVectorDim = 1 << 16
	// VectorKeyLen is the length of a vector key: the hex SHA-256 of the
	// embedded text.
	VectorKeyLen = 64
)

// ValidateModel checks a model identity used to group cached vectors.
func ValidateModel(model string) error {
	if model == "" || len(model) > MaxModelBytes {
		v := model
		if len(v) > 60 {
			v = v[:60] + "…"
		}
		return &FieldError{Field: "model", Value: v, Reason: fmt.Sprintf("must be 1 to %d bytes", MaxModelBytes)}
	}
	return nil
}

// ValidateVectorKey accepts exactly what a hex-encoded SHA-256 looks like,
// in lower case, so a key reads back spelled as it was written.
func ValidateVectorKey(key string) error {
	ok := len(key) == VectorKeyLen
	for i := 0; ok && i < len(key); i++ {
		c := key[i]
		ok = '0' <= c && c <= '9' || 'a' <= c && c <= 'f'
	}
	if !ok {
		v := key
		if len(v) > 80 {
			v = v[:80] + "…"
		}
		return &FieldError{Field: "vector key", Value: v,
			Reason: fmt.Sprintf("must be %d lower-case hex digits (a SHA-256)", VectorKeyLen)}
	}
	return nil
}

// ValidateVectors checks a batch given to a backend's PutVectors: aligned
// keys and vectors, valid keys, 1 to MaxVectorDim dimensions.
func ValidateVectors(keys []string, vecs [][]float32) error {
	if len(keys) != len(vecs) {
		return fmt.Errorf("%w: %d keys but %d vectors", ErrInvalid, len(keys), len(vecs))
	}
	for i, k := range keys {
		if err := ValidateVectorKey(k); err != nil {
			return err
		}
		if n := len(vecs[i]); n == 0 || n > MaxVectorDim {
			return &FieldError{Field: "vector", Value: k,
				Reason: fmt.Sprintf("has %d dimensions, want 1 to %d", n, MaxVectorDim)}
		}
	}
	return nil
}
