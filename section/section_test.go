package section

import (
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	type want struct {
		name string // the heading path, joined
		text string
	}
	cases := []struct {
		title string
		body  string
		want  []want // nil: no headings, the note stays whole
	}{
		{"no headings", "Just a paragraph.\n\nAnd another with #tag.\n", nil},
		{"empty", "", nil},
		{"a tag is no heading", "#tag at the start\n#another\n", nil},
		{"seven hashes are text", "####### not a heading\n", nil},
		{"indented four spaces is code", "    # not a heading\n", nil},
		{"every ATX level",
			"# One\na\n## Two\nb\n### Three\nc\n#### Four\nd\n##### Five\ne\n###### Six\nf\n",
			[]want{
				{"One", "# One\na\n"},
				{"One > Two", "## Two\nb\n"},
				{"One > Two > Three", "### Three\nc\n"},
				{"One > Two > Three > Four", "#### Four\nd\n"},
				{"One > Two > Three > Four > Five", "##### Five\ne\n"},
				{"One > Two > Three > Four > Five > Six", "###### Six\nf\n"},
			}},
		{"siblings and a step back up",
			"intro line\n\n## A\na\n### A1\na1\n## B\nb\n# C\nc\n",
			[]want{
				{"", "intro line\n\n"},
				{"A", "## A\na\n"},
				{"A > A1", "### A1\na1\n"},
				{"B", "## B\nb\n"},
				{"C", "# C\nc\n"},
			}},
		{"a skipped level keeps the path",
			"# Top\nt\n### Deep\nd\n## Mid\nm\n",
			[]want{{"Top", "# Top\nt\n"}, {"Top > Deep", "### Deep\nd\n"}, {"Top > Mid", "## Mid\nm\n"}}},
		{"a bare heading opens its child's section",
			"## Links\n\n### Internal\ni\n### External\ne\n",
			[]want{{"Links > Internal", "## Links\n\n### Internal\ni\n"}, {"Links > External", "### External\ne\n"}}},
		{"closing hashes, indent, tab",
			"  ## Spaced ##\nx\n#\tTabbed\ny\n##\nempty heading\n",
			[]want{{"Spaced", "  ## Spaced ##\nx\n"}, {"Tabbed", "#\tTabbed\ny\n"}, {"Tabbed", "##\nempty heading\n"}}},
		{"a hash inside the text stays",
			"## C# tips #1\nz\n",
			[]want{{"C# tips #1", "## C# tips #1\nz\n"}}},
		{"fences do not split",
			"## Shell\n```sh\n# a comment\necho hi\n```\n~~~\n# another\n~~~\n## After\nx\n",
			[]want{{"Shell", "## Shell\n```sh\n# a comment\necho hi\n```\n~~~\n# another\n~~~\n"}, {"After", "## After\nx\n"}}},
		{"a longer fence closes only on as long a run",
			"# A\n````\n```\n# inside\n````\n# B\n",
			[]want{{"A", "# A\n````\n```\n# inside\n````\n"}, {"B", "# B\n"}}},
		{"an unclosed fence runs to the end",
			"# A\n```\n# inside\n# still inside\n",
			[]want{{"A", "# A\n```\n# inside\n# still inside\n"}}},
		{"setext headings",
			"Title\n=====\nt\n\nSub title\n---\ns\n",
			[]want{{"Title", "Title\n=====\nt\n\n"}, {"Title > Sub title", "Sub title\n---\ns\n"}}},
		{"a multi-line paragraph underlined",
			"first line\nsecond line\n===\nbody\n",
			[]want{{"first line\nsecond line", "first line\nsecond line\n===\nbody\n"}}},
		{"a thematic break after a blank line is no heading",
			"# A\ntext\n\n---\nmore\n",
			[]want{{"A", "# A\ntext\n\n---\nmore\n"}}},
		{"a list item underlined is no heading",
			"# A\n- item\n---\n",
			[]want{{"A", "# A\n- item\n---\n"}}},
		{"CRLF",
			"# A\r\na\r\n## B\r\nb\r\n",
			[]want{{"A", "# A\r\na\r\n"}, {"A > B", "## B\r\nb\r\n"}}},
		{"blank text before the first heading joins it",
			"\n\n# A\na\n",
			[]want{{"A", "\n\n# A\na\n"}}},
	}
	for _, c := range cases {
		t.Run(c.title, func(t *testing.T) {
			got := Split(c.body)
			if c.want == nil {
				if got != nil {
					t.Fatalf("Split = %+v, want nil (no headings)", got)
				}
				return
			}
			var gw []want
			var joined strings.Builder
			for _, s := range got {
				gw = append(gw, want{s.Name(), s.Text})
				if s.Text != c.body[s.Start:s.End] {
					t.Errorf("section %q: Text is not body[%d:%d]", s.Name(), s.Start, s.End)
				}
				joined.WriteString(s.Text)
			}
			if !slices.Equal(gw, c.want) {
				t.Errorf("Split:\n got %q\nwant %q", gw, c.want)
			}
			if joined.String() != c.body {
				t.Errorf("the sections do not make up the body: %q", joined.String())
			}
		})
	}
}

func TestSplitLevels(t *testing.T) {
	got := Split("pre\n# A\n## B\nb\n")
	if len(got) != 2 || got[0].Level != 0 || got[0].Path != nil || got[1].Level != 2 {
		t.Fatalf("levels: %+v", got)
	}
}
