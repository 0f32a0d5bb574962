package store

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recallhq/recall/internal/mdcode"
)

// InlineTags returns the tags written in content as Obsidian writes them
// in a note's body: '#' followed by tag characters, at the start of a
// line or after white space, outside code (fenced blocks, ``` or ~~~, and
// inline code spans, `...`, by internal/mdcode's rule, which links and
// sections follow too), in the order they first appear, each once (a
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
	code := mdcode.Code(content) // skipped: the rule links and sections follow
	prev := ' '                  // the rune before i; the text starts as after white space
	for i := 0; i < len(content); {
		if len(code) > 0 && i >= code[0].Start {
			i = max(i, code[0].End)
			prev = '`' // "`x`#tag" holds no tag
			if code[0].Fenced {
				prev = '\n' // a fenced block ends with its line
			}
			code = code[1:]
			continue
		}
		c := content[i]
		if c == '#' && unicode.IsSpace(prev) {
			j := i + 1
			for j < len(content) {
				r, size := utf8.DecodeRuneInString(content[j:])
				if !isTagRune(r) {
					break
				}
				j += size
			}
			tag := strings.TrimRight(content[i+1:j], "/")
			if tag != "" && strings.TrimFunc(tag, unicode.IsDigit) != "" && ValidateTag(tag) == nil {
				out = addTag(out, tag)
			}
			if j > i+1 {
				prev = 'x'
				i = j
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(content[i:])
		prev = r
		i += size
	}
	return out
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
