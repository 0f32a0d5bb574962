package retrieve

import "strings"

// Link is one wiki-link as written in an entry's content.
type Link struct {
	Raw      string // as written, brackets included: "[[trips:三亚之行|Sanya]]"
	Category string // resolved against the linking entry when the link omits it
	Name     string
	Label    string // text after '|', if any
}

// ParseLinks returns the wiki-links of content in order of appearance.
// Syntax: [[category:name]], [[name]] (the linking entry's own category,
// given as selfCategory), and either form followed by |label. Surrounding
// spaces inside the brackets are ignored. Text that is not a well-formed
// link (empty target, nested brackets) is not a link.
func ParseLinks(selfCategory, content string) []Link {
	var links []Link
	for {
		i := strings.Index(content, "[[")
		if i < 0 {
			return links
		}
		rest := content[i+2:]
		j := strings.Index(rest, "]]")
		if j < 0 {
			return links
		}
		inner := rest[:j]
		// "[[a [[b]]": the link is the innermost one.
		if k := strings.LastIndex(inner, "[["); k >= 0 {
			content = rest[k:]
			continue
		}
		content = rest[j+2:]
		if strings.ContainsAny(inner, "[]\n") {
			continue
		}
		l := Link{Raw: "[[" + inner + "]]"}
		target := inner
		if p := strings.IndexByte(inner, '|'); p >= 0 {
			target, l.Label = inner[:p], strings.TrimSpace(inner[p+1:])
		}
		if c := strings.IndexByte(target, ':'); c >= 0 {
			l.Category, l.Name = strings.TrimSpace(target[:c]), strings.TrimSpace(target[c+1:])
		} else {
			l.Category, l.Name = selfCategory, strings.TrimSpace(target)
		}
		if l.Name == "" || l.Category == "" {
			continue
		}
		links = append(links, l)
	}
}
