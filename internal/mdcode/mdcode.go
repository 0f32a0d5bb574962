// Package mdcode decides which bytes of a markdown text are code, the one
// rule for everything recall reads out of a note's body: links
// (retrieve), inline tags (store.InlineTags) and section headings
// (section) are not taken from code.
//
// Code is, as in CommonMark:
//
//   - a fenced block: a line opening, after at most three spaces, with a
//     run of at least three ` or ~ (a backtick fence's info string holds
//     no backtick), up to and including a line that is, after at most
//     three spaces, a run of the same character at least as long and
//     nothing else but white space; an unclosed block runs to the end;
//   - an inline code span outside those blocks: a run of n backticks up
//     to the next run of exactly n, within the paragraph (no blank line,
//     ATX heading, setext underline or thematic break of '-', and no
//     fenced block, between them); the backticks are part of it.
//
// Indented code blocks, block quotes and list items are not told apart
// (a fence inside "> " is text).
package mdcode

import (
	"bytes"
	"strings"
)

// Fence follows fenced code blocks line by line. Its zero value is
// outside any block.
type Fence struct {
	c byte // the fence character of the open block, 0 outside
	n int  // the length of its opening run
}

// Line takes the next line of the text, with or without its line break,
// and reports whether it belongs to a fenced block: the opening fence
// line, a line inside, or the closing fence line.
func (f *Fence) Line(line string) bool {
	c, n, rest := fenceRun(line)
	if f.c == 0 {
		if n > 0 && (c == '~' || strings.IndexByte(rest, '`') < 0) {
			f.c, f.n = c, n
			return true
		}
		return false
	}
	if c == f.c && n >= f.n && strings.TrimSpace(rest) == "" {
		f.c, f.n = 0, 0
	}
	return true
}

// Open reports whether a fenced block is open: the lines so far ended
// inside one.
func (f *Fence) Open() bool { return f.c != 0 }

// fenceRun returns the fence character and length of the run that opens
// line after at most three spaces, when it is at least three long, and
// what follows the run; n is 0 when line is no fence line.
func fenceRun(line string) (c byte, n int, rest string) {
	s := strings.TrimLeft(line, " ")
	if len(line)-len(s) > 3 || len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return 0, 0, ""
	}
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 {
		return 0, 0, ""
	}
	return s[0], n, s[n:]
}

// Span is a piece of code in a text: the bytes [Start, End). A fenced
// block's span runs from the start of its opening line to the end of its
// closing line, line break included (or to the end of the text).
type Span struct {
	Start, End int
	Fenced     bool // a fenced block, not an inline code span
}

// Code returns the code of md in order: its fenced blocks and inline code
// spans, which do not overlap. It is nil when md holds neither ` nor ~,
// without looking further.
func Code(md string) []Span {
	// Two IndexByte scans (vectorised) rather than ContainsAny, which
	// tests each byte against a set: this check runs on every hit's text.
	if strings.IndexByte(md, '`') < 0 && strings.IndexByte(md, '~') < 0 {
		return nil
	}
	var fenced []Span
	fencedBlocks(md, func(from, to int) { fenced = append(fenced, Span{from, to, true}) })
	if strings.IndexByte(md, '`') < 0 {
		return fenced
	}
	b := []byte(md)
	for _, sp := range fenced {
		blank(b, sp.Start, sp.End)
	}
	var out []Span
	k := 0 // the next fenced block to merge in
	inlineSpans(b, func(from, to int) {
		for k < len(fenced) && fenced[k].Start < from {
			out = append(out, fenced[k])
			k++
		}
		out = append(out, Span{from, to, false})
	})
	if out == nil {
		return fenced
	}
	return append(out, fenced[k:]...)
}

// fencedBlocks calls fn with the span of each fenced block of md, in
// order.
func fencedBlocks(md string, fn func(from, to int)) {
	var f Fence
	start := -1
	for pos := 0; pos < len(md); {
		next := len(md)
		if eol := strings.IndexByte(md[pos:], '\n'); eol >= 0 {
			next = pos + eol + 1
		}
		if f.Line(md[pos:next]) {
			if start < 0 {
				start = pos
			}
			if !f.Open() {
				fn(start, next)
				start = -1
			}
		}
		pos = next
	}
	if start >= 0 {
		fn(start, len(md))
	}
}

// inlineSpans calls fn with the span of each inline code span of b, in
// order, b's fenced blocks blanked: a blanked block reads as blank lines,
// which end a paragraph.
func inlineSpans(b []byte, fn func(from, to int)) {
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '`')
		if j < 0 {
			return
		}
		i += j
		n := 0
		for i+n < len(b) && b[i+n] == '`' {
			n++
		}
		end := closingRun(b, i+n, n)
		if end < 0 {
			i += n
			continue
		}
		fn(i, end)
		i = end
	}
}

// closingRun returns the end of the first run of exactly n backticks in s
// from from, before a blank line; -1 when there is none.
func closingRun(s []byte, from, n int) int {
	for j := from; j < len(s); {
		switch s[j] {
		case '`':
			m := 0
			for j+m < len(s) && s[j+m] == '`' {
				m++
			}
			if m == n {
				return j + m
			}
			j += m
		case '\n':
			if endsParagraph(s[j+1:]) {
				return -1
			}
			j++
		default:
			j++
		}
	}
	return -1
}

// endsParagraph reports whether the line at the start of s ends the
// paragraph before it, so that no code span runs across it: a blank line
// (or the end of the text), an ATX heading ("# H", after at most three
// spaces), or a line of '=' or '-' alone (a setext underline, which makes
// the paragraph a heading, or a thematic break).
func endsParagraph(line []byte) bool {
	if eol := bytes.IndexByte(line, '\n'); eol >= 0 {
		line = line[:eol]
	}
	t := bytes.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return len(bytes.TrimSpace(t)) == 0
	}
	t = bytes.TrimRight(t, " \t\r")
	if len(t) == 0 {
		return true
	}
	if h := bytes.TrimLeft(t, "#"); len(t)-len(h) >= 1 && len(t)-len(h) <= 6 && (len(h) == 0 || h[0] == ' ' || h[0] == '\t') {
		return true
	}
	return len(bytes.Trim(t, "=")) == 0 || len(bytes.Trim(t, "-")) == 0
}

// Mask returns md with every byte of its code (Code) replaced by a space,
// line breaks kept, so that offsets in the result are offsets in md: md
// itself when it holds neither ` nor ~.
func Mask(md string) string {
	if strings.IndexByte(md, '`') < 0 && strings.IndexByte(md, '~') < 0 {
		return md
	}
	b := []byte(md)
	fencedBlocks(md, func(from, to int) { blank(b, from, to) })
	inlineSpans(b, func(from, to int) { blank(b, from, to) })
	return string(b)
}

// blank replaces b[from:to] by spaces, line breaks kept.
func blank(b []byte, from, to int) {
	for i := from; i < to; i++ {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
}
