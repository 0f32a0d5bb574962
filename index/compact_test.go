package index

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/synth"
)

// TestCompactEqualsBuild: a compaction merges the base's lists with the
// overlay instead of analysing every document again; it must answer
// exactly as a Build over the same documents (scores, order, ords, lengths,
// dates, names), whatever the overlay holds: replaced, added, deleted and
// re-replaced documents, a term only the overlay has, a term whose every
// document is gone, a tf past the byte the lists store, dated entries.
func TestCompactEqualsBuild(t *testing.T) {
	g := synth.New(5, 2_000)
	ents := g.Entries(600, 40)
	in := make([]Input, len(ents))
	day := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	for i, e := range ents {
		in[i] = Input{Category: e.Category, Name: e.Name, Content: e.Content}
		if i%3 == 0 {
			in[i].Date, in[i].Day = day.AddDate(0, 0, i), i%2 == 0
		}
		if i%5 == 0 {
			in[i].Extra = fmt.Sprintf("base extra %d", i)
		}
		if i%7 == 0 {
			in[i].Aliases = []string{fmt.Sprintf("base alias %d", i), "aliasonlyterm"}
		}
	}
	in = append(in,
		Input{Category: "gone", Name: "only", Content: "vanishingterm once"},
		Input{Category: "big", Name: "tf", Content: strings.Repeat("loud ", 300)},
		Input{Category: "people", Name: "shared", Content: "shared name one"},
		Input{Category: "dup", Name: "a", Content: "the same note, written twice"},
		Input{Category: "dup", Name: "b", Content: "The same note,  written twice"},
	)
	s := Build(7, nil, in)
	w := s
	more := synth.New(6, 2_000).Entries(200, 40)
	for i, e := range more {
		d := in[(i*7919)%len(in)]
		rev := uint64(8 + i)
		switch i % 4 {
		case 0:
			w = w.With(rev, Input{Category: d.Category, Name: d.Name, Content: e.Content, Date: day, Written: true})
		case 1:
			w = w.With(rev, Input{Category: e.Category, Name: e.Name + "-new", Content: e.Content + " overlayonlyterm", Extra: "overlay extra " + e.Name, Aliases: []string{"overlay alias " + e.Name}})
		case 2:
			w = w.Without(rev, d.Category, d.Name)
		default:
			w = w.With(rev, Input{Category: d.Category, Name: d.Name, Content: e.Content})
			w = w.With(rev, Input{Category: d.Category, Name: d.Name, Content: e.Content + " again"})
		}
	}
	w = w.Without(w.Revision(), "gone", "only")
	w = w.With(w.Revision(), Input{Category: "big", Name: "tf2", Content: strings.Repeat("loud ", 400)})
	w = w.With(w.Revision(), Input{Category: "notes", Name: "shared", Content: "shared name two"})
	// Duplicates: base with base (one of them replaced by another copy),
	// overlay with base, overlay with overlay, and a copy of a synth entry.
	w = w.With(w.Revision(), Input{Category: "dup", Name: "b", Content: "THE SAME NOTE, WRITTEN TWICE"})
	w = w.With(w.Revision(), Input{Category: "dup", Name: "c", Content: "the same note, written twice"})
	w = w.With(w.Revision(), Input{Category: "dup", Name: "d", Content: in[1].Content})
	w = w.With(w.Revision(), Input{Category: "dup", Name: "e", Content: "overlay twin"})
	w = w.With(w.Revision(), Input{Category: "dup", Name: "f", Content: "Overlay twin"})
	if len(w.overlay) == 0 || w.nDead == 0 {
		t.Fatal("the overlay is empty: the test tests nothing")
	}
	var docs []Input
	w.Docs(func(d *Doc) bool {
		docs = append(docs, w.Input(d))
		return true
	})
	want := Build(w.Revision(), w.Analyzer(), docs)
	got := w.Compact()
	sameAnswers(t, want, got, g)
	if !slices.Equal(want.base.titles, got.base.titles) || len(got.base.titles) < len(docs) {
		t.Fatalf("title table: compacted %d records, built %d", len(got.base.titles), len(want.base.titles))
	}
	// Each document keeps what it was indexed with, its Extra included
	// (validity reads it: docs/validity.md).
	extras := 0
	w.Docs(func(d *Doc) bool {
		c := got.Lookup(d.Category, d.Name)
		if c == nil {
			t.Fatalf("%s:%s lost by Compact", d.Category, d.Name)
		}
		if x, y := w.Input(d), got.Input(c); x.Extra != y.Extra || !slices.Equal(x.Aliases, y.Aliases) || !x.Date.Equal(y.Date) || x.Day != y.Day || x.Written != y.Written {
			t.Fatalf("%s:%s: compacted %+v, want %+v", d.Category, d.Name, y, x)
		}
		if w.Extra(d) != "" {
			extras++
		}
		return true
	})
	if extras == 0 {
		t.Fatal("no document carries an Extra: the check tests nothing")
	}
	for _, q := range []string{"vanishingterm", "overlayonlyterm", "loud", "again", "shared name"} {
		a, b := want.Search(want.Terms(q), 0), got.Search(got.Terms(q), 0)
		if len(a) != len(b) {
			t.Fatalf("%q: %d results, want %d", q, len(b), len(a))
		}
		for i := range a {
			if a[i].Doc.Name != b[i].Doc.Name || a[i].Score != b[i].Score {
				t.Fatalf("%q #%d: %s %v, want %s %v", q, i, b[i].Doc.Name, b[i].Score, a[i].Doc.Name, a[i].Score)
			}
		}
	}
	if got.base.terms.Len() != want.base.terms.Len() {
		t.Fatalf("%d terms, want %d (a term with no document left is dropped)", got.base.terms.Len(), want.base.terms.Len())
	}
	want.Docs(func(d *Doc) bool {
		e := got.Lookup(d.Category, d.Name)
		if got.dateRec(e) != want.dateRec(d) {
			t.Fatalf("%s/%s: date %v, want %v", d.Category, d.Name, got.dateRec(e), want.dateRec(d))
		}
		return true
	})
	// The same duplicate pairs (dup.go).
	pairs := 0
	want.Docs(func(d *Doc) bool {
		var a, b []string
		for _, x := range want.Duplicates(d) {
			a = append(a, x.Category+":"+x.Name)
		}
		for _, x := range got.Duplicates(got.Lookup(d.Category, d.Name)) {
			b = append(b, x.Category+":"+x.Name)
		}
		for _, x := range w.Duplicates(w.Lookup(d.Category, d.Name)) {
			b = append(b, x.Category+":"+x.Name) // and the snapshot compacted, in the same order
		}
		if fmt.Sprint(append(slices.Clone(a), a...)) != fmt.Sprint(b) {
			t.Fatalf("%s:%s: duplicates %v (compacted, then before), want %v", d.Category, d.Name, b, a)
		}
		pairs += len(a)
		return true
	})
	if pairs < 8 {
		t.Fatalf("%d duplicate pairs: the check tests too little", pairs)
	}
	// The compacted snapshot takes writes like a built one.
	sameAnswers(t, want.With(99, Input{Category: "c", Name: "n", Content: "loud again"}),
		got.With(99, Input{Category: "c", Name: "n", Content: "loud again"}), g)
}
