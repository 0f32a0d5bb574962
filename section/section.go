// Package section splits a note's markdown body into its sections by
// heading, the way a reader of the note sees them.
//
// A section runs from its heading line to the next heading of any level
// (its subsections are sections of their own), and is named by its
// heading path: the texts of the headings above it and its own, joined by
// " > " ("Install > On Linux"). The text before the first heading, when
// it holds anything but blank lines, is a section of its own with an
// empty path. A heading followed by nothing but blank lines before a
// deeper heading has no text of its own: it opens that deeper heading's
// section instead, so that no section is a bare heading.
//
// Headings are CommonMark's: ATX ("## Text", up to three spaces of
// indent, 1 to 6 '#' then a space, a tab or the end of the line; a
// closing run of '#' is dropped) and setext (a text line underlined with
// '=' for level 1 or '-' for level 2). Lines inside fenced code blocks
// (``` or ~~~, by internal/mdcode's rule, which links and inline tags
// follow too) are never headings, so a "# comment" in a shell snippet
// does not split its block; a line indented four spaces or more is not a
// heading either. "#tag" (no space) is a tag, not a heading.
//
// The body is expected without front matter (the stores keep it apart).
// A body with no heading is one section: Split returns nil for it, and
// callers keep the note whole.
package section

import (
	"strings"

	"github.com/recallhq/recall/internal/mdcode"
)

// Section is one section of a body: Text is body[Start:End].
type Section struct {
	// Path is the heading texts from the outermost to this section's own;
	// empty for the text before the first heading.
	Path []string
	// Level is the section's own heading level (1 to 6), 0 before the
	// first heading.
	Level int
	// Start and End are byte offsets in the body: Text is body[Start:End],
	// from the start of the heading line (or of the body) to the start of
	// the next section's first line (or the end).
	Start, End int
	Text       string
}

// Name is the section's heading path joined by " > ".
func (s Section) Name() string { return strings.Join(s.Path, " > ") }

// heading is a heading line found in the body.
type heading struct {
	level      int
	text       string
	start, end int // the heading's lines (both lines of a setext heading)
}

// Split returns the sections of body in order, or nil when body has no
// heading: then the note is one section, itself. The sections' texts,
// concatenated, are body.
func Split(body string) []Section {
	hs := headings(body)
	if len(hs) == 0 {
		return nil
	}
	var out []Section
	if pre := body[:hs[0].start]; strings.TrimSpace(pre) != "" {
		out = append(out, Section{Start: 0, End: hs[0].start, Text: pre})
	}
	var stack []heading // the open headings, outermost first
	start := -1         // where the pending section began (a bare heading's)
	for i, h := range hs {
		for len(stack) > 0 && stack[len(stack)-1].level >= h.level {
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, h)
		if start < 0 {
			start = h.start
		}
		end := len(body)
		if i+1 < len(hs) {
			end = hs[i+1].start
			// A bare heading (nothing but blank lines before a deeper
			// one) opens the deeper heading's section.
			if hs[i+1].level > h.level && strings.TrimSpace(body[h.end:end]) == "" {
				continue
			}
		}
		path := make([]string, 0, len(stack))
		for _, o := range stack {
			if o.text != "" { // an empty heading ("##") names nothing
				path = append(path, o.text)
			}
		}
		out = append(out, Section{Path: path, Level: h.level, Start: start, End: end, Text: body[start:end]})
		start = -1
	}
	if len(out) > 0 && out[0].Start > 0 {
		// Whitespace-only text before the first heading joins it.
		out[0].Start, out[0].Text = 0, body[:out[0].End]
	}
	return out
}

// headings finds the heading lines of body, outside fenced code.
func headings(body string) []heading {
	if !strings.ContainsAny(body, "#=-") {
		return nil
	}
	var out []heading
	var fence mdcode.Fence
	prevStart, prevEnd := -1, -1 // the previous line, when a setext heading could underline it
	for pos := 0; pos < len(body); {
		next := len(body)
		if eol := strings.IndexByte(body[pos:], '\n'); eol >= 0 {
			next = pos + eol + 1
		}
		line := strings.TrimRight(body[pos:next], "\r\n")
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		paragraph := false // this line could be underlined by the next
		switch {
		case fence.Line(line):
			// In a fenced block (mdcode: the rule links and inline tags
			// follow too), fence lines included.
		case indent > 3:
			// Indented code, or a paragraph's continuation.
			paragraph = prevStart >= 0
		case trimmed == "":
		default:
			if lvl, text, ok := atx(trimmed); ok {
				out = append(out, heading{level: lvl, text: text, start: pos, end: next})
				break
			}
			if lvl := setext(trimmed); lvl > 0 && prevStart >= 0 {
				text := strings.TrimSpace(body[prevStart:prevEnd])
				out = append(out, heading{level: lvl, text: text, start: prevStart, end: next})
				break
			}
			paragraph = plainLine(trimmed)
		}
		if paragraph {
			if prevStart < 0 {
				prevStart = pos
			}
			prevEnd = next
		} else {
			prevStart, prevEnd = -1, -1
		}
		pos = next
	}
	return out
}

// atx reads an ATX heading line (indent already removed).
func atx(line string) (level int, text string, ok bool) {
	for level < len(line) && line[level] == '#' {
		level++
	}
	if level == 0 || level > 6 {
		return 0, "", false
	}
	rest := line[level:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return 0, "", false
	}
	rest = strings.TrimSpace(rest)
	// A closing run of '#', preceded by a space (or all there is).
	if t := strings.TrimRight(rest, "#"); t != rest && (t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t")) {
		rest = strings.TrimSpace(t)
	}
	return level, rest, true
}

// setext reads a setext underline (indent already removed): 1 for '=',
// 2 for '-', else 0.
func setext(line string) int {
	line = strings.TrimRight(line, " \t")
	if line == "" || strings.Trim(line, string(line[0])) != "" {
		return 0
	}
	switch line[0] {
	case '=':
		return 1
	case '-':
		return 2
	}
	return 0
}

// plainLine reports whether a line is paragraph text that a setext
// underline can turn into a heading: not a list item, quote, table row or
// thematic break.
func plainLine(line string) bool {
	switch line[0] {
	case '-', '*', '+', '>', '|', '_':
		return false
	}
	i := 0
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i > 0 && i < len(line) && (line[i] == '.' || line[i] == ')') {
		return false
	}
	return true
}
