package index

import (
	"fmt"
	"slices"
	"testing"
)

// dupPairs lists the duplicate relation of s by identities, sorted.
func dupPairs(s *Snapshot) []string {
	var out []string
	s.Docs(func(d *Doc) bool {
		for _, y := range s.Duplicates(d) {
			out = append(out, d.Category+":"+d.Name+" = "+y.Category+":"+y.Name)
		}
		return true
	})
	slices.Sort(out)
	return out
}

// A batch given to Apply finds the same duplicates as the same changes
// made by With one at a time, and as a full build: copies of base
// documents, copies of each other within the batch, and copies of a
// document the batch changes or deletes again.
func TestApplyDuplicatesEqualWith(t *testing.T) {
	var in []Input
	for i := range 40 {
		in = append(in, Input{Category: "base", Name: fmt.Sprintf("b%02d", i), Content: fmt.Sprintf("walk the dog along river path %c before breakfast today", 'a'+i%26)})
	}
	base := Build(1, nil, in)
	if !base.DetectsDuplicates() {
		t.Fatal("Build does not detect duplicates: the test tests nothing")
	}
	var cs []Change
	for i := range 12 {
		// A copy of a base document, a copy of the previous change, and
		// a change of an earlier batch document.
		cs = append(cs,
			Change{In: Input{Category: "new", Name: fmt.Sprintf("c%02d", i), Content: in[i].Content}},
			Change{In: Input{Category: "new", Name: fmt.Sprintf("d%02d", i), Content: "Buy oat milk and bread  at the market " + fmt.Sprintf("%c", 'a'+i)}},
			Change{In: Input{Category: "new", Name: fmt.Sprintf("e%02d", i), Content: "buy oat milk and bread at the market " + fmt.Sprintf("%c", 'a'+i)}},
		)
		if i%4 == 3 {
			cs = append(cs, Change{In: Input{Category: "new", Name: fmt.Sprintf("d%02d", i-1)}, Delete: true},
				Change{In: Input{Category: "base", Name: fmt.Sprintf("b%02d", i)}, Delete: true})
		}
	}
	seq := base
	for _, c := range cs {
		if c.Delete {
			seq = seq.Without(2, c.In.Category, c.In.Name)
		} else {
			seq = seq.With(2, c.In)
		}
	}
	want := dupPairs(seq)
	if len(want) < 20 {
		t.Fatalf("only %d pairs: %q", len(want), want)
	}
	one := base.Apply(2, cs)
	if got := dupPairs(one); !slices.Equal(got, want) {
		t.Errorf("Apply in one batch:\n got %q\nwant %q", got, want)
	}
	steps := base
	for i := 0; i < len(cs); i += 5 {
		steps = steps.Apply(2, cs[i:min(i+5, len(cs))])
	}
	if got := dupPairs(steps); !slices.Equal(got, want) {
		t.Errorf("Apply in batches of 5:\n got %q\nwant %q", got, want)
	}
	var docs []Input
	one.Docs(func(d *Doc) bool {
		docs = append(docs, one.Input(d))
		return true
	})
	if got := dupPairs(Build(2, nil, docs)); !slices.Equal(got, want) {
		t.Errorf("a full build:\n got %q\nwant %q", got, want)
	}
}

// Many copies of one note (a template, a log line) record at most
// MaxDuplicates duplicates each, exact and near copies alike, so a build
// holds a bounded number of pairs rather than one per two copies; every
// copy still has some, and a write's own look stops there too.
func TestDuplicatesBounded(t *testing.T) {
	const n = 1_000
	var in []Input
	for i := range n {
		content := "daily standup notes: nothing blocked, tests green, ship after lunch"
		if i%2 == 1 {
			content = "Daily standup notes:  nothing blocked, tests green, ship after lunch" // exact after case and space
		}
		in = append(in, Input{Category: "log", Name: fmt.Sprintf("d%04d", i), Content: content})
	}
	s := Build(1, nil, in)
	s = s.With(2, Input{Category: "log", Name: "new", Content: in[0].Content})
	total := 0
	s.Docs(func(d *Doc) bool {
		k := len(s.Duplicates(d))
		if k == 0 || k > MaxDuplicates {
			t.Fatalf("%s: %d duplicates, want 1 to %d", d.Name, k, MaxDuplicates)
		}
		total += k
		return true
	})
	if total > (n+1)*MaxDuplicates {
		t.Errorf("%d pairs", total/2)
	}
}
