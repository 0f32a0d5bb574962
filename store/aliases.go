package store

import (
	"fmt"
	"slices"
	"strings"
)

// Front matter keys Obsidian gives a meaning that recall follows
// (SPEC §7 step 3, README "Links"): a note's other names.
const (
	MetaAliases = "aliases"
	MetaAlias   = "alias"
)

// Aliases returns the other names of an entry with meta m, from its
// aliases and alias keys (both read, aliases first): a list of strings,
// or one string holding names separated by commas ("Ana, Dr. Xu"), as
// Obsidian reads them. Each is trimmed; empty ones, values of other types
// and repeats are left out. None when neither key is set.
func Aliases(m Meta) []string {
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, key := range []string{MetaAliases, MetaAlias} {
		switch v := m.Extra[key].(type) {
		case string:
			for _, s := range strings.Split(v, ",") {
				add(s)
			}
		case []string:
			for _, s := range v {
				add(s)
			}
		case []any:
			for _, x := range v {
				switch x := x.(type) {
				case string:
					add(x)
				case int, int64, float64, uint64:
					add(fmt.Sprint(x)) // aliases: [2024] is the name "2024"
				}
			}
		}
	}
	return out
}

// PropertyLinks returns the wiki-links written in m's front matter
// properties, the way Obsidian finds them: a text value that is one link,
// quoted in YAML ("up: \"[[Parent]]\""), or such an item of a list
// ("related: [\"[[A]]\", \"[[B]]\"]"), embeds ("![[...]]") included, in
// the order of the keys (sorted, as Meta.Extra has no order) and then of
// the items. Each is returned as written, trimmed. Left out: the
// supersedes key (recall's own, docs/validity.md), the alias keys, text
// that holds more than the link, and nested values.
func PropertyLinks(m Meta) []string {
	var out []string
	keys := make([]string, 0, len(m.Extra))
	for k := range m.Extra {
		if k != MetaSupersedes && k != MetaAliases && k != MetaAlias {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	add := func(x any) {
		if s, ok := x.(string); ok {
			if l, ok := onePropertyLink(s); ok {
				out = append(out, l)
			}
		}
	}
	for _, k := range keys {
		switch v := m.Extra[k].(type) {
		case string:
			add(v)
		case []string:
			for _, s := range v {
				add(s)
			}
		case []any:
			for _, x := range v {
				add(x)
			}
		}
	}
	return out
}

// onePropertyLink reports whether s, trimmed, is exactly one wiki-link
// "[[...]]" or "![[...]]", and returns it so.
func onePropertyLink(s string) (string, bool) {
	s = strings.TrimSpace(s)
	inner, ok := strings.CutPrefix(strings.TrimPrefix(s, "!"), "[[")
	if !ok {
		return "", false
	}
	inner, ok = strings.CutSuffix(inner, "]]")
	if !ok || strings.TrimSpace(inner) == "" || strings.ContainsAny(inner, "[]\n") {
		return "", false
	}
	return s, true
}
