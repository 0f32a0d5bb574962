package retrieve

import (
	"strings"

	"github.com/recallhq/recall/store"
)

// An entry's index.Input.Extra holds parts, each a block of lines opened
// by its own tag line and separated from the next by a blank line: "v1"
// for validity (validityRec), "k1" for what link resolution needs of the
// front matter (linkRec). An entry with neither has no extra, so a store
// that uses no such key indexes exactly as before.

// entryExtra is the index.Input.Extra of an entry with meta m.
func entryExtra(m store.Meta) string {
	v, k := validityExtra(m), linkExtra(m)
	switch {
	case v == "":
		return k
	case k == "":
		return v
	}
	return v + "\n\n" + k
}

// extraPart returns the part of extra x opened by tag; "" when none.
func extraPart(x, tag string) string {
	for x != "" {
		var part string
		part, x, _ = strings.Cut(x, "\n\n")
		if first, _, _ := strings.Cut(part, "\n"); first == tag {
			return part
		}
	}
	return ""
}

// linkRec is what links need of an entry's front matter besides its
// aliases, which the index holds (index.Input.Aliases): its property links
// (store.PropertyLinks). encode writes it as lines "k1", then one
// "p <link>" per property link.
type linkRec struct {
	Props []string
}

// linkExtra is the links part of the extra of an entry with meta m: ""
// when it has no property links.
func linkExtra(m store.Meta) string {
	if len(m.Extra) == 0 {
		return ""
	}
	r := linkRec{Props: store.PropertyLinks(m)}
	if len(r.Props) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("k1")
	for _, p := range r.Props {
		b.WriteString("\np " + p)
	}
	return b.String()
}

// decodeLinks reads the links part of extra x; the zero linkRec when it
// has none.
func decodeLinks(x string) (r linkRec) {
	part := extraPart(x, "k1")
	if part == "" {
		return r
	}
	_, rest, _ := strings.Cut(part, "\n")
	for rest != "" {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if len(line) < 2 || line[1] != ' ' {
			continue
		}
		if line[0] == 'p' {
			r.Props = append(r.Props, line[2:])
		}
	}
	return r
}
