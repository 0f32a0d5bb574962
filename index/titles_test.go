package index

import (
	"slices"
	"testing"

	"github.com/recallhq/recall/internal/synth"
)

// titledNames is Titled of query on s, as category/name strings.
func titledNames(s *Snapshot, query string, w *Set) []string {
	var out []string
	for _, d := range s.Titled(nil, s.Query(query).Terms, w) {
		out = append(out, d.Category+"/"+d.Name)
	}
	return out
}

func titleDocs() []Input {
	return []Input{
		{Category: "help", Name: "Internal links", Content: "Link notes with [[double brackets]]."},
		{Category: "help", Name: "Aliases", Content: "Give a note other names.", Aliases: []string{"alias", "Add aliases to note"}},
		{Category: "help", Name: "Embed files", Content: "Embed with an exclamation mark.", Aliases: []string{"How to/Embed files", "transclusion"}},
		{Category: "help", Name: "Linking", Content: "internal links internal links internal links everywhere"},
		{Category: "zh", Name: "模板", Content: "核心插件"},
		{Category: "other", Name: "Internal links", Content: "a second note of the same name"},
	}
}

// TestTitled: a query made of exactly a title's terms, in any case and
// order, finds the documents with that name or alias; a query with one
// word more or less finds none.
func TestTitled(t *testing.T) {
	s := Build(1, EnglishStop(), titleDocs())
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"internal links", []string{"help/Internal links", "other/Internal links"}},
		{"Internal-Links", []string{"help/Internal links", "other/Internal links"}},
		{"links internal", []string{"help/Internal links", "other/Internal links"}},
		{"the internal links", []string{"help/Internal links", "other/Internal links"}}, // "the" is a stop word
		{"internal", nil},
		{"internal links everywhere", nil},
		{"transclusion", []string{"help/Embed files"}},
		{"add aliases to note", []string{"help/Aliases"}},
		{"how to embed files", []string{"help/Embed files"}},
		{"embed files", []string{"help/Embed files"}},
		{"alias", []string{"help/Aliases"}},
		{"模板", []string{"zh/模板"}},
		{"the", nil},
		{"", nil},
	} {
		if got := titledNames(s, c.query, nil); !slices.Equal(got, c.want) {
			t.Errorf("Titled(%q) = %q, want %q", c.query, got, c.want)
		}
	}
}

// TestTitledOverlayAndSets: Titled follows With and Without, answers the
// same after Compact and after a persisted copy's round trip, and keeps to
// a set of candidates.
func TestTitledOverlayAndSets(t *testing.T) {
	s := Build(1, EnglishStop(), titleDocs())
	w := s.With(2, Input{Category: "new", Name: "Daily note", Content: "today", Aliases: []string{"journal"}}).
		With(3, Input{Category: "help", Name: "Aliases", Content: "now without aliases"}).
		Without(4, "other", "Internal links")
	check := func(what string, s *Snapshot) {
		t.Helper()
		for q, want := range map[string][]string{
			"journal":        {"new/Daily note"},
			"daily note":     {"new/Daily note"},
			"alias":          nil,
			"aliases":        {"help/Aliases"},
			"internal links": {"help/Internal links"},
			"transclusion":   {"help/Embed files"},
		} {
			if got := titledNames(s, q, nil); !slices.Equal(got, want) {
				t.Errorf("%s: Titled(%q) = %q, want %q", what, q, got, want)
			}
		}
	}
	check("overlay", w)
	check("compacted", w.Compact())
	d, _, err := Decode(Encode(w, nil), EnglishStop(), 4)
	if err != nil {
		t.Fatal(err)
	}
	check("decoded", d)
	if c := w.Compact(); !slices.Equal(d.base.titles, c.base.titles) {
		t.Errorf("decoded title table %v, want %v", d.base.titles, c.base.titles)
	}
	if in := d.Input(d.Lookup("new", "Daily note")); !slices.Equal(in.Aliases, []string{"journal"}) {
		t.Errorf("decoded aliases %q", in.Aliases)
	}
	// A set without the document leaves it out.
	hide := make([]uint64, (w.Len()+63)/64)
	o := w.Lookup("help", "Internal links").Ord()
	hide[o/64] |= 1 << (o % 64)
	if got := titledNames(w, "internal links", w.Except(nil, hide)); got != nil {
		t.Errorf("hidden: %q", got)
	}
}

// TestAliasesIndexed: an alias's words find the document and count in its
// length, not in its tokens_est; ScoreOf is the ranking's score.
func TestAliasesIndexed(t *testing.T) {
	in := titleDocs()
	s := Build(1, EnglishStop(), in)
	hits := s.Search(s.Terms("transclusion"), 0)
	if len(hits) != 1 || hits[0].Doc.Name != "Embed files" {
		t.Fatalf("alias word: %v", hits)
	}
	plain := Build(1, EnglishStop(), []Input{{Category: "help", Name: "Embed files", Content: in[2].Content}})
	d, p := s.Lookup("help", "Embed files"), plain.Lookup("help", "Embed files")
	if d.TokensEst() != p.TokensEst() {
		t.Errorf("tokens_est %d, want %d (aliases are not injected)", d.TokensEst(), p.TokensEst())
	}
	if got, want := s.DocLen(d), len(s.tok.Tokens(IndexText(d.Name, in[2].Aliases, d.Content))); got != want {
		t.Errorf("|D| %d, want %d", got, want)
	}
	for _, q := range []string{"internal links", "embed files", "note"} {
		terms := s.Query(q).Terms
		for _, h := range s.Search(terms, 0) {
			if got := s.ScoreOf(h.Doc, terms); got != h.Score {
				t.Errorf("%q: ScoreOf(%s) = %v, ranking %v", q, h.Doc.Name, got, h.Score)
			}
		}
	}
	if IndexText("n", nil, "c") != EntryText("n", "c") {
		t.Error("IndexText without aliases is not EntryText")
	}
}

// TestTitlesSectionChecked: a persisted title table out of order, with an
// even key or with an ord past the documents is refused, as a damaged
// copy is; a right one reads back as written.
func TestTitlesSectionChecked(t *testing.T) {
	good := []titleRec{{key: 3, ord: 1}, {key: 3, ord: 2}, {key: 9, ord: 0}}
	r := reader{b: appendTitles(nil, good)}
	if got := r.titles(3); r.err != nil || !slices.Equal(got, good) || len(r.b) != 0 {
		t.Fatalf("round trip: %v, err %v", got, r.err)
	}
	for name, recs := range map[string][]titleRec{
		"out of order": {{key: 9, ord: 0}, {key: 3, ord: 1}},
		"repeated":     {{key: 3, ord: 1}, {key: 3, ord: 1}},
		"even key":     {{key: 4, ord: 0}},
		"ord past":     {{key: 3, ord: 3}},
	} {
		r := reader{b: appendTitles(nil, recs)}
		if r.titles(3); r.err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	r = reader{b: appendTitles(nil, good)[:5]}
	if r.titles(3); r.err == nil {
		t.Error("truncated: accepted")
	}
}

// BenchmarkTitledMiss: what the title rule adds to a retrieve whose query
// is no title: Titled on a query of three words at 100k entries.
func BenchmarkTitledMiss(b *testing.B) {
	g := synth.New(42, 20_000)
	es := g.Entries(100_000, 80)
	in := make([]Input, len(es))
	for i, e := range es {
		in[i] = Input{Category: e.Category, Name: e.Name, Content: e.Content}
	}
	s := Build(1, EnglishStop(), in)
	qg := synth.New(7, 20_000)
	qs := make([][]string, 256)
	for i := range qs {
		qs[i] = s.Query(qg.Query(3)).Terms
	}
	var dst []*Doc
	i, found := 0, 0
	for b.Loop() {
		dst = s.Titled(dst[:0], qs[i%len(qs)], nil)
		found += len(dst)
		i++
	}
	b.ReportMetric(float64(found)/float64(i), "titled/op")
}
