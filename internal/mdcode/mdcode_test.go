package mdcode

import (
	"slices"
	"strings"
	"testing"
)

func TestFenceLines(t *testing.T) {
	for _, c := range []struct {
		name string
		text string
		in   string // for each line, 'c' in a fenced block, '.' outside
		open bool   // still open at the end
	}{
		{"backticks", "```\nx\n```\ny", "ccc.", false},
		{"tildes with info", "~~~ go\nx\n~~~\n", "ccc", false},
		{"closer longer", "```\nx\n`````\ny", "ccc.", false},
		{"closer too short", "````\nx\n```\ny", "cccc", true},
		{"closer with text", "```\nx\n``` y\n", "ccc", true},
		{"closer with trailing spaces", "```\nx\n```  \ny", "ccc.", false},
		{"other character does not close", "```\n~~~\n```\n", "ccc", false},
		{"three spaces of indent", "   ```\nx\n   ```\ny", "ccc.", false},
		{"four spaces: no fence", "    ```\nx", "..", false},
		{"closer indented four: no closer", "```\n    ```\n```", "ccc", false},
		{"two backticks: no fence", "``\nx", "..", false},
		{"backtick info with a backtick: no fence", "``` a`b\nx", "..", false},
		{"tilde info with a backtick", "~~~ a`b\nx\n~~~", "ccc", false},
		{"CRLF", "```\r\nx\r\n```\r\ny", "ccc.", false},
	} {
		var f Fence
		got := ""
		for line := range strings.Lines(c.text) {
			if f.Line(line) {
				got += "c"
			} else {
				got += "."
			}
		}
		if got != c.in || f.Open() != c.open {
			t.Errorf("%s: lines %q open %v, want %q open %v", c.name, got, f.Open(), c.in, c.open)
		}
	}
}

func TestMask(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"no code", "plain [[A]] #t", "plain [[A]] #t"},
		{"inline span", "a `b` c", "a     c"},
		{"double backticks hold one", "a ``b ` c`` d", "a           d"},
		{"unmatched run", "a `` b ` c", "a `` b ` c"},
		{"span over a line break", "a `b\nc` d", "a   \n   d"},
		{"blank line ends the paragraph", "a `b\n\nc` d", "a `b\n\nc` d"},
		{"CRLF blank line ends the paragraph", "a `b\r\n\r\nc` d", "a `b\r\n\r\nc` d"},
		{"a heading ends the paragraph", "a `b\n## H\nc` d", "a `b\n## H\nc` d"},
		{"a heading needs its space", "a `b\n#tag\nc` d", "a   \n    \n   d"},
		{"a setext underline ends the paragraph", "a `b\n===\nc` d", "a `b\n===\nc` d"},
		{"a thematic break ends the paragraph", "a `b\n  ---\nc` d", "a `b\n  ---\nc` d"},
		{"fenced block", "x\n```\n[[A]]\n```\ny", "x\n   \n     \n   \ny"},
		{"unclosed block to the end", "x\n~~~\n[[A]]\n", "x\n   \n     \n"},
		{"no span across a fenced block", "`a\n```\nb\n```\nc`", "`a\n   \n \n   \nc`"},
		{"spans either side of a block", "`a` x\n```\nb\n```\n`c`", "    x\n   \n \n   \n   "},
	} {
		if got := Mask(c.text); got != c.want {
			t.Errorf("%s: Mask(%q) = %q, want %q", c.name, c.text, got, c.want)
		}
	}
}

func TestCodeSpans(t *testing.T) {
	got := Code("`a` x\n```\nb\n```\n`c`")
	want := []Span{{0, 3, false}, {6, 16, true}, {16, 19, false}}
	if !slices.Equal(got, want) {
		t.Errorf("Code = %v, want %v", got, want)
	}
	if Code("no code here") != nil {
		t.Error("Code of a text without ` or ~ is not nil")
	}
}
