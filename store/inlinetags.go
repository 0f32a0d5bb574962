package store

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// InlineTags returns the tags written in content as Obsidian writes them
// in a note's body: '#' followed by tag characters, at the start of a
// line or after white space, outside fenced code blocks (``` or ~~~) and
// inline code (`...`), in the order they first appear, each once (a
// later spelling that differs only in case is the same tag, as in
// Obsidian; the first is kept).
//
// Tag characters are letters, marks, digits, '_', '-', '/' (nested tags:
// "#area/sub") and any other character above ASCII that is neither white
// space nor punctuation (emoji, symbols). A tag ends at the first other
// character, and a trailing '/' is not part of it. So "# Heading" and
// "##" are no tags, nor is a tag made of digits alone ("#123", "#2024"),
// nor "#anchor" inside a URL or a link ("site.com/#anchor", "[x](#h)"),
// since no white space precedes its '#'. Tags that ValidateTag refuses
// are left out. None when content holds no tag.
func InlineTags(content string) []string {
	if strings.IndexByte(content, '#') < 0 {
		return nil
	}
	var out []string
	fence := "" // the fence of the code block we are in, if any
	for line := range strings.Lines(content) {
		line = strings.TrimRight(line, "\r\n")
		if f := fenceOf(line); f != "" {
			switch {
			case fence == "":
				fence = f
				continue
			case f[0] == fence[0] && len(f) >= len(fence) && strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), f[:1])) == "":
				fence = ""
				continue
			}
		}
		if fence != "" || strings.IndexByte(line, '#') < 0 {
			continue
		}
		out = appendLineTags(out, line)
	}
	return out
}

// fenceOf returns the run of backticks or tildes (three or more) that
// opens line as a code fence, after at most three spaces; "" when the
// line is not a fence.
func fenceOf(line string) string {
	s := strings.TrimLeft(line, " ")
	if len(line)-len(s) > 3 || len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return ""
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 || (s[0] == '`' && strings.IndexByte(s[n:], '`') >= 0) {
		return ""
	}
	return s[:n]
}

// appendLineTags appends the tags of one line outside a code block,
// skipping its inline code spans.
func appendLineTags(out []string, line string) []string {
	prev := ' ' // the rune before i; a line starts as after white space
	for i := 0; i < len(line); {
		c := line[i]
		if c == '`' {
			n := 0
			for i+n < len(line) && line[i+n] == '`' {
				n++
			}
			if end := closingTicks(line[i+n:], n); end >= 0 {
				i += n + end + n
				prev = '`'
				continue
			}
			i += n
			prev = '`'
			continue
		}
		if c == '#' && unicode.IsSpace(prev) {
			j := i + 1
			for j < len(line) {
				r, size := utf8.DecodeRuneInString(line[j:])
				if !isTagRune(r) {
					break
				}
				j += size
			}
			tag := strings.TrimRight(line[i+1:j], "/")
			if tag != "" && strings.TrimFunc(tag, unicode.IsDigit) != "" && ValidateTag(tag) == nil {
				out = addTag(out, tag)
			}
			if j > i+1 {
				prev = 'x'
				i = j
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(line[i:])
		prev = r
		i += size
	}
	return out
}

// closingTicks returns where in s a run of exactly n backticks starts,
// or -1.
func closingTicks(s string, n int) int {
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		m := 0
		for i+m < len(s) && s[i+m] == '`' {
			m++
		}
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// isTagRune reports whether r may be part of an inline tag.
func isTagRune(r rune) bool {
	switch {
	case r == '_' || r == '-' || r == '/':
		return true
	case r < utf8.RuneSelf:
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	case r == utf8.RuneError:
		return false
	}
	return !unicode.IsSpace(r) && !unicode.IsPunct(r) && !unicode.IsControl(r)
}

// addTag appends tag unless list holds it in any letter case.
func addTag(list []string, tag string) []string {
	for _, t := range list {
		if strings.EqualFold(t, tag) {
			return list
		}
	}
	return append(list, tag)
}

// EntryTags are the tags of e that a tag filter and a listing go by: its
// metadata's (Meta.Tags, as written) and then the inline tags of its
// content (InlineTags) that are not among them in any letter case. It is
// Meta.Tags itself, not a copy, when the content has no inline tag.
func EntryTags(e Entry) []string {
	inline := InlineTags(e.Content)
	if len(inline) == 0 {
		return e.Meta.Tags
	}
	out := append([]string(nil), e.Meta.Tags...)
	for _, t := range inline {
		out = addTag(out, t)
	}
	return out
}
