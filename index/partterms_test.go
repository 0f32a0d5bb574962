package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestPartTerms: for random parts (several texts each, English with stems
// and stop words, Chinese, mixed, empty), the counts PartTerms gives for
// every term of the parts and for terms no part holds, and each part's
// length, are what the analyzer's tokens of each part hold, for every
// analyzer; terms absent from every part add nothing.
func TestPartTerms(t *testing.T) {
	words := strings.Fields("the running runners ran and were running quickly through ability abilities " +
		"sky skies Über café CAFÉ x86 i18n 检索记忆系统 想去海边玩 中文 a of to in is it aardvark zebra zz")
	r := rand.New(rand.NewPCG(24, 4))
	text := func() string {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteString([]string{" ", "\n", ", ", ""}[r.IntN(4)])
		}
		return b.String()
	}
	for _, a := range []*Analyzer{Spec(), English(), EnglishStop(), Default()} {
		for trial := range 50 {
			parts := make([][]string, 1+r.IntN(9))
			for i := range parts {
				for range r.IntN(4) {
					parts[i] = append(parts[i], text())
				}
			}
			p := a.PartTerms(parts)
			var all []string
			per := make([]map[string]int, len(parts))
			for i, texts := range parts {
				per[i] = map[string]int{}
				n := 0
				for _, s := range texts {
					for _, tok := range a.Tokens(s) {
						per[i][tok]++
						all = append(all, tok)
						n++
					}
				}
				if p.Len(i) != n {
					t.Fatalf("%s trial %d: part %d has %d terms, want %d", a.Name(), trial, i, p.Len(i), n)
				}
			}
			all = slices.Compact(slices.Sorted(slices.Values(all)))
			if len(p.end) != len(all) {
				t.Fatalf("%s trial %d: %d distinct terms, want %d", a.Name(), trial, len(p.end), len(all))
			}
			terms := append(slices.Clone(all), "", "absent", "zzz", "\x00", "aa")
			stride := len(terms)
			tf := make([]int, len(parts)*stride)
			for col, term := range terms {
				p.Add(term, tf, stride, col)
			}
			for i := range parts {
				for col, term := range terms {
					if got, want := tf[i*stride+col], per[i][term]; got != want {
						t.Fatalf("%s trial %d: part %d, %q: %d, want %d", a.Name(), trial, i, term, got, want)
					}
				}
			}
		}
	}
}

// TestPartTermsSize: Size is not below what the heap holds for a
// PartTerms (the section cache bounds its bytes by it).
func TestPartTermsSize(t *testing.T) {
	var parts [][]string
	for i := range 8 {
		var b strings.Builder
		for j := range 80 {
			fmt.Fprintf(&b, "w%d 检索%d ", (i*80+j)%300, j%7)
		}
		parts = append(parts, []string{fmt.Sprint("Part ", i), b.String()})
	}
	p := Default().PartTerms(parts)
	held := len(p.terms) + 4*cap(p.end) + 4*cap(p.start) + 4*cap(p.part) + 4*cap(p.count) + 4*cap(p.lens)
	if p.Size() < held {
		t.Errorf("Size %d, below the %d bytes of its slices", p.Size(), held)
	}
}
