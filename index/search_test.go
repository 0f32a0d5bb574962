package index_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/internal/synth"
)

// sameTop fails unless the pruned and the exhaustive search agree exactly:
// same documents, same order, bit-identical scores and matched masks.
func sameTop(t *testing.T, s *index.Snapshot, terms []string, k int) {
	t.Helper()
	want, err := s.Top(index.TopQuery{Terms: terms, Limit: k, Pruning: index.PruneNever})
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []index.Pruning{index.PruneAuto, index.PruneAlways} {
		got, err := s.Top(index.TopQuery{Terms: terms, Limit: k, Pruning: mode})
		if err != nil {
			t.Fatal(err)
		}
		sameResults(t, terms, k, got, want)
	}
}

func sameResults(t *testing.T, terms []string, k int, got, want []index.Scored) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("terms %q k %d: %d results, exhaustive %d", terms, k, len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Doc != w.Doc || g.Score != w.Score || g.Matched != w.Matched {
			t.Fatalf("terms %q k %d: result %d is %s:%s %v %b, exhaustive %s:%s %v %b",
				terms, k, i, g.Doc.Category, g.Doc.Name, g.Score, g.Matched, w.Doc.Category, w.Doc.Name, w.Score, w.Matched)
		}
	}
}

// TestPrunedEqualsExhaustive checks the pruned top-k against exhaustive
// scoring on a generated corpus, with and without an overlay of writes and
// deletes, for short and long queries and several k. It runs on one
// goroutine, so the race detector adds only cost: under -race, or with
// -short, 10,000 documents instead of 100,000, and with -short 60 queries
// of 400.
func TestPrunedEqualsExhaustive(t *testing.T) {
	n, nq := 100_000, 300
	if testing.Short() || raceEnabled {
		n = 10_000
	}
	if testing.Short() {
		nq = 45
	}
	in, _, _ := inputs(n)
	s := index.Build(1, nil, in)
	g := synth.New(7, 20_000)
	var queries [][]string
	for i := range nq {
		queries = append(queries, s.Terms(g.Query(1+i%8)))
	}
	// English-like queries with very common terms mixed in.
	common := g.Common(6)
	for i := range nq / 3 {
		q := append([]string{}, queries[i]...)
		q = append(q, common[:1+i%len(common)]...)
		queries = append(queries, s.Terms(fmt.Sprint(q)))
	}
	check := func(s *index.Snapshot) {
		for _, q := range queries {
			for _, k := range []int{1, 10, 100} {
				sameTop(t, s, q, k)
			}
		}
	}
	check(s)

	// An overlay: replace, add and delete some documents.
	r := rand.New(rand.NewPCG(1, 2))
	o := s
	extra := synth.New(9, 20_000).Entries(200, 80)
	for i, e := range extra {
		switch i % 3 {
		case 0: // replace an existing identity
			d := in[r.IntN(len(in))]
			o = o.With(uint64(2+i), index.Input{Category: d.Category, Name: d.Name, Content: e.Content})
		case 1:
			o = o.With(uint64(2+i), index.Input{Category: e.Category, Name: e.Name + "-new", Content: e.Content})
		default:
			d := in[r.IntN(len(in))]
			o = o.Without(uint64(2+i), d.Category, d.Name)
		}
	}
	check(o)
}

// TestTiesSurvivePruning: many documents with the same score; the pruned
// search must keep the ones first by category and name.
func TestTiesSurvivePruning(t *testing.T) {
	var in []index.Input
	for i := range 3000 {
		in = append(in, index.Input{Category: fmt.Sprintf("c%d", (i*7919)%97), Name: fmt.Sprintf("n%04d", (i*104729)%3000), Content: "alpha beta"})
		if i%10 == 0 {
			in = append(in, index.Input{Category: "z", Name: fmt.Sprintf("g%04d", i), Content: "gamma alpha"})
		}
	}
	s := index.Build(1, nil, in)
	for _, k := range []int{1, 5, 10, 100, 1000} {
		sameTop(t, s, s.Terms("alpha beta gamma"), k)
		sameTop(t, s, s.Terms("alpha gamma"), k)
	}
}

func TestTopCanceled(t *testing.T) {
	in, _, _ := inputs(5000)
	s := index.Build(1, nil, in)
	done := make(chan struct{})
	close(done)
	terms := s.Terms(strings.Join(synth.New(42, 20_000).Common(6), " "))
	for _, mode := range []index.Pruning{index.PruneAlways, index.PruneNever} {
		if _, err := s.Top(index.TopQuery{Terms: terms, Limit: 10, Done: done, Pruning: mode}); err != index.ErrCanceled {
			t.Errorf("pruning %d: err = %v, want ErrCanceled", mode, err)
		}
	}
}

// TestMatchedAllLongQuery: past the 64th term, matched terms come from a
// pass over the lists; they must equal the per-hit lookups.
func TestMatchedAllLongQuery(t *testing.T) {
	in, _, _ := inputs(2000)
	s := index.Build(1, nil, in)
	s = s.With(2, index.Input{Category: "x", Name: "y", Content: in[0].Content + " " + in[1].Content})
	var long []string
	for i := range 40 {
		long = append(long, in[i].Content)
	}
	terms := s.Terms(strings.Join(long, " "))
	if len(terms) <= 64 {
		t.Fatalf("only %d terms", len(terms))
	}
	hits := s.Search(terms, 50)
	all := s.MatchedAll(hits, terms)
	for i, h := range hits {
		want := s.MatchedTerms(h.Doc, terms)
		if strings.Join(all[i], ",") != strings.Join(want, ",") {
			t.Fatalf("hit %d: %v, want %v", i, all[i], want)
		}
	}
}

// TestLookupEveryIdentity: the key table finds every document, misses
// absent identities, and a later duplicate replaces an earlier one.
func TestLookupEveryIdentity(t *testing.T) {
	in, _, _ := inputs(5000)
	in = append(in, index.Input{Category: in[7].Category, Name: in[7].Name, Content: "replaced"})
	s := index.Build(1, nil, in)
	if s.Count() != 5000 {
		t.Fatalf("Count = %d, want 5000", s.Count())
	}
	for _, d := range in[:5000] {
		got := s.Lookup(d.Category, d.Name)
		if got == nil || got.Category != d.Category || got.Name != d.Name {
			t.Fatalf("Lookup(%s, %s) = %v", d.Category, d.Name, got)
		}
	}
	if d := s.Lookup(in[7].Category, in[7].Name); d.Content != "replaced" {
		t.Errorf("duplicate kept %q", d.Content)
	}
	if s.Lookup("nope", "absent") != nil || s.Lookup(in[0].Name, in[0].Category) != nil {
		t.Error("found an absent identity")
	}
}

// TestMatchedWords: the words of every hit, found once per distinct mask,
// are what Query.Words gives for the hit's matched terms, with a stemming
// analyzer (several words behind one term) and past the 64th term.
func TestMatchedWords(t *testing.T) {
	in := []index.Input{
		{Category: "c", Name: "a", Content: "running runs the runner quickly"},
		{Category: "c", Name: "b", Content: "a quick run of cats"},
		{Category: "c", Name: "c", Content: "the cat sat"},
		{Category: "c", Name: "d", Content: "nothing here"},
		// "dying" stems to "die", before "diet" while "dying" sorts after
		// it: the words of these two terms are not in term order.
		{Category: "c", Name: "e", Content: "dying of a diet"},
		{Category: "c", Name: "f", Content: "a diet"},
	}
	base, _, _ := inputs(2000)
	in = append(in, base...)
	s := index.Build(1, index.EnglishStop(), in)
	s = s.With(2, index.Input{Category: "x", Name: "y", Content: "cats running over " + in[4].Content})
	var long []string
	for i := range 40 {
		long = append(long, in[4+i].Content)
	}
	for _, query := range []string{"Running runs quickly for cats and the cat", "dying diet", "dying diets run", "the", "cat sat", "w1 w2 cat", "nothing matches zzz", strings.Join(long, " ") + " running cats"} {
		q := s.Query(query)
		hits := s.Search(q.Terms, 300) // more than the small mask table holds
		got := s.MatchedWords(hits, q)
		all := s.MatchedAll(hits, q.Terms)
		// Appended after what a pooled buffer holds, the same.
		appended := s.AppendMatchedWords([][]string{{"old"}}, hits, q)
		if len(appended) != len(hits)+1 || appended[0][0] != "old" {
			t.Fatalf("query %.40q: AppendMatchedWords kept %d, want %d after the old", query, len(appended), len(hits)+1)
		}
		for i := range hits {
			if strings.Join(appended[i+1], ",") != strings.Join(got[i], ",") {
				t.Fatalf("query %.40q hit %d: appended %q, want %q", query, i, appended[i+1], got[i])
			}
			want := q.Words(all[i])
			if got[i] == nil || strings.Join(got[i], ",") != strings.Join(want, ",") {
				t.Fatalf("query %.40q hit %d: %q, want %q", query, i, got[i], want)
			}
		}
	}
}
