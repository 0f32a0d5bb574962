package index

import (
	"maps"
	"testing"
)

// extrasOf collects EachExtra by identity.
func extrasOf(s *Snapshot) map[string]string {
	m := map[string]string{}
	s.EachExtra(func(d *Doc, x string) bool {
		m[d.Category+":"+d.Name] = x
		if got := s.Extra(d); got != x {
			panic("Extra and EachExtra disagree")
		}
		return true
	})
	return m
}

// TestExtraFollowsDocuments: an extra stays with its document through a
// build (whatever the input order, the last duplicate winning), With,
// Without, Compact and a persisted copy, and only live documents report
// one.
func TestExtraFollowsDocuments(t *testing.T) {
	tok := EnglishStop()
	s := Build(1, tok, []Input{
		{Category: "z", Name: "late", Content: "x", Extra: "z1"},
		{Category: "a", Name: "early", Content: "x"},
		{Category: "m", Name: "mid", Content: "x", Extra: "m1"},
		{Category: "a", Name: "early", Content: "y", Extra: "a2"},
		{Category: "m", Name: "mid", Content: "y"}, // the last one has none
	})
	want := map[string]string{"z:late": "z1", "a:early": "a2"}
	check := func(what string, s *Snapshot) {
		t.Helper()
		if got := extrasOf(s); !maps.Equal(got, want) {
			t.Fatalf("%s: extras %v, want %v", what, got, want)
		}
		if s.HasExtra() != (len(want) > 0) {
			t.Fatalf("%s: HasExtra %v with %v", what, s.HasExtra(), want)
		}
		if d := s.Lookup("a", "early"); d != nil && s.Input(d).Extra != want["a:early"] {
			t.Fatalf("%s: Input(a:early).Extra = %q", what, s.Input(d).Extra)
		}
	}
	check("build", s)
	s = s.With(2, Input{Category: "b", Name: "new", Content: "x", Extra: "b1"})
	want["b:new"] = "b1"
	check("with", s)
	s = s.With(3, Input{Category: "z", Name: "late", Content: "x"})
	delete(want, "z:late")
	check("replaced without extra", s)
	s = s.Without(4, "a", "early")
	delete(want, "a:early")
	check("without", s)
	check("compact", s.Compact())
	d, _, err := Decode(Encode(s, nil), tok, 4)
	if err != nil {
		t.Fatal(err)
	}
	check("decode", d)
	s = s.Without(5, "b", "new")
	want = map[string]string{}
	check("none left", s)
	check("none left, decoded", mustDecode(t, s))
}

func mustDecode(t *testing.T, s *Snapshot) *Snapshot {
	t.Helper()
	d, _, err := Decode(Encode(s, nil), s.tok, s.Revision())
	if err != nil {
		t.Fatal(err)
	}
	return d
}
