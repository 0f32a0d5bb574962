package index

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestLargeTermFreq: a tf of 255 or more is stored escaped (tfEscape, the
// exact value in the segment's bigTF table). TermFreq returns the exact
// tf, every scorer scores with it, bit for bit the formula of SPEC §4,
// and Encode/Decode keeps it.
func TestLargeTermFreq(t *testing.T) {
	reps := map[string]int{"r1": 1, "r254": 254, "r255": 255, "r256": 256, "r300": 300, "r70000": 70_000}
	var in []Input
	for name, n := range reps {
		in = append(in, Input{Category: "big", Name: name, Content: strings.Repeat("zeta ", n) + "rare"})
	}
	// Enough other documents holding zeta once for a list of several
	// blocks and an impact order (impactMin).
	for i := range 1500 {
		in = append(in, Input{Category: "fill", Name: fmt.Sprintf("f%d", i), Content: fmt.Sprintf("zeta filler w%d", i%37)})
	}
	built := Build(1, Spec(), in)
	if len(built.base.bigTF.pos) != 4 {
		t.Fatalf("%d escaped tfs, want 4 (255, 256, 300, 70000)", len(built.base.bigTF.pos))
	}
	loaded, _, err := Decode(Encode(built, nil), Spec(), 1)
	if err != nil {
		t.Fatal(err)
	}
	// With a dead document the exhaustive scorer takes its other loop:
	// the same answer as a build without the document.
	del := built.Without(2, "fill", "f7")
	fresh := Build(2, Spec(), slices.DeleteFunc(slices.Clone(in), func(x Input) bool { return x.Name == "f7" }))
	for _, q := range []string{"zeta", "zeta rare"} {
		for _, pr := range []Pruning{PruneNever, PruneAlways} {
			a, _ := del.Top(TopQuery{Terms: del.Terms(q), Limit: 0, Pruning: pr})
			b, _ := fresh.Top(TopQuery{Terms: fresh.Terms(q), Limit: 0, Pruning: pr})
			if len(a) != len(b) {
				t.Fatalf("%q after a delete: %d hits, want %d", q, len(a), len(b))
			}
			for i := range a {
				if a[i].Doc.Name != b[i].Doc.Name || a[i].Score != b[i].Score {
					t.Fatalf("%q after a delete #%d: %s %v, want %s %v", q, i, a[i].Doc.Name, a[i].Score, b[i].Doc.Name, b[i].Score)
				}
			}
		}
	}
	for _, s := range []*Snapshot{built, loaded} {
		zeta, rare := s.Terms("zeta")[0], s.Terms("rare")[0]
		N := float64(s.Count())
		avgdl := float64(s.totalLen) / N
		idf := func(df int) float64 { return math.Log(1 + (N-float64(df)+0.5)/(float64(df)+0.5)) }
		w := func(df, tf, dl int) float64 {
			if tf == 0 {
				return 0
			}
			return idf(df) * float64(tf) * (K1 + 1) / (float64(tf) + K1*(1-B) + K1*B/avgdl*float64(dl))
		}
		want := map[string]float64{} // by name, query "zeta rare"
		wantZeta := map[string]float64{}
		s.Docs(func(d *Doc) bool {
			tf := 1
			if n, ok := reps[d.Name]; ok && d.Category == "big" {
				tf = n
			}
			if got := s.TermFreq(d, zeta); got != tf {
				t.Fatalf("TermFreq(%s, zeta) = %d, want %d", d.Name, got, tf)
			}
			rtf := 0
			if d.Category == "big" {
				rtf = 1
			}
			if got := s.TermFreq(d, rare); got != rtf {
				t.Fatalf("TermFreq(%s, rare) = %d, want %d", d.Name, got, rtf)
			}
			dl := s.DocLen(d)
			wantZeta[d.Name] = 0 + w(s.Count(), tf, dl)
			want[d.Name] = 0 + w(s.Count(), tf, dl) + w(len(reps), rtf, dl)
			return true
		})
		for _, q := range []struct {
			terms []string
			want  map[string]float64
		}{{[]string{zeta}, wantZeta}, {s.Terms("zeta rare"), want}} {
			for _, k := range []int{1, 3, 10, 0} {
				for _, pr := range []Pruning{PruneNever, PruneAuto, PruneAlways} {
					hits, err := s.Top(TopQuery{Terms: q.terms, Limit: k, Pruning: pr})
					if err != nil {
						t.Fatal(err)
					}
					if k > 0 && len(hits) != k || k == 0 && len(hits) != s.Count() {
						t.Fatalf("%v k=%d pruning %d: %d hits", q.terms, k, pr, len(hits))
					}
					for i, h := range hits {
						if h.Score != q.want[h.Doc.Name] {
							t.Fatalf("%v k=%d pruning %d: %s scores %v, want %v", q.terms, k, pr, h.Doc.Name, h.Score, q.want[h.Doc.Name])
						}
						if i > 0 && Less(h, hits[i-1]) {
							t.Fatalf("%v k=%d pruning %d: out of order at %d", q.terms, k, pr, i)
						}
					}
					if k == 1 && len(q.terms) == 1 && hits[0].Doc.Name != "r70000" {
						t.Fatalf("%v: best is %s, want r70000", q.terms, hits[0].Doc.Name)
					}
				}
			}
		}
	}
}
