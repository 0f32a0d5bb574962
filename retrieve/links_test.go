package retrieve

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseLinks(t *testing.T) {
	cases := []struct {
		content string
		want    []Link
	}{
		{"no links here", nil},
		{"see [[trips:三亚之行]].", []Link{{Raw: "[[trips:三亚之行]]", Category: "trips", Name: "三亚之行"}}},
		{"[[sibling]]", []Link{{Raw: "[[sibling]]", Category: "self", Name: "sibling"}}},
		{"[[people:Mark Tan|Mark]] and [[ note | label ]]", []Link{
			{Raw: "[[people:Mark Tan|Mark]]", Category: "people", Name: "Mark Tan", Label: "Mark"},
			{Raw: "[[ note | label ]]", Category: "self", Name: "note", Label: "label"},
		}},
		{"[[a:b]][[c:d]]", []Link{{Raw: "[[a:b]]", Category: "a", Name: "b"}, {Raw: "[[c:d]]", Category: "c", Name: "d"}}},
		{"[[]] [[ ]] [[:x]] [[x:]] [[|label]]", nil},
		{"unclosed [[a:b", nil},
		{"[[outer [[inner]] ]]", []Link{{Raw: "[[inner]]", Category: "self", Name: "inner"}}},
		{"[[multi\nline]]", nil},
		{"[[a:b:c]]", []Link{{Raw: "[[a:b:c]]", Category: "a", Name: "b:c"}}},
		{"[[daily_life:renamed-item]]", []Link{{Raw: "[[daily_life:renamed-item]]", Category: "daily_life", Name: "renamed-item"}}},
	}
	for _, c := range cases {
		got := ParseLinks("self", c.content)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseLinks(%q) =\n %+v\nwant\n %+v", c.content, got, c.want)
		}
	}
}

func FuzzParseLinks(f *testing.F) {
	for _, s := range []string{"[[a:b]]", "[[x|y]]", "[[[[a]]]]", "[[a:b]] text [[c]]", "]]]][[[[", "[[\xff]]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		links := ParseLinks("self", content)
		rest := content
		for _, l := range links {
			// Each link is found, in order, as written.
			i := strings.Index(rest, l.Raw)
			if i < 0 {
				t.Fatalf("link %q not found in order in %q", l.Raw, content)
			}
			rest = rest[i+len(l.Raw):]
			if !strings.HasPrefix(l.Raw, "[[") || !strings.HasSuffix(l.Raw, "]]") {
				t.Fatalf("raw %q lacks brackets", l.Raw)
			}
			if l.Name == "" || l.Category == "" {
				t.Fatalf("empty target in %+v", l)
			}
			if strings.ContainsAny(l.Name+l.Category, "[]|\n") {
				t.Fatalf("target %+v contains link syntax", l)
			}
		}
		if !reflect.DeepEqual(links, ParseLinks("self", content)) {
			t.Fatal("not deterministic")
		}
	})
}
