package retrieve

import (
	"testing"

	"github.com/recallhq/recall/index"
)

// Obsidian's resolution rule, form by form (README "Links"), against one
// snapshot; before issue 24 every case here but the exact ones was
// unresolved.
func TestResolveObsidian(t *testing.T) {
	snap := index.Build(1, nil, []index.Input{
		{Category: "_root", Name: "Home"},
		{Category: "a", Name: "Self"},
		{Category: "a", Name: "Near"},
		{Category: "a/sub", Name: "Near"},
		{Category: "b", Name: "Near"},
		{Category: "ab", Name: "Prefix"}, // "ab/" starts with "a": Obsidian's near group
		{Category: "c", Name: "Prefix"},
		{Category: "x", Name: "Case"},
		{Category: "x", Name: "case"}, // case variants of one path
		{Category: "y1", Name: "Tie"},
		{Category: "y2", Name: "Tie"}, // same length, neither near: load order decides in Obsidian
		{Category: "z", Name: "汉字"},   // 1 UTF-16 unit a character
		{Category: "zz", Name: "😀"},   // 2 units
		{Category: "q", Name: "Report.md"},
		{Category: "People", Name: "Alice"},
	})
	self := snap.Lookup("a", "Self")
	lk := NewLinks(snap)
	cases := []struct{ link, want string }{
		{"[[home]]", "_root:Home"},                  // one note of the name, any case
		{"[[Near]]", "a:Near"},                      // the linking note's folder first
		{"[[sub/near]]", "a/sub:Near"},              // a path matches the end of a note's path
		{"[[./sub/Near]]", "a/sub:Near"},            // relative to the linking note
		{"[[../b/Near]]", "b:Near"},                 // relative, up
		{"[[/b/Near]]", "b:Near"},                   // from the top
		{"[[/sub/Near]]", "unresolved"},             // from the top, exactly
		{"[[Prefix]]", "ab:Prefix"},                 // "ab/Prefix.md" starts with "a"
		{"[[Case]]", "x:Case"},                      // case variants: the exact spelling
		{"[[case]]", "x:case"},                      //
		{"[[CASE]]", "unresolved"},                  // neither spelt so
		{"[[Tie]]", "unresolved"},                   // a tie Obsidian breaks by load order
		{"[[y2/Tie]]", "y2:Tie"},                    // a path breaks it
		{"[[people:alice]]", "People:Alice"},        // recall's category:name, case ignored
		{"[[Report.md]]", "q:Report.md"},            // no note "Report": the name with ".md"
		{"[x](../People/Alice.md)", "People:Alice"}, // markdown, relative
		{"[x](<../People/Alice>)", "People:Alice"},  // angle brackets, no extension
		{"[x](Self.md#Top)", "inside"},
	}
	for _, c := range cases {
		ls := ParseLinks(self.Category, c.link)
		if len(ls) != 1 {
			t.Fatalf("%s: %d links", c.link, len(ls))
		}
		d, out := lk.resolve(self, ls[0])
		got := map[linkOutcome]string{linkUnresolved: "unresolved", linkInside: "inside", linkAttachment: "attachment"}[out]
		if out == linkResolved {
			got = d.Category + ":" + d.Name
		}
		if got != c.want {
			t.Errorf("%s resolves to %s, want %s", c.link, got, c.want)
		}
	}
	// Path lengths are compared in UTF-16 units, as Obsidian does: from
	// the top, z/汉字.md (7) is shorter than zz/😀.md (8) though longer in
	// UTF-8.
	if got, want := utf16Len("z/汉字.md"), 7; got != want {
		t.Errorf("utf16Len = %d, want %d", got, want)
	}
	if got := len(ParseLinks("a", "[site](https://x.org/a.md) [mail](mailto:a@b.c) [two words](a b.md) `[c](d.md)`")); got != 0 {
		t.Errorf("%d note links in external, spaced and code links", got)
	}
}
