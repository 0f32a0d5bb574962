package retrieve

import (
	"strings"

	"github.com/recallhq/recall/internal/mdcode"
)

// LinkKind says how a link names its target (SPEC §7 step 3).
type LinkKind uint8

const (
	// LinkExact is [[category:name]]: exactly that identity.
	LinkExact LinkKind = iota
	// LinkPath is [[a/b/name]] (a trailing .md dropped): category a/b,
	// exactly.
	LinkPath
	// LinkBare is [[name]]: the linking entry's own category when it holds
	// the name, else the one entry with that name in any category.
	LinkBare
	// LinkSelf is [[#heading]] or [[#^block]]: a place in the linking entry
	// itself.
	LinkSelf
)

// Link is one wiki-link as written in an entry's content, in Obsidian's
// syntax: [[target]], [[target|label]], [[target#heading]],
// [[target#^block]], each optionally embedded as ![[...]].
type Link struct {
	// Raw is the link as written, brackets included and without the '!' of
	// an embed: "[[trips:三亚之行|Sanya]]". It is what
	// Result.UnresolvedLinks reports.
	Raw   string
	Embed bool // written ![[...]]
	Kind  LinkKind
	// Category is the category the link names (LinkExact, LinkPath) or,
	// for LinkBare and LinkSelf, the linking entry's own one (the first
	// place a bare name is looked for).
	Category string
	// Name is the target's name; empty for LinkSelf.
	Name    string
	Heading string // after '#', when that is not a block reference
	Block   string // after "#^"
	Label   string // after '|'; a markdown link's text

	// target is the link path as written, trimmed, without its heading,
	// block and label (a markdown link's destination URL-decoded): what
	// Links.resolve looks up.
	target string
}

// ParseLinks returns the links of content in order of appearance: its
// wiki-links and its markdown links to notes. selfCategory is the linking
// entry's category (see Link.Category).
//
// Wiki-links: surrounding spaces inside the brackets are ignored. Text that
// is not a well-formed link is not a link: an empty target ([[]],
// [[|label]]), a target spanning lines or holding brackets, a path ending
// in '/'. When brackets nest, "[[a [[b]]", the innermost pair is the link.
//
// Markdown links, [text](destination) and ![text](destination): the
// destination is URL-decoded ("%20" a space) and may be written in angle
// brackets; one with a scheme (https:, mailto:, obsidian:) or starting
// "//" is not a note link, and neither is one holding a space outside
// angle brackets (CommonMark's rule). Raw is the link as written, without
// the '!'.
//
// Links inside code, as Obsidian sees it, are not links either: fenced
// blocks (``` or ~~~) and inline code spans (`like [[this]]`).
func ParseLinks(selfCategory, content string) []Link {
	if strings.IndexByte(content, '[') < 0 {
		// Both kinds of link open with '[': nothing to mask or read (most
		// notes, and every retrieve after a write, whose new snapshot
		// starts with an empty link memo).
		return nil
	}
	masked := maskCode(content)
	md, mdAt := markdownLinks(selfCategory, content, masked)
	links, at := wikiLinks(selfCategory, content, masked, len(md) > 0)
	if len(md) == 0 {
		return links
	}
	if len(links) == 0 {
		return md
	}
	out := make([]Link, 0, len(links)+len(md))
	i, j := 0, 0
	for i < len(links) || j < len(md) {
		if j == len(md) || i < len(links) && at[i] < mdAt[j] {
			out = append(out, links[i])
			i++
		} else {
			out = append(out, md[j])
			j++
		}
	}
	return out
}

// wikiLinks returns the wiki-links of content and, when withAt, where
// each starts.
func wikiLinks(selfCategory, content, masked string, withAt bool) (links []Link, at []int) {
	off := 0 // masked[off:] is still to be read
	for {
		i := strings.Index(masked[off:], "[[")
		if i < 0 {
			return links, at
		}
		start := off + i
		j := strings.Index(masked[start+2:], "]]")
		if j < 0 {
			return links, at
		}
		inner := masked[start+2 : start+2+j]
		// "[[a [[b]]": the link is the innermost one.
		if k := strings.LastIndex(inner, "[["); k >= 0 {
			off = start + 2 + k
			continue
		}
		end := start + 2 + j + 2
		off = end
		inner = content[start+2 : end-2] // as written: code inside a link is text
		if strings.ContainsAny(inner, "[]\n") {
			continue
		}
		l, ok := parseTarget(selfCategory, inner, true)
		if !ok {
			continue
		}
		l.Raw = content[start:end]
		l.Embed = start > 0 && content[start-1] == '!'
		links = append(links, l)
		if withAt {
			at = append(at, start)
		}
	}
}

// parseTarget reads what is between the brackets. exact says whether a
// colon makes recall's [[category:name]] (wiki-links); a markdown
// destination is always a path, so there a colon is part of a name
// ("Q3: plan", a note of SPEC §1's name mapping).
func parseTarget(selfCategory, inner string, exact bool) (Link, bool) {
	var l Link
	target := inner
	if p := strings.IndexByte(inner, '|'); p >= 0 {
		target, l.Label = inner[:p], strings.TrimSpace(inner[p+1:])
		// Inside a table Obsidian writes the pipe escaped: [[note\|label]].
		target = strings.TrimSuffix(target, `\`)
	}
	if h := strings.IndexByte(target, '#'); h >= 0 {
		frag := strings.TrimSpace(target[h+1:])
		target = target[:h]
		if b, ok := strings.CutPrefix(frag, "^"); ok {
			l.Block = b
		} else {
			l.Heading = frag
		}
		if frag == "" && strings.TrimSpace(target) == "" {
			return Link{}, false // "[[#]]"
		}
	}
	target = strings.TrimSpace(target)
	l.target = target
	switch {
	case target == "":
		if l.Heading == "" && l.Block == "" {
			return Link{}, false
		}
		l.Kind, l.Category = LinkSelf, selfCategory
	case exact && strings.Contains(target, ":"):
		c, n, _ := strings.Cut(target, ":")
		l.Kind, l.Category, l.Name = LinkExact, strings.TrimSpace(c), strings.TrimSpace(n)
		if l.Category == "" || l.Name == "" {
			return Link{}, false
		}
	case strings.Contains(strings.TrimPrefix(target, "/"), "/"):
		p := dropMD(strings.TrimPrefix(target, "/"))
		k := strings.LastIndexByte(p, '/')
		l.Kind, l.Category, l.Name = LinkPath, strings.TrimSpace(p[:k]), strings.TrimSpace(p[k+1:])
		if l.Category == "" || l.Name == "" {
			return Link{}, false
		}
	default:
		l.Kind, l.Category, l.Name = LinkBare, selfCategory, strings.TrimSpace(dropMD(strings.TrimPrefix(target, "/")))
		if l.Name == "" {
			return Link{}, false
		}
	}
	return l, true
}

// dropMD removes a trailing ".md" (any case), the extension Obsidian
// allows in a link to a note.
func dropMD(s string) string {
	if n := len(s); n > 3 && strings.EqualFold(s[n-3:], ".md") {
		return s[:n-3]
	}
	return s
}

// IsAttachment reports whether a link's name ends in a file extension
// other than .md (a dot, then 1 to 5 ASCII letters or digits, at least one
// a letter): photo.png, report.pdf, but not v1.2 or "Dr. Xu". A link to
// such a name that resolves to no entry is an attachment (SPEC §7 step 3).
func IsAttachment(name string) bool {
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 {
		return false
	}
	ext := name[dot+1:]
	if len(ext) < 1 || len(ext) > 5 || strings.EqualFold(ext, "md") {
		return false
	}
	letter := false
	for i := 0; i < len(ext); i++ {
		switch c := ext[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
			letter = true
		case '0' <= c && c <= '9':
		default:
			return false
		}
	}
	return letter
}

// linkOutcome is what a link comes to in a snapshot.
type linkOutcome uint8

const (
	linkResolved   linkOutcome = iota // an entry: inject it
	linkUnresolved                    // no entry, or several for a bare name: report it
	linkInside                        // the linking entry itself: nothing to do
	linkAttachment                    // a file, not an entry: nothing to do
)

// maskCode returns content with every byte inside code (fenced blocks and
// inline code spans, backticks included: mdcode, the rule inline tags and
// sections follow too) replaced by a space, so that offsets in the result
// are offsets in content.
func maskCode(content string) string { return mdcode.Mask(content) }
