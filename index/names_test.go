package index

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestLookupName(t *testing.T) {
	s := Build(1, nil, []Input{
		{Category: "people", Name: "Alice", Content: "a"},
		{Category: "people", Name: "Bob", Content: "b"},
		{Category: "work", Name: "Bob", Content: "b2"},
		{Category: "trips/2024", Name: "Kyoto", Content: "k"},
	})
	check := func(s *Snapshot, name string, wantN int, wantCat string) {
		t.Helper()
		d, n := s.LookupName(name)
		if n != wantN {
			t.Errorf("LookupName(%q) n = %d, want %d", name, n, wantN)
		}
		switch {
		case wantCat == "" && d != nil:
			t.Errorf("LookupName(%q) = %s:%s, want none", name, d.Category, d.Name)
		case wantCat != "" && (d == nil || d.Category != wantCat || d.Name != name):
			t.Errorf("LookupName(%q) = %v, want %s:%s", name, d, wantCat, name)
		}
	}
	check(s, "Alice", 1, "people")
	check(s, "Bob", 2, "")
	check(s, "Kyoto", 1, "trips/2024")
	check(s, "nobody", 0, "")

	// The overlay: a second Alice, then a deleted Bob makes the other unique.
	s2 := s.With(2, Input{Category: "school", Name: "Alice", Content: "x"})
	check(s2, "Alice", 2, "")
	check(s, "Alice", 1, "people") // s is unchanged
	s3 := s2.Without(3, "work", "Bob")
	check(s3, "Bob", 1, "people")
	check(s2, "Bob", 2, "")
	s4 := s3.Without(4, "people", "Alice")
	check(s4, "Alice", 1, "school")
	s5 := s4.Without(5, "school", "Alice")
	check(s5, "Alice", 0, "")
	check(s4, "Alice", 1, "school")
	// Replacing an overlay document keeps one name entry.
	s6 := s5.With(6, Input{Category: "x", Name: "Zed", Content: "1"}).With(7, Input{Category: "x", Name: "Zed", Content: "2"})
	check(s6, "Zed", 1, "x")
	check(s6.Compact(), "Zed", 1, "x")
	check(s6.Compact(), "Bob", 1, "people")
}

// LookupName agrees with a scan over Docs through random writes,
// compactions included.
func TestLookupNameRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	s := Build(0, nil, nil)
	names := []string{"a", "b", "c", "d"}
	cats := []string{"x", "y", "z/w"}
	for step := range 3000 {
		c, n := cats[r.IntN(len(cats))], names[r.IntN(len(names))]
		if r.IntN(3) == 0 {
			s = s.Without(uint64(step), c, n)
		} else {
			s = s.With(uint64(step), Input{Category: c, Name: n, Content: "t"})
		}
		if r.IntN(200) == 0 {
			s = s.Compact()
		}
		for _, name := range names {
			var want []*Doc
			s.Docs(func(d *Doc) bool {
				if d.Name == name {
					want = append(want, d)
				}
				return true
			})
			d, got := s.LookupName(name)
			wantN := min(len(want), 2)
			if got != wantN || (wantN == 1) != (d != nil) || (d != nil && d != want[0]) {
				t.Fatalf("step %d: LookupName(%q) = %v, %d; scan finds %d", step, name, d, got, len(want))
			}
		}
	}
}

func BenchmarkLookupName(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		in := make([]Input, n)
		for i := range in {
			in[i] = Input{Category: fmt.Sprintf("c%d", i%50), Name: fmt.Sprintf("note %d", i/2), Content: "x"}
		}
		s := Build(1, nil, in)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				s.LookupName(fmt.Sprintf("note %d", i%(n/2)))
			}
		})
	}
}
