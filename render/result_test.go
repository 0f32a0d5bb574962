package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/recallhq/recall/retrieve"
)

func TestWriteResult(t *testing.T) {
	bm25 := 1.5
	res := &retrieve.Result{
		Items: []retrieve.Item{
			{Source: retrieve.SourceHit, Category: "trips", Name: "sanya", Content: "beach\r\n\nsea\x1b[31m\n",
				Score: 1.5, BM25Score: &bm25, MatchedTerms: []string{"beach"}, TokensEst: 7},
			{Source: retrieve.SourceLink, Category: "people", Name: "alice", Content: "",
				Via: &retrieve.Ref{Category: "trips", Name: "sanya"}, TokensEst: 2},
		},
		BudgetUsed:      9,
		UnresolvedLinks: []string{"trips:gone"},
		Dropped:         []retrieve.Item{{Source: retrieve.SourceHit, Category: "notes", Name: "x", Score: 0.25, BM25Score: new(float64), TokensEst: 900}},
	}
	tests := []struct {
		name    string
		budget  int
		explain bool
		sty     Style
		want    string
	}{
		{"plain", 800, false, Style{}, "1. hit trips:sanya  score=1.500 bm25=1.500 matched=beach tokens=7\n" +
			"    beach\n\n    sea\\x1b[31m\n\n" +
			"2. link people:alice  via=trips:sanya tokens=2\n    (empty)\n\n" +
			"2 items, 9/800 tokens, embedding not used\nunresolved links:\n  trips:gone\n"},
		{"no budget, explain", -1, true, Style{}, "1. hit trips:sanya  score=1.500 bm25=1.500 matched=beach tokens=7\n" +
			"    beach\n\n    sea\\x1b[31m\n\n" +
			"2. link people:alice  via=trips:sanya tokens=2\n    (empty)\n\n" +
			"2 items, 9 tokens (no budget), embedding not used\nunresolved links:\n  trips:gone\n" +
			"dropped by the budget:\n  3. hit notes:x  score=0.250 bm25=0.000 tokens=900\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteResult(&b, res, tt.budget, tt.explain, tt.sty); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tt.want)
			}
		})
	}
}

func TestWriteResultEmptyExplain(t *testing.T) {
	var b bytes.Buffer
	if err := WriteResult(&b, &retrieve.Result{EmbeddingUsed: true}, 800, true, Style{Color: true}); err != nil {
		t.Fatal(err)
	}
	if want := "0 items, 0/800 tokens, embedding used\ndropped by the budget: none\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestStyle(t *testing.T) {
	if got := (Style{Color: true}).bold("k"); got != "\x1b[1mk\x1b[0m" {
		t.Errorf("bold with colour = %q", got)
	}
	if got := (Style{Color: true}).dim(""); got != "" {
		t.Errorf("dim of nothing = %q, want nothing", got)
	}
	if got := (Style{}).bold("k"); got != "k" {
		t.Errorf("bold without colour = %q", got)
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 entries", 1: "1 entry", 2: "2 entries"} {
		if got := Plural(n, "entry", "entries"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}

// StyleFor gives colour only to a terminal; a buffer never gets it,
// whatever the environment says.
func TestStyleFor(t *testing.T) {
	env := func(string) string { return "" }
	if StyleFor(&strings.Builder{}, env).Color {
		t.Error("colour on a buffer")
	}
	if StyleFor(nil, env).Color {
		t.Error("colour on nothing")
	}
}
