package index

import (
	"slices"
	"testing"
)

func TestAnalyzerNames(t *testing.T) {
	var nilA *Analyzer
	for _, c := range []struct {
		a    *Analyzer
		want string
	}{{nilA, "spec"}, {Spec(), "spec"}, {English(), "english"}, {EnglishStop(), "english-stop"}, {Default(), DefaultAnalyzer}} {
		if got := c.a.Name(); got != c.want {
			t.Errorf("Name() = %q, want %q", got, c.want)
		}
	}
	for _, n := range Analyzers() {
		a, err := ParseAnalyzer(n)
		if err != nil || a.Name() != n {
			t.Errorf("ParseAnalyzer(%q) = %v, %v", n, a, err)
		}
	}
	if _, err := ParseAnalyzer("klingon"); err == nil {
		t.Error("ParseAnalyzer accepted klingon")
	}
	snap := Build(1, English(), []Input{{Category: "c", Name: "n", Content: "x"}})
	if snap.Analyzer().Name() != "english" || snap.With(2, Input{Category: "c", Name: "m"}).Compact().Analyzer().Name() != "english" {
		t.Error("a snapshot lost its analyzer")
	}
}

func TestEnglishStemsLatinWordsOnly(t *testing.T) {
	got := English().Tokens("Running shoes 跑步鞋 MP3s 2025 cafés Москва running's naïvely")
	want := []string{"run", "shoe", "跑步", "步鞋", "mp3s", "2025", "café", "москва", "run", "s", "naïv"}
	if !slices.Equal(got, want) {
		t.Errorf("English tokens = %q, want %q", got, want)
	}
	// SPEC §3 is untouched by the existence of other analyzers.
	if got := Spec().Tokens("Running shoes"); !slices.Equal(got, []string{"running", "shoes"}) {
		t.Errorf("Spec tokens = %q", got)
	}
}

func TestEnglishStopWords(t *testing.T) {
	got := EnglishStop().Tokens("What is the capital of France? It's Paris, not Lyon.")
	want := []string{"what", "capit", "franc", "s", "pari", "lyon"}
	if !slices.Equal(got, want) {
		t.Errorf("EnglishStop tokens = %q, want %q", got, want)
	}
	// Stop words still cost LLM tokens.
	snap := Build(1, EnglishStop(), []Input{{Category: "c", Name: "the", Content: "of the sea"}})
	d := snap.Lookup("c", "the")
	if snap.DocLen(d) != 1 || d.TokensEst() != 4 {
		t.Errorf("|D| = %d, tokens_est = %d; want 1 and 4", snap.DocLen(d), d.TokensEst())
	}
}

func TestQueryWords(t *testing.T) {
	q := English().Query("Running runs, run! 海边 the")
	if !slices.Equal(q.Terms, []string{"run", "the", "海边"}) {
		t.Fatalf("terms = %q", q.Terms)
	}
	if got := q.Words([]string{"run", "海边"}); !slices.Equal(got, []string{"run", "running", "runs", "海边"}) {
		t.Errorf("words = %q", got)
	}
	if got := q.Words(nil); got != nil {
		t.Errorf("Words(nil) = %q", got)
	}
	s := Spec().Query("b a b 海边")
	if got := s.Words([]string{"a", "b"}); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("spec words = %q", got)
	}
	// End to end: a snapshot matches the stem and shows the query's word.
	snap := Build(1, English(), []Input{{Category: "c", Name: "n", Content: "she runs daily"}})
	q = snap.Query("running")
	hits := snap.Search(q.Terms, 10)
	if len(hits) != 1 {
		t.Fatalf("hits = %v", hits)
	}
	if got := q.Words(snap.Matched(hits[0].Doc, q.Terms, hits[0].Matched)); !slices.Equal(got, []string{"running"}) {
		t.Errorf("matched words = %q", got)
	}
}

// A custom chain: filters run in order on words, never on CJK terms.
func TestCustomFilter(t *testing.T) {
	a := NewAnalyzer("upper", nil, upper{})
	if got := a.Tokens("ab 海边"); !slices.Equal(got, []string{"AB", "海边"}) {
		t.Errorf("tokens = %q", got)
	}
	if a.Name() != "upper" || a.WithSegmenter(fakeSeg{}).Name() != "upper+fake" {
		t.Errorf("names = %q, %q", a.Name(), a.WithSegmenter(fakeSeg{}).Name())
	}
	if got := a.WithSegmenter(fakeSeg{}).Tokens("ab 海边玩"); !slices.Equal(got, []string{"AB", "海边玩!"}) {
		t.Errorf("segmented tokens = %q", got)
	}
}

type upper struct{}

func (upper) Filter(w string) (string, bool) {
	b := []byte(w)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b), true
}

type fakeSeg struct{}

func (fakeSeg) Segment(dst []string, run string) ([]string, bool) { return append(dst, run+"!"), true }
func (fakeSeg) Name() string                                      { return "fake" }
