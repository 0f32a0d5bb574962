package retrieve

import (
	"net/url"
	"strings"
)

// markdownLinks returns the markdown links of content that may name a
// note (see ParseLinks) and where each starts. masked is content with its
// code blanked (maskCode), so offsets in one are offsets in the other.
func markdownLinks(selfCategory, content, masked string) (links []Link, at []int) {
	if !strings.Contains(masked, "](") {
		return nil, nil
	}
	for i := 0; i < len(masked); i++ {
		if masked[i] != '[' || i+1 < len(masked) && masked[i+1] == '[' || i > 0 && masked[i-1] == '[' {
			continue
		}
		j := i + 1 // the closing ']' of the text
		for j < len(masked) && masked[j] != ']' && masked[j] != '[' && masked[j] != '\n' {
			j++
		}
		if j+1 >= len(masked) || masked[j] != ']' || masked[j+1] != '(' {
			continue
		}
		dest, end, ok := linkDestination(content, masked, j+2)
		if !ok {
			continue
		}
		l, ok := mdTarget(selfCategory, dest)
		if ok {
			l.Raw = content[i:end]
			l.Label = strings.TrimSpace(content[i+1 : j])
			l.Embed = i > 0 && content[i-1] == '!'
			links = append(links, l)
			at = append(at, i)
		}
		i = end - 1
	}
	return links, at
}

// linkDestination reads a markdown link's destination from content[from:]
// (just after the '('), up to the closing ')', an optional title before it
// skipped: dest is as written (angle brackets removed), end the offset
// after the ')'. ok is false when the text is not a link destination.
func linkDestination(content, masked string, from int) (dest string, end int, ok bool) {
	k := from
	for k < len(masked) && (masked[k] == ' ' || masked[k] == '\t') {
		k++
	}
	if k < len(masked) && masked[k] == '<' {
		close := strings.IndexAny(masked[k+1:], ">\n")
		if close < 0 || masked[k+1+close] != '>' {
			return "", 0, false
		}
		dest = content[k+1 : k+1+close]
		k += close + 2
	} else {
		start, depth := k, 0
	scan:
		for ; k < len(masked); k++ {
			switch masked[k] {
			case '(':
				depth++
			case ')':
				if depth == 0 {
					break scan
				}
				depth--
			case ' ', '\t', '\n':
				break scan
			}
		}
		dest = content[start:k]
	}
	// An optional title, then ')'.
	rest := masked[k:]
	trimmed := strings.TrimLeft(rest, " \t")
	if trimmed != "" && (trimmed[0] == '"' || trimmed[0] == '\'') && len(trimmed) < len(rest) {
		q := trimmed[0]
		c := strings.IndexByte(trimmed[1:], q)
		if c < 0 {
			return "", 0, false
		}
		trimmed = strings.TrimLeft(trimmed[c+2:], " \t")
	}
	if trimmed == "" || trimmed[0] != ')' {
		return "", 0, false
	}
	end = len(masked) - len(trimmed) + 1
	if strings.ContainsRune(content[from:end], '\n') {
		return "", 0, false
	}
	return dest, end, true
}

// mdTarget makes a Link of a markdown destination; ok is false for what
// is no note link: empty, external (a scheme, "//").
func mdTarget(selfCategory, dest string) (Link, bool) {
	dest = strings.TrimSpace(dest)
	if dest == "" || strings.HasPrefix(dest, "//") || hasScheme(dest) {
		return Link{}, false
	}
	if u, err := url.PathUnescape(dest); err == nil {
		dest = u
	}
	if strings.ContainsAny(dest, "[]\n|") {
		return Link{}, false
	}
	// A colon left after hasScheme is part of a name (decoded "%3A", or
	// "<Q3 plan: notes.md>"), never recall's category:name.
	return parseTarget(selfCategory, dest, false)
}

// hasScheme reports whether s starts with a URL scheme ("https:",
// "mailto:", "obsidian:", "C:" of a Windows path): a letter, then
// letters, digits, '+', '-' or '.', then ':'.
func hasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}
