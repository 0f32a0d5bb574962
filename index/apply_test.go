package index

import (
	"testing"
	"time"

	"github.com/recallhq/recall/internal/synth"
)

// applyChanges is a mixed sequence of changes over the documents of in:
// replacements, new documents with a term only they have, deletions of
// base documents, and, inside the sequence, an identity added and replaced
// again, added and deleted, deleted and added back.
func applyChanges(in []Input, n int) []Change {
	day := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	more := synth.New(9, 2_000).Entries(n, 40)
	var cs []Change
	for i, e := range more {
		d := in[(i*7919)%len(in)]
		switch i % 5 {
		case 0:
			cs = append(cs, Change{In: Input{Category: d.Category, Name: d.Name, Content: e.Content, Date: day, Written: true}})
		case 1:
			cs = append(cs, Change{In: Input{Category: e.Category, Name: e.Name + "-new", Content: e.Content + " batchonlyterm", Extra: "x " + e.Name}})
		case 2:
			cs = append(cs, Change{In: Input{Category: d.Category, Name: d.Name}, Delete: true})
		case 3:
			cs = append(cs,
				Change{In: Input{Category: "fresh", Name: e.Name, Content: e.Content}},
				Change{In: Input{Category: "fresh", Name: e.Name, Content: e.Content + " again"}})
		default:
			cs = append(cs,
				Change{In: Input{Category: "brief", Name: e.Name, Content: e.Content}},
				Change{In: Input{Category: "brief", Name: e.Name}, Delete: true},
				Change{In: Input{Category: d.Category, Name: d.Name}, Delete: true},
				Change{In: Input{Category: d.Category, Name: d.Name, Content: e.Content + " back"}})
		}
	}
	return cs
}

// TestApplyEqualsWith: a batch applied in one merge answers exactly as the
// same changes made one With or Without at a time (scores, order, ords,
// lengths, names), in one batch or several, and, compacted, as a Build
// over the same documents; a batch large enough to pass the overlay's
// bound compacts once and still answers as the Build.
func TestApplyEqualsWith(t *testing.T) {
	g := synth.New(5, 2_000)
	ents := g.Entries(3_000, 40)
	in := make([]Input, len(ents))
	for i, e := range ents {
		in[i] = Input{Category: e.Category, Name: e.Name, Content: e.Content}
	}
	base := Build(7, nil, in)
	cs := applyChanges(in, 60)

	seq := base
	for _, c := range cs {
		if c.Delete {
			seq = seq.Without(8, c.In.Category, c.In.Name)
		} else {
			seq = seq.With(8, c.In)
		}
	}
	if len(seq.overlay) == 0 || seq.nDead == 0 {
		t.Fatal("the overlay is empty: the test tests nothing")
	}
	one := base.Apply(8, cs)
	sameAnswers(t, seq, one, g)
	steps := base
	for i := 0; i < len(cs); i += 7 {
		steps = steps.Apply(8, cs[i:min(i+7, len(cs))])
	}
	sameAnswers(t, seq, steps, g)
	if base.Count() != len(in) || base.Revision() != 7 {
		t.Fatal("Apply changed the snapshot it was given")
	}

	var docs []Input
	one.Docs(func(d *Doc) bool {
		docs = append(docs, one.Input(d))
		return true
	})
	want := Build(8, one.Analyzer(), docs)
	sameAnswers(t, want, one.Compact(), g)

	// Past forceCompactAt: one compaction at the end, no overlay left.
	big := applyChanges(in, 1_200)
	if len(big) <= forceCompactAt(len(in)) {
		t.Fatalf("%d changes stay under the bound %d", len(big), forceCompactAt(len(in)))
	}
	got := base.Apply(9, big)
	if len(got.overlay) != 0 || got.nDead != 0 {
		t.Fatalf("a batch past the bound left an overlay of %d (%d dead)", len(got.overlay), got.nDead)
	}
	seq = base
	for _, c := range big {
		if c.Delete {
			seq = seq.Without(9, c.In.Category, c.In.Name)
		} else {
			seq = seq.With(9, c.In)
		}
	}
	docs = docs[:0]
	seq.Docs(func(d *Doc) bool {
		docs = append(docs, seq.Input(d))
		return true
	})
	sameAnswers(t, Build(9, seq.Analyzer(), docs), got, g)
	for _, c := range big {
		if a, w := got.Lookup(c.In.Category, c.In.Name) != nil, seq.Lookup(c.In.Category, c.In.Name) != nil; a != w {
			t.Fatalf("%s:%s: present %v after Apply, %v after With", c.In.Category, c.In.Name, a, w)
		}
	}
}
