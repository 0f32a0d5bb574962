package service

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/retrieve"
)

func f64(f float64) *float64 { return &f }

// resultCases cover every field, present and absent, nil and empty, and
// the strings and numbers whose JSON form is easy to get wrong.
var resultCases = map[string]*retrieve.Result{
	"empty":       {Items: []retrieve.Item{}, UnresolvedLinks: []string{}},
	"nil slices":  {},
	"empty drops": {Items: []retrieve.Item{}, UnresolvedLinks: []string{}, Dropped: []retrieve.Item{}},
	"full": {
		Items: []retrieve.Item{
			{Source: retrieve.SourceHit, Category: "trips", Name: "三亚之行", Content: "海边 <b>bold</b> & [[people:小雨]]\n",
				Score: 0.8312, BM25Score: f64(7.930605899135449), CosScore: f64(-0.25), MatchedTerms: []string{"海边", "边玩"}, TokensEst: 79},
			{Source: retrieve.SourceLink, Category: "people", Name: "小雨", Content: "quote \" backslash \\ tab \t cr \r nul \x00 esc \x1b del \x7f bs \b ff \f",
				Via: &retrieve.Ref{Category: "trips", Name: "三亚之行"}, TokensEst: 12},
			{Source: retrieve.SourceHit, Category: "c", Name: "n", Content: "bad utf8 \xff\xfe end \u2028 \u2029 emoji 🙂 \u00e9",
				Score: 1e-7, BM25Score: f64(1e21), MatchedTerms: []string{}, TokensEst: 0},
			{Source: retrieve.SourceHit, Category: "c", Name: "m", Score: math.Copysign(0, -1), BM25Score: f64(123456789.125), TokensEst: -3},
		},
		BudgetUsed: 91, EmbeddingUsed: true,
		UnresolvedLinks: []string{"[[daily_life:renamed-item]]", "[[x|label \"q\"]]"},
		Dropped: []retrieve.Item{
			{Source: retrieve.SourceLink, Category: "a", Name: "b", Content: "", Score: 5e-324, Via: &retrieve.Ref{}, TokensEst: 1},
		},
	},
	"time": {
		Items: []retrieve.Item{
			{Source: retrieve.SourceHit, Category: "diary", Name: "d", Score: 0, MatchedTerms: []string{}, TokensEst: 3, Date: "2024-05-03"},
			{Source: retrieve.SourceLink, Category: "people", Name: "p", Via: &retrieve.Ref{Category: "diary", Name: "d"}, TokensEst: 2,
				Date: "2023-01-02T03:04:05.123+08:00", OutsideRange: true},
		},
		UnresolvedLinks: []string{},
		TimeRange: &retrieve.TimeRange{From: time.Date(2024, 4, 29, 0, 0, 0, 0, time.FixedZone("", 8*3600)),
			To: time.Date(2024, 5, 6, 0, 0, 0, 5, time.UTC), Text: "last week \"q\""},
	},
	"validity": {
		Items: []retrieve.Item{
			{Source: retrieve.SourceHit, Category: "places", Name: "Berlin", MatchedTerms: []string{"flat"}, TokensEst: 3, Supersedes: []string{"places:Paris", "x:\"q\""}},
			{Source: retrieve.SourceLink, Category: "places", Name: "Paris", Via: &retrieve.Ref{Category: "places", Name: "Berlin"}, TokensEst: 2,
				SupersededBy: "places:Berlin", Expired: true, Supersedes: []string{}},
		},
		UnresolvedLinks: []string{"[[places:gone]]"},
	},
	"open range":  {Items: []retrieve.Item{}, UnresolvedLinks: []string{}, TimeRange: &retrieve.TimeRange{To: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)}},
	"empty range": {Items: []retrieve.Item{}, UnresolvedLinks: []string{}, TimeRange: &retrieve.TimeRange{}},
}

// TestResultJSONMatchesEncodingJSON: the fast encoder writes exactly what
// encoding/json writes, so `recall retrieve --json` and the HTTP API stay
// byte for byte what they were.
func TestResultJSONMatchesEncodingJSON(t *testing.T) {
	if !knownShape() {
		t.Fatal("retrieve.Result, Item or Ref changed: update resultFields/itemFields/refFields and appendResultJSON in resultjson.go")
	}
	for name, res := range resultCases {
		t.Run(name, func(t *testing.T) {
			checkResultJSON(t, res)
		})
	}
}

func checkResultJSON(t *testing.T, res *retrieve.Result) {
	t.Helper()
	var want, got bytes.Buffer
	if err := WriteJSON(&want, res, "  "); err != nil {
		t.Fatal(err)
	}
	b, ok := appendResultJSON(nil, res)
	if !ok {
		t.Fatal("appendResultJSON declined a result encoding/json can write")
	}
	if err := WriteResultJSON(&got, res); err != nil {
		t.Fatal(err)
	}
	if string(b) != want.String() || got.String() != want.String() {
		t.Errorf("differs from encoding/json\n--- fast:\n%s\n--- encoding/json:\n%s", b, want.String())
	}
}

// A score JSON cannot hold fails the way encoding/json fails.
func TestResultJSONNaN(t *testing.T) {
	res := &retrieve.Result{Items: []retrieve.Item{{Score: math.NaN()}}}
	var buf bytes.Buffer
	if err := WriteResultJSON(&buf, res); err == nil || !strings.Contains(err.Error(), "unsupported value") {
		t.Errorf("NaN score: %v, %q", err, buf.String())
	}
}

func FuzzResultJSON(f *testing.F) {
	f.Add("海边", "a\"b\\c\n", "\xff\u2028<&>", 7.93, 1e-7, uint8(0))
	f.Add("", "", "", 0.0, math.Copysign(0, -1), uint8(0xff))
	f.Fuzz(func(t *testing.T, cat, name, content string, score, bm float64, shape uint8) {
		if math.IsNaN(score) || math.IsInf(score, 0) || math.IsNaN(bm) || math.IsInf(bm, 0) {
			return
		}
		it := retrieve.Item{Source: retrieve.SourceHit, Category: cat, Name: name, Content: content, Score: score, TokensEst: int(shape)}
		if shape&1 != 0 {
			it.BM25Score = &bm
		}
		if shape&2 != 0 {
			it.CosScore = &score
		}
		if shape&4 != 0 {
			it.Via = &retrieve.Ref{Category: name, Name: content}
		}
		if shape&8 != 0 {
			it.MatchedTerms = []string{content, cat}
		} else if shape&16 != 0 {
			it.MatchedTerms = []string{}
		}
		res := &retrieve.Result{Items: []retrieve.Item{it, it}, BudgetUsed: int(shape) * 7, UnresolvedLinks: []string{content}}
		if shape&32 != 0 {
			res.Dropped = []retrieve.Item{it}
		}
		if shape&64 != 0 {
			res.UnresolvedLinks = nil
		}
		checkResultJSON(t, res)
	})
}
