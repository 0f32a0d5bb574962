package retrieve

import (
	"strings"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/store"
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
	Label   string // after '|'
}

// ParseLinks returns the wiki-links of content in order of appearance.
// selfCategory is the linking entry's category (see Link.Category).
//
// Surrounding spaces inside the brackets are ignored. Text that is not a
// well-formed link is not a link: an empty target ([[]], [[|label]]), a
// target spanning lines or holding brackets, a path ending in '/'. Links
// inside code, as Obsidian sees it, are not links either: fenced blocks
// (``` or ~~~) and inline code spans (`like [[this]]`). When brackets nest,
// "[[a [[b]]", the innermost pair is the link.
func ParseLinks(selfCategory, content string) []Link {
	var links []Link
	masked := maskCode(content)
	off := 0 // masked[off:] is still to be read
	for {
		i := strings.Index(masked[off:], "[[")
		if i < 0 {
			return links
		}
		start := off + i
		j := strings.Index(masked[start+2:], "]]")
		if j < 0 {
			return links
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
		l, ok := parseTarget(selfCategory, inner)
		if !ok {
			continue
		}
		l.Raw = content[start:end]
		l.Embed = start > 0 && content[start-1] == '!'
		links = append(links, l)
	}
}

// parseTarget reads what is between the brackets.
func parseTarget(selfCategory, inner string) (Link, bool) {
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
	switch {
	case target == "":
		if l.Heading == "" && l.Block == "" {
			return Link{}, false
		}
		l.Kind, l.Category = LinkSelf, selfCategory
	case strings.Contains(target, ":"):
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

// Resolve finds the entry that the link l, written in the entry self,
// points at, by the rules retrieve injects links with (SPEC §7 step 3).
// isLink is false for what is not a link to another entry (a heading of
// self, an attachment); otherwise target is the entry, or nil when the
// link is unresolved.
func Resolve(snap *index.Snapshot, self *index.Doc, l Link) (target *index.Doc, isLink bool) {
	d, outcome := resolveLink(snap, self, l)
	switch outcome {
	case linkInside, linkAttachment:
		return nil, false
	case linkUnresolved:
		return nil, true
	}
	return d, true
}

// resolveLink finds the entry a link of self points at, per SPEC §7 step
// 3. A bare name costs two map lookups (index.Snapshot.LookupName), never
// a scan.
func resolveLink(snap *index.Snapshot, self *index.Doc, l Link) (*index.Doc, linkOutcome) {
	var d *index.Doc
	// A name as written ("What is it?") is compared with the entries'
	// identities through SPEC §1's name mapping (store.NameKey).
	bare := func(name string) *index.Doc {
		name = store.NameKey(name)
		if d := snap.Lookup(self.Category, name); d != nil {
			return d
		}
		if one, n := snap.LookupName(name); n == 1 {
			return one
		}
		return nil
	}
	switch l.Kind {
	case LinkSelf:
		return nil, linkInside
	case LinkBare:
		d = bare(l.Name)
	default:
		d = snap.Lookup(store.CategoryKey(l.Category), store.NameKey(l.Name))
		if d == nil && l.Kind == LinkExact {
			// [[Q3: plan]] is the note "Q3: plan" when no category Q3
			// holds "plan"; [[Odd: folder/inside]] a path.
			t := dropMD(strings.TrimPrefix(writtenTarget(l.Raw), "/"))
			if k := strings.LastIndexByte(t, '/'); k >= 0 {
				d = snap.Lookup(store.CategoryKey(strings.TrimSpace(t[:k])), store.NameKey(strings.TrimSpace(t[k+1:])))
			} else {
				d = bare(t)
			}
		}
	}
	switch {
	case d == self:
		return nil, linkInside
	case d != nil:
		return d, linkResolved
	case IsAttachment(l.Name):
		return nil, linkAttachment
	}
	return nil, linkUnresolved
}

// writtenTarget is the target of a link as written: Raw less its
// brackets, label and heading, spaces trimmed.
func writtenTarget(raw string) string {
	t := strings.TrimSuffix(strings.TrimPrefix(raw, "[["), "]]")
	if i := strings.IndexByte(t, '|'); i >= 0 {
		t = strings.TrimSuffix(t[:i], `\`)
	}
	if i := strings.IndexByte(t, '#'); i >= 0 {
		t = t[:i]
	}
	return strings.TrimSpace(t)
}

// maskCode returns content with every byte inside code (fenced blocks and
// inline code spans, CommonMark-style, backticks included) replaced by a
// space, so that offsets in the result are offsets in content.
func maskCode(content string) string {
	if !strings.ContainsAny(content, "`~") {
		return content
	}
	b := []byte(content)
	blank := func(from, to int) {
		for i := from; i < to; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	// Fenced blocks: a line opening with at least three ` or ~ (after up to
	// three spaces) runs to a line opening with at least as many of the
	// same, or to the end.
	var fence byte
	fenceLen, fenceStart := 0, 0
	for pos := 0; pos < len(content); {
		eol := strings.IndexByte(content[pos:], '\n')
		next := len(content)
		if eol >= 0 {
			next = pos + eol + 1
		}
		line := content[pos:next]
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if indent <= 3 && len(trimmed) >= 3 && (trimmed[0] == '`' || trimmed[0] == '~') {
			c := trimmed[0]
			n := 0
			for n < len(trimmed) && trimmed[n] == c {
				n++
			}
			switch {
			case fence == 0 && n >= 3 && (c == '~' || !strings.ContainsRune(trimmed[n:], '`')):
				fence, fenceLen, fenceStart = c, n, pos
			case fence == c && n >= fenceLen && strings.TrimSpace(trimmed[n:]) == "":
				blank(fenceStart, next)
				fence = 0
			}
		}
		pos = next
	}
	if fence != 0 {
		blank(fenceStart, len(b))
	}
	// Inline code: a run of n backticks up to the next run of exactly n,
	// within the paragraph (no blank line between).
	s := string(b)
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		end := closingRun(s, i+n, n)
		if end < 0 {
			i += n
			continue
		}
		blank(i, end)
		i = end
	}
	return string(b)
}

// closingRun returns the end of the first run of exactly n backticks in s
// from from, before a blank line; -1 when there is none.
func closingRun(s string, from, n int) int {
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
			k := j + 1
			for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
				k++
			}
			if k < len(s) && s[k] == '\n' {
				return -1 // a blank line ends the paragraph
			}
			j++
		default:
			j++
		}
	}
	return -1
}
