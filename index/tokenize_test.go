package index

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

type tokenizeCase struct {
	Input  string   `json:"input"`
	Tokens []string `json:"tokens"`
	Note   string   `json:"note"`
}

// The vectors come from the shared contract. A copy lives in testdata so the
// package tests stand alone; when the shared folder sits beside the repo its
// current version is replayed as well, so a change to the contract is seen.
func loadCases(t *testing.T) []tokenizeCase {
	t.Helper()
	var all []tokenizeCase
	for _, p := range []string{"testdata/tokenize_cases.json", filepath.Join("..", "..", "shared", "tokenize_cases.json")} {
		b, err := os.ReadFile(p)
		if os.IsNotExist(err) && !strings.HasPrefix(p, "testdata") {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var cs []tokenizeCase
		if err := json.Unmarshal(b, &cs); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		all = append(all, cs...)
	}
	if len(all) == 0 {
		t.Fatal("no tokenizer cases")
	}
	return all
}

func TestTokenizeCases(t *testing.T) {
	tok := Spec()
	for _, c := range loadCases(t) {
		t.Run(c.Note, func(t *testing.T) {
			got := tok.Tokens(c.Input)
			if len(got) == 0 && len(c.Tokens) == 0 {
				return
			}
			if !reflect.DeepEqual(got, c.Tokens) {
				t.Errorf("Tokens(%q) = %q, want %q", c.Input, got, c.Tokens)
			}
		})
	}
}

func TestTokenizeMore(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"café", []string{"café"}},                  // not cut into "caf" as [a-z0-9]+ would
		{"Straße", []string{"straße"}},              // lower-cased, not case-folded
		{"ＨＥＬＬＯ　ｗｏｒｌｄ", []string{"hello", "world"}}, // full-width space separates
		{"北京。上海", []string{"北京", "上海"}},             // CJK punctuation separates runs
		{"x²", []string{"x2"}},                      // NFKC
		{"海边beach海边", []string{"海边", "beach", "海边"}},
		{"e\u0301cole", []string{"école"}}, // combining mark composed by NFKC
		{"ABC", []string{"abc"}},
		{"漢字かなカナ", []string{"漢字", "字か", "かな", "なカ", "カナ"}},
	}
	tok := Spec()
	for _, c := range cases {
		if got := tok.Tokens(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Tokens(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEstTokens(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"likes-the-sea", 3},
		{"想去海边玩", 5},
		{"Sanya 三亚之行!", 5},
		{"!!!", 0},
	}
	for _, c := range cases {
		if got := EstTokens(c.in); got != c.want {
			t.Errorf("EstTokens(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"", "Hello, World!", "想去海边玩", "海边beach", "コーヒーが好き", "ＡＢＣ１２３", "\xff\xfe", "e\u0301", "中 文"} {
		f.Add(s)
	}
	tok := Spec()
	f.Fuzz(func(t *testing.T, s string) {
		got := tok.Tokens(s)
		again := tok.Tokens(s)
		if !reflect.DeepEqual(got, again) {
			t.Fatalf("not deterministic: %q vs %q", got, again)
		}
		for _, w := range got {
			if w == "" {
				t.Fatalf("empty token from %q", s)
			}
			runes := []rune(w)
			cjk := 0
			for _, r := range runes {
				if isCJK(r) {
					cjk++
				}
			}
			switch {
			case cjk == 0:
				// A word: letters, marks, digits only; no separators.
				if strings.ContainsAny(w, " \t\n,.!?-:/") {
					t.Fatalf("word token %q contains a separator (input %q)", w, s)
				}
			case cjk != len(runes):
				t.Fatalf("token %q mixes CJK and non-CJK (input %q)", w, s)
			case len(runes) > 2:
				t.Fatalf("CJK token %q longer than a bigram (input %q)", w, s)
			}
			if !utf8.ValidString(w) && utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 token %q from valid input", w)
			}
		}
		// The byte-level fast path agrees with a naive rune-by-rune reading
		// of SPEC §3.
		if want := naiveTokens(s); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("Tokens(%q) = %q, naive reading gives %q", s, got, want)
		}
		if got, want := normalize(s), referenceNormal(s); got != want {
			t.Fatalf("normalize(%q) = %q, the normaliser gives %q", s, got, want)
		}
		norm := normalize(s)
		if n := EstTokens(s); n > len(norm) {
			t.Fatalf("EstTokens(%q) = %d exceeds its byte length", s, n)
		}
	})
}

// naiveTokens is SPEC §3 read literally, one rune at a time.
func naiveTokens(s string) []string {
	var out []string
	var word, run []rune
	flushWord := func() {
		if len(word) > 0 {
			out = append(out, string(word))
			word = nil
		}
	}
	flushRun := func() {
		switch {
		case len(run) == 1:
			out = append(out, string(run))
		case len(run) > 1:
			for i := 0; i+1 < len(run); i++ {
				out = append(out, string(run[i:i+2]))
			}
		}
		run = nil
	}
	for _, r := range normalize(s) {
		switch {
		case isCJK(r):
			flushWord()
			run = append(run, r)
		case unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r):
			flushRun()
			word = append(word, r)
		default:
			flushWord()
			flushRun()
		}
	}
	flushWord()
	flushRun()
	return out
}

// referenceNormal is SPEC §3's normalisation done the slow way: NFKC,
// then lower case.
func referenceNormal(s string) string {
	return strings.ToLower(norm.NFKC.String(s))
}

// TestSimpleNormal: the normaliser's fast path gives what the normaliser
// gives, for every rune it claims and for text mixing them with runes
// that compose, decompose or change case.
func TestSimpleNormal(t *testing.T) {
	var claimed []rune
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if stableRune(r) || fullWidthASCII(r) {
			claimed = append(claimed, r)
			if got, want := normalize(string(r)), referenceNormal(string(r)); got != want {
				t.Fatalf("normalize(%U) = %q, the normaliser gives %q", r, got, want)
			}
		}
		// Every rune the fast path takes, ASCII included, must start a
		// segment of the normaliser: then nothing composes with what
		// precedes it or reorders across it, and the NFKC of the text is
		// the runes' own NFKC side by side, in any context (the random
		// texts below only sample that).
		if r < utf8.RuneSelf || stableRune(r) || fullWidthASCII(r) {
			if !norm.NFKC.PropertiesString(string(r)).BoundaryBefore() {
				t.Fatalf("%U may compose with the rune before it, but the fast path takes it alone", r)
			}
		}
	}
	others := []rune{'A', 'z', ' ', '?', 0x0301, 0x3099, 0x309A, 0x11A8, 0x1100, 0x1161,
		0x3000, 0x2026, 0xF900, 0x00C5, 0x0130, 0xFF76, 0x212B, 0xFFFD, 0x0345, 0x1E9E}
	r := rand.New(rand.NewPCG(1, 2))
	fast := 0
	for range 200_000 {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			if r.IntN(3) == 0 {
				b.WriteRune(others[r.IntN(len(others))])
			} else {
				b.WriteRune(claimed[r.IntN(len(claimed))])
			}
		}
		s := b.String()
		if _, ok := simpleNormal(s); ok {
			fast++
		}
		if got, want := normalize(s), referenceNormal(s); got != want {
			t.Fatalf("normalize(%q) = %q, the normaliser gives %q", s, got, want)
		}
	}
	if fast == 0 {
		t.Fatal("no text took the fast path")
	}
}
