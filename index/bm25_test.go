package index

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Three entries, worked by hand with k1 = 1.5, b = 0.75.
// Indexed text is name + " " + content:
//
//	a:x  "x apple banana"        |D| = 3
//	a:y  "y apple apple cherry"  |D| = 4
//	b:z  "z banana"              |D| = 2
//
// N = 3, avgdl = 9/3 = 3.
// idf(apple) = idf(banana) = ln(1 + (3-2+0.5)/(2+0.5)) = ln 1.6  = 0.4700036292
// idf(cherry)              = ln(1 + (3-1+0.5)/(1+0.5)) = ln 8/3 = 0.9808292530
// norm(|D|) = k1·(1 − b + b·|D|/avgdl): |D|=2 → 1.125, 3 → 1.5, 4 → 1.875
var handCorpus = []Input{
	{Category: "a", Name: "x", Content: "apple banana"},
	{Category: "a", Name: "y", Content: "Apple, apple; cherry!"},
	{Category: "b", Name: "z", Content: "banana"},
}

func TestBM25HandWorked(t *testing.T) {
	s := Build(7, nil, handCorpus)
	cases := []struct {
		query string
		want  []string // "category:name=score", best first
	}{
		// x: tf 1, |D| 3: 1·2.5/(1+1.5)   = 1        → 0.4700036292
		// y: tf 2, |D| 4: 2·2.5/(2+1.875) = 1.2903226 → 0.6064563
		{"apple", []string{"a:y=0.606456", "a:x=0.470004"}},
		// Repeated query terms count once (SPEC: distinct terms of Q).
		{"APPLE apple", []string{"a:y=0.606456", "a:x=0.470004"}},
		// y: cherry tf 1, |D| 4: 2.5/2.875 = 0.8695652 · 0.9808293 = 0.8528950
		// z: banana tf 1, |D| 2: 2.5/2.125 = 1.1764706 · 0.4700036 = 0.5529454
		// x: banana tf 1, |D| 3: 1 · 0.4700036                      = 0.4700036
		{"banana cherry", []string{"a:y=0.852895", "b:z=0.552945", "a:x=0.470004"}},
		// The name is indexed: "z" matches b:z only. idf = ln 8/3; |D| 2: 1.1764706·0.9808293 = 1.1539168
		{"z", []string{"b:z=1.153917"}},
		{"durian", nil},
		{"!!!", nil},
	}
	for _, c := range cases {
		var got []string
		for _, h := range s.Search(s.Terms(c.query), 10) {
			got = append(got, fmt.Sprintf("%s:%s=%.6f", h.Doc.Category, h.Doc.Name, h.Score))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Search(%q) = %v, want %v", c.query, got, c.want)
		}
	}
	if s.Revision() != 7 {
		t.Errorf("Revision = %d, want 7", s.Revision())
	}
}

func TestTiesByCategoryThenName(t *testing.T) {
	s := Build(1, nil, []Input{
		{Category: "b", Name: "n1", Content: "tie"},
		{Category: "a", Name: "n2", Content: "tie"},
		{Category: "a", Name: "n1", Content: "tie"},
		{Category: "c", Name: "n0", Content: "other words here"},
	})
	var got []string
	for _, h := range s.Search([]string{"tie"}, 0) {
		got = append(got, h.Doc.Category+":"+h.Doc.Name)
	}
	want := []string{"a:n1", "a:n2", "b:n1"}
	if !slices.Equal(got, want) {
		t.Fatalf("tie order = %v, want %v", got, want)
	}
	// The limit keeps the best under the same order.
	got = got[:0]
	for _, h := range s.Search([]string{"tie"}, 2) {
		got = append(got, h.Doc.Category+":"+h.Doc.Name)
	}
	if !slices.Equal(got, want[:2]) {
		t.Fatalf("limited tie order = %v, want %v", got, want[:2])
	}
}

func TestMatchedTermsAndLookup(t *testing.T) {
	s := Build(1, nil, handCorpus)
	y := s.Lookup("a", "y")
	if y == nil || y.Content != "Apple, apple; cherry!" {
		t.Fatalf("Lookup(a, y) = %+v", y)
	}
	if s.Lookup("a", "missing") != nil {
		t.Fatal("Lookup of a missing identity returned a doc")
	}
	if got := s.MatchedTerms(y, s.Terms("cherry banana apple")); !slices.Equal(got, []string{"apple", "cherry"}) {
		t.Fatalf("MatchedTerms = %v", got)
	}
	if tf := s.TermFreq(y, "apple"); tf != 2 {
		t.Fatalf("tf(apple, y) = %d, want 2", tf)
	}
}

// Incremental snapshots (With/Without) must score exactly like a snapshot
// built from scratch over the same live documents, through overlay growth,
// deletions of base and overlay docs, replacements and compactions.
func TestIncrementalMatchesRebuild(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"sea", "beach", "coffee", "海边", "想去", "三亚", "work", "deadline", "tea", "run", "kyoto", "trip"}
	text := func() string {
		n := 1 + r.IntN(12)
		out := ""
		for range n {
			out += words[r.IntN(len(words))] + " "
		}
		return out
	}
	live := map[docKey]string{}
	var in []Input
	for i := range 200 {
		c := Input{Category: fmt.Sprintf("c%d", i%3), Name: fmt.Sprintf("n%d", i), Content: text()}
		in = append(in, c)
		live[docKey{c.Category, c.Name}] = c.Content
	}
	s := Build(1, nil, in)
	rev := uint64(1)
	queries := []string{"sea beach", "海边 想去", "coffee tea run", "kyoto trip deadline", "work"}
	for step := range 600 {
		rev++
		k := docKey{fmt.Sprintf("c%d", r.IntN(3)), fmt.Sprintf("n%d", r.IntN(260))}
		if r.IntN(3) == 0 {
			s = s.Without(rev, k.category, k.name)
			delete(live, k)
		} else {
			c := text()
			s = s.With(rev, Input{Category: k.category, Name: k.name, Content: c})
			live[k] = c
		}
		if step%37 != 0 && step != 599 {
			continue
		}
		var fresh []Input
		for k, c := range live {
			fresh = append(fresh, Input{Category: k.category, Name: k.name, Content: c})
		}
		want := Build(rev, nil, fresh)
		if s.Count() != want.Count() {
			t.Fatalf("step %d: Count = %d, want %d", step, s.Count(), want.Count())
		}
		for _, q := range queries {
			a, b := s.Search(s.Terms(q), 0), want.Search(want.Terms(q), 0)
			if len(a) != len(b) {
				t.Fatalf("step %d %q: %d hits, rebuilt %d", step, q, len(a), len(b))
			}
			for i := range a {
				if a[i].Doc.Category != b[i].Doc.Category || a[i].Doc.Name != b[i].Doc.Name || math.Abs(a[i].Score-b[i].Score) > 1e-9 {
					t.Fatalf("step %d %q #%d: %s:%s %.9f, rebuilt %s:%s %.9f", step, q, i,
						a[i].Doc.Category, a[i].Doc.Name, a[i].Score, b[i].Doc.Category, b[i].Doc.Name, b[i].Score)
				}
			}
		}
		// Ords are unique and below Len.
		seen := map[int]bool{}
		s.Docs(func(d *Doc) bool {
			if d.Ord() < 0 || d.Ord() >= s.Len() || seen[d.Ord()] {
				t.Fatalf("step %d: bad or duplicate Ord %d (Len %d)", step, d.Ord(), s.Len())
			}
			seen[d.Ord()] = true
			return true
		})
		for k, c := range live {
			if d := s.Lookup(k.category, k.name); d == nil || d.Content != c {
				t.Fatalf("step %d: Lookup(%v) wrong", step, k)
			}
		}
	}
}

// Older snapshots never change when newer ones are derived from them.
func TestSnapshotImmutable(t *testing.T) {
	s1 := Build(1, nil, handCorpus)
	before := s1.Search(s1.Terms("apple banana cherry"), 0)
	s2 := s1.With(2, Input{Category: "a", Name: "x", Content: "durian"})
	s3 := s2.Without(3, "a", "y")
	after := s1.Search(s1.Terms("apple banana cherry"), 0)
	if len(before) != len(after) {
		t.Fatalf("s1 changed: %d hits, then %d", len(before), len(after))
	}
	for i := range before {
		if before[i] != after[i] {
			t.Fatalf("s1 changed at %d", i)
		}
	}
	if s3.Lookup("a", "y") != nil || s2.Lookup("a", "y") == nil {
		t.Fatal("Without leaked into the parent snapshot")
	}
	if got := s3.Lookup("a", "x").Content; got != "durian" {
		t.Fatalf("s3 a:x = %q", got)
	}
	if got := s1.Lookup("a", "x").Content; got != "apple banana" {
		t.Fatalf("s1 a:x = %q", got)
	}
}

// The per-document estimate equals SPEC §7's est_tokens(name + "\n" +
// content), through builds and incremental writes.
func TestDocTokensEst(t *testing.T) {
	in := []Input{
		{Category: "c", Name: "三亚之行", Content: "想去海边玩, likes-the-sea ＡＢＣ"},
		{Category: "c", Name: "plain", Content: "one two three"},
		{Category: "c", Name: "empty", Content: ""},
	}
	s := Build(1, nil, in)
	s = s.With(2, Input{Category: "c", Name: "new 名字", Content: "コーヒーが好き!"})
	for _, d := range append(in, Input{Category: "c", Name: "new 名字", Content: "コーヒーが好き!"}) {
		got := s.Lookup(d.Category, d.Name).TokensEst()
		if want := EstTokens(d.Name + "\n" + d.Content); got != want {
			t.Errorf("%s: TokensEst = %d, EstTokens = %d", d.Name, got, want)
		}
	}
}
