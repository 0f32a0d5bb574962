package hash

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/recallhq/recall/embed"
)

func vec(t *testing.T, e *Embedder, s string) []float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), []string{s})
	if err != nil {
		t.Fatal(err)
	}
	return v[0]
}

func TestUnitLengthAndDimension(t *testing.T) {
	e, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if e.Model() != "hash:v2-n3-5:512" {
		t.Fatalf("Model = %q", e.Model())
	}
	for _, s := range []string{"", "!!!", "hello", "想去海边玩", "a b c d e f g", "ÀÉÎ café"} {
		v := vec(t, e, s)
		if len(v) != DefaultDim {
			t.Fatalf("%q: dim %d", s, len(v))
		}
		var sum float64
		for _, x := range v {
			sum += float64(x) * float64(x)
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Fatalf("%q: |v|² = %v", s, sum)
		}
	}
}

// The hash function is part of the model's identity: cached vectors written
// by one process are read by another. If this test fails, the features
// changed, and the model identity ("v2") must change with them.
func TestVectorsStableAcrossProcesses(t *testing.T) {
	e, _ := New(Config{Dim: 16})
	got := fmt.Sprintf("%.4f", vec(t, e, "Hello world 海边"))
	want := "[0.2236 0.0000 0.0000 -0.2236 0.0000 -0.2236 -0.3873 0.2236 0.2236 -0.2236 -0.2236 -0.4472 0.2236 0.2236 -0.3873 0.2236]"
	if got != want {
		t.Fatalf("vector changed:\n got %s\nwant %s", got, want)
	}
}

func TestSimilarityShape(t *testing.T) {
	e, _ := New(Config{})
	sim := func(a, b string) float32 { return embed.Dot(vec(t, e, a), vec(t, e, b)) }
	cases := []struct {
		a, near, far string
	}{
		{"running shoes", "runner shoe", "banana bread"},               // morphology
		{"receive the package", "recieve the pakage", "lunch at noon"}, // typos
		{"想去海边玩", "海边的日落", "周一开会"},                                     // CJK overlap
		{"Kyoto trip in autumn", "kyoto trips", "tax return form"},
	}
	for _, c := range cases {
		if n, f := sim(c.a, c.near), sim(c.a, c.far); n <= f {
			t.Errorf("sim(%q, %q) = %.3f not above sim(%q, %q) = %.3f", c.a, c.near, n, c.a, c.far, f)
		}
	}
	if s := sim("same text", "same text"); math.Abs(float64(s)-1) > 1e-5 {
		t.Errorf("self similarity %v", s)
	}
	if e.DefaultAlpha() <= 0.5 || e.DefaultAlpha() > 1 {
		t.Errorf("DefaultAlpha = %v", e.DefaultAlpha())
	}
}

// Each bound is checked at its edge, and an error names what is wrong
// with the value given.
func TestConfigValidate(t *testing.T) {
	tests := []struct {
		c    Config
		want string // "" means valid
	}{
		{Config{}, ""},
		{Config{Dim: 8}, ""},
		{Config{Dim: 1 << 16}, ""},
		{Config{MinN: 1, MaxN: 12}, ""},
		{Config{MinN: 3, MaxN: 3}, ""},
		{Config{Dim: 7}, "dimension 7 outside [8, 65536]"},
		{Config{Dim: 1<<16 + 1}, "dimension 65537 outside [8, 65536]"},
		{Config{Dim: -1}, "dimension -1 outside"},
		{Config{MinN: 4, MaxN: 2}, "n-gram range 4..2 invalid"},
		{Config{MinN: 1, MaxN: 13}, "n-gram range 1..13 invalid"},
		{Config{MinN: -1, MaxN: 3}, "n-gram range -1..3 invalid"},
		{Config{MinN: 6}, "n-gram range 6..5 invalid"}, // MaxN defaults to 5
	}
	for _, tt := range tests {
		err := tt.c.Validate()
		e, newErr := New(tt.c)
		switch {
		case tt.want == "" && (err != nil || newErr != nil || e == nil):
			t.Errorf("%+v: Validate %v, New %v; want both to accept it", tt.c, err, newErr)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%+v: Validate = %v, want an error containing %q", tt.c, err, tt.want)
		case tt.want != "" && (newErr == nil || newErr.Error() != err.Error()):
			t.Errorf("%+v: New = %v, want Validate's error %v", tt.c, newErr, err)
		}
	}
}

func TestEmbedHonoursContext(t *testing.T) {
	e, _ := New(Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Embed(ctx, []string{"a"}); err == nil {
		t.Fatal("cancelled context ignored")
	}
}
