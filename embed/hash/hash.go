package hash

import (
	"context"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/recallhq/recall/embed"
	"github.com/recallhq/recall/index"
)

// Defaults, chosen on the four datasets of docs/benchmarks.md (the
// measurements are in that file).
const (
	DefaultDim  = 512
	DefaultMinN = 3
	DefaultMaxN = 5
	// DefaultAlpha is the BM25 weight fusion should give this embedder's
	// cosine (fused = α·bm25 + (1−α)·cos after min-max). The hash signal
	// overlaps BM25's own terms, so it earns a small share: at SPEC §6's
	// general default of 0.5 it pulls BM25 down on every set measured.
	DefaultAlpha = 0.9
)

// Config configures an Embedder. The zero value means the defaults.
type Config struct {
	// Dim is the vector dimension (number of hash buckets).
	Dim int
	// MinN and MaxN bound the character n-grams taken from each non-CJK
	// word (with '<' and '>' marking its ends, as fastText does). Zero
	// means the default.
	MinN, MaxN int
}

// Validate reports whether the configuration is usable.
func (c Config) Validate() error {
	c = c.withDefaults()
	switch {
	case c.Dim < 8 || c.Dim > 1<<16:
		return fmt.Errorf("hash embedder: dimension %d outside [8, 65536]", c.Dim)
	case c.MinN < 1 || c.MaxN < c.MinN || c.MaxN > 12:
		return fmt.Errorf("hash embedder: n-gram range %d..%d invalid (want 1 <= min <= max <= 12)", c.MinN, c.MaxN)
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.Dim == 0 {
		c.Dim = DefaultDim
	}
	if c.MinN == 0 {
		c.MinN = DefaultMinN
	}
	if c.MaxN == 0 {
		c.MaxN = DefaultMaxN
	}
	return c
}

// Embedder is a model-free embedder: feature hashing of recall's index
// terms plus the character n-grams of each word. It is safe for
// concurrent use and never fails on text.
type Embedder struct {
	cfg   Config
	tok   *index.Analyzer
	model string
}

// New returns a hash embedder.
func New(cfg Config) (*Embedder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	return &Embedder{
		cfg:   cfg,
		tok:   index.Spec(),
		model: embed.Identity("hash", fmt.Sprintf("v2-n%d-%d", cfg.MinN, cfg.MaxN), cfg.Dim),
	}, nil
}

// Model identifies the feature set and dimension, e.g. "hash:v2-n3-5:512".
func (e *Embedder) Model() string { return e.model }

// DefaultAlpha is the fusion weight this embedder is meant to be used with
// (see the constant); retrieve picks it up when no α is configured.
func (e *Embedder) DefaultAlpha() float64 { return DefaultAlpha }

// Embed returns one unit vector per text. A text without any term maps to
// the zero vector's stand-in: a fixed unit vector no real text produces
// with weight, so that the contract (unit length) holds.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = e.vector(t)
	}
	return out, nil
}

func (e *Embedder) vector(text string) []float32 {
	v := make([]float32, e.cfg.Dim)
	// Terms in order of first appearance, so float sums are identical
	// from run to run.
	counts := map[string]int{}
	var terms []string
	for _, t := range e.tok.Tokens(text) {
		if counts[t] == 0 {
			terms = append(terms, t)
		}
		counts[t]++
	}
	// Whole terms are left out on purpose: BM25 already scores them, with
	// IDF, and an unweighted copy only dilutes it. What the vector adds is
	// what BM25 cannot see: shared character n-grams of different words
	// (morphology, typos) and shared characters of different CJK bigrams.
	for _, term := range terms {
		w := float32(1 + math.Log(float64(counts[term])))
		first, _ := utf8.DecodeRuneInString(term)
		if index.IsCJK(first) {
			for _, r := range term {
				e.add(v, string(r), 0.5*w)
			}
			continue
		}
		e.subwords(v, term, w)
	}
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		v[0] = 1
		return v
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
	return v
}

// subwords adds the character n-grams of "<term>", weighted so that a
// word's n-grams together weigh about as much as the word itself.
func (e *Embedder) subwords(v []float32, term string, w float32) {
	runes := []rune("<" + term + ">")
	var grams []string
	for n := e.cfg.MinN; n <= e.cfg.MaxN; n++ {
		for i := 0; i+n <= len(runes); i++ {
			grams = append(grams, string(runes[i:i+n]))
		}
	}
	if len(grams) == 0 {
		return
	}
	gw := w / float32(math.Sqrt(float64(len(grams))))
	for _, g := range grams {
		e.add(v, "#"+g, gw)
	}
}

// add hashes a feature to a bucket and a sign (the sign halves collision
// bias, as in Weinberger et al.'s feature hashing).
func (e *Embedder) add(v []float32, feature string, w float32) {
	h := fnv1a(feature)
	i := h % uint64(len(v))
	if h>>63 == 1 {
		w = -w
	}
	v[i] += w
}

// fnv1a is FNV-1a 64 followed by a final avalanche (FNV's low bits mix
// poorly for short keys). It is fixed forever for a model identity:
// vectors are cached on disk and must be identical in every process.
func fnv1a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}
