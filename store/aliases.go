package store

import (
	"slices"
	"strings"
	"unicode"
)

// Metadata keys of a note's other names, as Obsidian reads them from front
// matter: "aliases" (a list, or one string), and the older "alias".
const (
	MetaAliases = "aliases"
	MetaAlias   = "alias"
)

// Aliases returns the other names m gives its entry: the strings of its
// "aliases" key, then of its "alias" key, each a list of strings or one
// string, trimmed of surrounding white space, without empty ones and
// repeats, in the order written. A value of another type (a number, a
// map), and any item of a list that is not a string, are ignored, as
// Obsidian ignores them. None when neither key is there.
func Aliases(m Meta) []string {
	var out []string
	add := func(s string) {
		s = strings.TrimFunc(s, unicode.IsSpace)
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, key := range [...]string{MetaAliases, MetaAlias} {
		switch v := m.Extra[key].(type) {
		case string:
			add(v)
		case []string:
			for _, s := range v {
				add(s)
			}
		case []any:
			for _, x := range v {
				if s, ok := x.(string); ok {
					add(s)
				}
			}
		}
	}
	return out
}
