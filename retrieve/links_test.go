package retrieve

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/recallhq/recall/index"
)

func TestParseLinks(t *testing.T) {
	exact := func(raw, c, n string) Link { return Link{Raw: raw, Kind: LinkExact, Category: c, Name: n} }
	bare := func(raw, n string) Link { return Link{Raw: raw, Kind: LinkBare, Category: "self", Name: n} }
	path := func(raw, c, n string) Link { return Link{Raw: raw, Kind: LinkPath, Category: c, Name: n} }
	with := func(l Link, f func(*Link)) Link { f(&l); return l }
	cases := []struct {
		content string
		want    []Link
	}{
		{"no links here", nil},
		// category:name
		{"see [[trips:三亚之行]].", []Link{exact("[[trips:三亚之行]]", "trips", "三亚之行")}},
		{"[[a:b]][[c:d]]", []Link{exact("[[a:b]]", "a", "b"), exact("[[c:d]]", "c", "d")}},
		{"[[a:b:c]]", []Link{exact("[[a:b:c]]", "a", "b:c")}},
		{"[[projects/harbor:plan]]", []Link{exact("[[projects/harbor:plan]]", "projects/harbor", "plan")}},
		{"[[daily_life:renamed-item]]", []Link{exact("[[daily_life:renamed-item]]", "daily_life", "renamed-item")}},
		// bare names, with every allowed punctuation
		{"[[sibling]]", []Link{bare("[[sibling]]", "sibling")}},
		{"[[Budget (2025)]] [[Tom's notes]] [[Q&A]] [[C++]] [[Hello, world]] [[50% off; really!]] [[~draft]]", []Link{
			bare("[[Budget (2025)]]", "Budget (2025)"), bare("[[Tom's notes]]", "Tom's notes"), bare("[[Q&A]]", "Q&A"),
			bare("[[C++]]", "C++"), bare("[[Hello, world]]", "Hello, world"), bare("[[50% off; really!]]", "50% off; really!"),
			bare("[[~draft]]", "~draft"),
		}},
		{"[[🌊 beach]] [[三亚之行]]", []Link{bare("[[🌊 beach]]", "🌊 beach"), bare("[[三亚之行]]", "三亚之行")}},
		{"[[Note.md]] [[/Note]]", []Link{bare("[[Note.md]]", "Note"), bare("[[/Note]]", "Note")}},
		// paths
		{"[[people/Alice]]", []Link{path("[[people/Alice]]", "people", "Alice")}},
		{"[[trips/2024/spring/Kyoto Trip.md]]", []Link{path("[[trips/2024/spring/Kyoto Trip.md]]", "trips/2024/spring", "Kyoto Trip")}},
		{"[[/people/Alice]]", []Link{path("[[/people/Alice]]", "people", "Alice")}},
		// labels (aliases), headings, blocks, embeds
		{"[[people:Mark Tan|Mark]] and [[ note | label ]]", []Link{
			with(exact("[[people:Mark Tan|Mark]]", "people", "Mark Tan"), func(l *Link) { l.Label = "Mark" }),
			with(bare("[[ note | label ]]", "note"), func(l *Link) { l.Label = "label" }),
		}},
		{"[[folder/Note|alias|with pipe]]", []Link{with(path("[[folder/Note|alias|with pipe]]", "folder", "Note"), func(l *Link) { l.Label = "alias|with pipe" })}},
		{`| [[Note\|alias]] |`, []Link{with(bare(`[[Note\|alias]]`, "Note"), func(l *Link) { l.Label = "alias" })}},
		{"[[Note#Heading]]", []Link{with(bare("[[Note#Heading]]", "Note"), func(l *Link) { l.Heading = "Heading" })}},
		{"[[Note#A#B|x]]", []Link{with(bare("[[Note#A#B|x]]", "Note"), func(l *Link) { l.Heading, l.Label = "A#B", "x" })}},
		{"[[people:Alice#^quote1]]", []Link{with(exact("[[people:Alice#^quote1]]", "people", "Alice"), func(l *Link) { l.Block = "quote1" })}},
		{"[[#Heading]] [[#^blk|here]]", []Link{
			{Raw: "[[#Heading]]", Kind: LinkSelf, Category: "self", Heading: "Heading"},
			{Raw: "[[#^blk|here]]", Kind: LinkSelf, Category: "self", Block: "blk", Label: "here"},
		}},
		{"![[img.png]] and ![[Note#Part]]", []Link{
			with(bare("[[img.png]]", "img.png"), func(l *Link) { l.Embed = true }),
			with(bare("[[Note#Part]]", "Note"), func(l *Link) { l.Embed, l.Heading = true, "Part" }),
		}},
		// not links
		{"[[]] [[ ]] [[:x]] [[x:]] [[|label]] [[#]] [[a/]] [[/]] [[#|x]]", nil},
		{"unclosed [[a:b", nil},
		{"[[outer [[inner]] ]]", []Link{bare("[[inner]]", "inner")}},
		{"[[multi\nline]]", nil},
		// code is not linked
		{"`[[code]]` and ``a ` [[code2]]`` but [[real]]", []Link{bare("[[real]]", "real")}},
		{"```\n[[fenced]]\n```\n[[after]]\n~~~go\n[[tilde]]\n~~~", []Link{bare("[[after]]", "after")}},
		{"```\n[[never closed]]", nil},
		{"a lone ` backtick\n\n[[still]] `", []Link{bare("[[still]]", "still")}},
	}
	for _, c := range cases {
		got := ParseLinks("self", c.content)
		for i := range got {
			got[i].target = "" // what resolve reads; TestResolveObsidian covers it
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseLinks(%q) =\n %+v\nwant\n %+v", c.content, got, c.want)
		}
	}
}

func TestIsAttachment(t *testing.T) {
	for name, want := range map[string]bool{
		"img.png": true, "report.pdf": true, "a.b.JPEG": true, "x.mp3": true, "clip.webm": true, "f.7z": true,
		"Note": false, "Note.md": false, "Note.MD": false, "v1.2": false, "Dr. Xu": false, "x.": false,
		"x.toolong": false, "archive.tar.gz": true, "a.b-c": false, "图.png": true, "x.pn g": false,
	} {
		if got := IsAttachment(name); got != want {
			t.Errorf("IsAttachment(%q) = %v, want %v", name, got, want)
		}
	}
}

// Every form of SPEC §7 step 3 against one snapshot.
func TestResolveLink(t *testing.T) {
	snap := index.Build(1, nil, []index.Input{
		{Category: "people", Name: "Alice"},
		{Category: "people", Name: "Bob"},
		{Category: "work", Name: "Bob"}, // Bob is ambiguous outside these two
		{Category: "work", Name: "Memo"},
		{Category: "trips/2024/spring", Name: "Kyoto Trip"},
		{Category: "notes", Name: "Budget (2025)"},
		{Category: "notes", Name: "Home"},
		{Category: "media", Name: "cover.png"}, // an entry that looks like a file
	})
	self := snap.Lookup("notes", "Home")
	cases := []struct {
		content string
		want    string // "category:name", or outcome
	}{
		{"[[people:Alice]]", "people:Alice"},
		{"[[people:Nobody]]", "unresolved"},
		{"[[people/Alice]]", "people:Alice"},
		{"[[people/Alice.md]]", "people:Alice"},
		{"[[trips/2024/spring/Kyoto Trip|Kyoto]]", "trips/2024/spring:Kyoto Trip"},
		// Obsidian's rule (issue 24; before it, paths were exact and these
		// were unresolved): a path matches the end of a note's path.
		{"[[2024/spring/Kyoto Trip]]", "trips/2024/spring:Kyoto Trip"},
		{"[[/2024/spring/Kyoto Trip]]", "unresolved"}, // from the top: exact
		{"[[Alice]]", "people:Alice"},                 // the one Alice anywhere
		{"[[Alice#Early life]]", "people:Alice"},
		{"![[Alice#^b1]]", "people:Alice"},
		{"[[Bob]]", "work:Bob"},      // two Bobs, neither in notes: the shorter path (was unresolved)
		{"[[work:Bob]]", "work:Bob"}, // exact is fine
		{"[[Budget (2025)]]", "notes:Budget (2025)"},
		{"[[Kyoto Trip]]", "trips/2024/spring:Kyoto Trip"},
		{"[[Home]]", "inside"},
		{"[[#Heading]]", "inside"},
		{"![[img.png]]", "attachment"},
		{"[[docs/report.pdf]]", "attachment"},
		{"[[cover.png]]", "media:cover.png"}, // an entry wins over the file rule
		{"[[v1.2]]", "unresolved"},
	}
	for _, c := range cases {
		ls := ParseLinks(self.Category, c.content)
		if len(ls) != 1 {
			t.Fatalf("%s: %d links", c.content, len(ls))
		}
		d, out := NewLinks(snap).resolve(self, ls[0])
		got := map[linkOutcome]string{linkUnresolved: "unresolved", linkInside: "inside", linkAttachment: "attachment"}[out]
		if out == linkResolved {
			got = d.Category + ":" + d.Name
		}
		if got != c.want {
			t.Errorf("%s resolves to %s, want %s", c.content, got, c.want)
		}
	}
	// The own category comes first: from work, [[Bob]] is work:Bob.
	if d, out := NewLinks(snap).resolve(snap.Lookup("work", "Memo"), ParseLinks("work", "[[Bob]]")[0]); out != linkResolved || d.Category != "work" {
		t.Errorf("[[Bob]] from work: %v %v", d, out)
	}
}

// Retrieve injects what resolves, reports what does not (as written,
// without the embed's '!'), and is silent about attachments and links into
// the hit itself.
func TestRetrieveObsidianLinks(t *testing.T) {
	st := newMemStore(
		ent("notes", "Home", "harbor harbor [[Alice]] ![[img.png]] [[#Plan]] [[people/Bob|Bobby]] ![[Ghost]] [[Ghost]] [[Carol]] [[trips/2024:Kyoto#Day 1]] [[Alice#Intro]]"),
		ent("people", "Alice", "a"),
		ent("people", "Bob", "b"),
		ent("people", "Carol", "c1"),
		ent("work", "Carol", "c2"),
		ent("trips/2024", "Kyoto", "k"),
	)
	res, err := New(st, Options{}).Retrieve(ctx, Request{Query: "harbor", Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	// [[Carol]]: two Carols, neither in notes; Obsidian takes the shorter
	// path, work/Carol.md (before issue 24 it was unresolved).
	want := []string{"hit notes:Home", "link people:Alice via notes:Home", "link people:Bob via notes:Home", "link work:Carol via notes:Home", "link trips/2024:Kyoto via notes:Home"}
	if got := keys(res.Items); !slices.Equal(got, want) {
		t.Errorf("items = %q, want %q", got, want)
	}
	if want := []string{"[[Ghost]]"}; !slices.Equal(res.UnresolvedLinks, want) {
		t.Errorf("unresolved = %q, want %q", res.UnresolvedLinks, want)
	}
}

func FuzzParseLinks(f *testing.F) {
	for _, s := range []string{
		"[[a:b]]", "[[x|y]]", "[[[[a]]]]", "[[a:b]] text [[c]]", "]]]][[[[", "[[\xff]]",
		"![[img.png]]", "[[a/b/c.md#h|l]]", "[[#^blk]]", "`[[x]]` ```\n[[y]]\n```", `[[n\|a]]`, "!![[x]]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		links := ParseLinks("self", content)
		off := 0
		for _, l := range links {
			// Each link is found, in order, as written.
			i := strings.Index(content[off:], l.Raw)
			if i < 0 {
				t.Fatalf("link %q not found in order in %q", l.Raw, content)
			}
			off += i + len(l.Raw)
			wiki := strings.HasPrefix(l.Raw, "[[") && strings.HasSuffix(l.Raw, "]]")
			md := strings.HasPrefix(l.Raw, "[") && strings.HasSuffix(l.Raw, ")") && strings.Contains(l.Raw, "](")
			if !wiki && !md {
				t.Fatalf("raw %q lacks brackets", l.Raw)
			}
			if l.Category == "" || (l.Name == "") != (l.Kind == LinkSelf) {
				t.Fatalf("empty target in %+v", l)
			}
			if strings.ContainsAny(l.Name+l.Category, "[]|#\n") {
				t.Fatalf("target %+v contains link syntax", l)
			}
			if l.Kind == LinkPath && strings.Contains(l.Name, "/") {
				t.Fatalf("path link %+v: name holds '/'", l)
			}
		}
		if !reflect.DeepEqual(links, ParseLinks("self", content)) {
			t.Fatal("not deterministic")
		}
		if m := maskCode(content); len(m) != len(content) {
			t.Fatalf("maskCode changed the length: %d → %d", len(content), len(m))
		}
	})
}

// A link written with a name SPEC §1 refuses for new entries reaches the
// note of that name, whose identity is store.EscapeName of it (issue 24):
// on main [[What is it?]] and the others were reported unresolved.
func TestLinksToMappedNames(t *testing.T) {
	st := newMemStore(
		ent("notes", "Home", "harbor [[What is it?]] [[Q3: plan]] [[2*3]] [[say \"hi\"]] [[Cut title.]] [[Trailing ]] [[odd: folder/inside]]"),
		ent("questions", "What is it%3F", "a"),
		ent("questions", "Q3%3A plan", "b"),
		ent("questions", "2%2A3", "c"),
		ent("questions", "say %22hi%22", "d"),
		ent("readwise", "Cut title%2E", "e"),
		ent("readwise", "Trailing%20", "f"),
		ent("odd%3A folder", "inside", "g"),
	)
	res, err := New(st, Options{}).Retrieve(ctx, Request{Query: "harbor", Budget: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"hit notes:Home", "link questions:What is it%3F via notes:Home", "link questions:Q3%3A plan via notes:Home",
		"link questions:2%2A3 via notes:Home", "link questions:say %22hi%22 via notes:Home", "link readwise:Cut title%2E via notes:Home",
		"link odd%3A folder:inside via notes:Home"}
	if got := keys(res.Items); !slices.Equal(got, want) {
		t.Errorf("items = %q\nwant %q", got, want)
	}
	// "[[Trailing ]]": Obsidian trims the space too, so it names "Trailing".
	if want := []string{"[[Trailing ]]"}; !slices.Equal(res.UnresolvedLinks, want) {
		t.Errorf("unresolved = %q, want %q", res.UnresolvedLinks, want)
	}
}
