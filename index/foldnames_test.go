package index

import (
	"fmt"
	"slices"
	"testing"
)

// LookupFold finds every live document of a name whatever its case, in
// the base segment and the overlay, and none of another name that shares
// a probe run.
func TestLookupFold(t *testing.T) {
	var in []Input
	for _, n := range []string{"Note", "note", "NOTE", "Other", "Ärger", "İstanbul"} {
		in = append(in, Input{Category: "a", Name: n})
	}
	in = append(in, Input{Category: "b", Name: "Note"})
	s := Build(1, nil, in)
	find := func(s *Snapshot, name string) (out []string) {
		s.LookupFold(name, func(d *Doc) bool {
			out = append(out, d.Category+":"+d.Name)
			return true
		})
		slices.Sort(out)
		return out
	}
	if got, want := find(s, "nOtE"), []string{"a:NOTE", "a:Note", "a:note", "b:Note"}; !slices.Equal(got, want) {
		t.Errorf("nOtE = %q, want %q", got, want)
	}
	if got, want := find(s, "ärger"), []string{"a:Ärger"}; !slices.Equal(got, want) {
		t.Errorf("ärger = %q, want %q", got, want)
	}
	if got := find(s, "Missing"); got != nil {
		t.Errorf("Missing = %q", got)
	}
	// The overlay: an added one is found, a deleted one is not, in either segment.
	s2 := s.With(2, Input{Category: "c", Name: "noTe"}).Without(3, "a", "note").Without(4, "b", "Note")
	if got, want := find(s2, "NOTE"), []string{"a:NOTE", "a:Note", "c:noTe"}; !slices.Equal(got, want) {
		t.Errorf("after writes = %q, want %q", got, want)
	}
	s3 := s2.Without(5, "c", "noTe")
	if got, want := find(s3, "note"), []string{"a:NOTE", "a:Note"}; !slices.Equal(got, want) {
		t.Errorf("after deleting the overlay's = %q, want %q", got, want)
	}
	if got, want := find(s, "note"), []string{"a:NOTE", "a:Note", "a:note", "b:Note"}; !slices.Equal(got, want) {
		t.Errorf("the first snapshot changed: %q", got)
	}
}

// BenchmarkFoldIndexBuild: what the first case-ignoring lookup on a new
// base segment costs (one pass over its names), per segment size.
//
//	go test -run XXX -bench FoldIndexBuild ./index/
func BenchmarkFoldIndexBuild(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			in := make([]Input, n)
			for i := range in {
				in[i] = Input{Category: fmt.Sprintf("c%d", i%50), Name: fmt.Sprintf("Note Number %d", i)}
			}
			s := Build(1, nil, in)
			for b.Loop() {
				s.base.fold = foldTable{}
				s.base.foldIndex()
			}
		})
	}
}
