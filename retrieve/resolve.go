package retrieve

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/store"
)

// Links resolves the links of one snapshot's entries as Obsidian resolves
// them (SPEC §7 step 3; README "Links"). It is immutable once made and
// safe for concurrent use; Engine.Links makes one per snapshot. Its alias
// table is built on first use, from the aliases the index keeps
// (Snapshot.EachAliases: only the entries that have any, not a scan of
// the snapshot); names are found through the snapshot's name and
// case-folded name indexes.
type Links struct {
	snap *index.Snapshot

	once    sync.Once
	aliases map[string][]*index.Doc // index.FoldName(alias) → its entries

	memo linkMemo // the resolved links of the texts retrieves inject from
}

// NewLinks returns the link resolution of snap. Prefer Engine.Links, which
// keeps one per snapshot.
func NewLinks(snap *index.Snapshot) *Links { return &Links{snap: snap} }

// Links returns the link resolution of snap (from Snapshot or Fresh),
// made once per snapshot and kept until the next one is asked for.
func (e *Engine) Links(snap *index.Snapshot) *Links { return e.links.get(snap, NewLinks) }

// Of returns the links of d, an entry of the snapshot: its property links
// (wiki-links in its front matter, store.PropertyLinks; they come first,
// as the front matter comes first in a note), then the links of its
// content (ParseLinks).
func (r *Links) Of(d *index.Doc) []Link {
	var links []Link
	if x := r.snap.Extra(d); x != "" {
		for _, p := range decodeLinks(x).Props {
			links = append(links, ParseLinks(d.Category, p)...)
		}
	}
	return append(links, ParseLinks(d.Category, d.Content)...)
}

// Resolve finds the entry that the link l, written in the entry self,
// points at. isLink is false for what is not a link to another entry (a
// heading of self, an attachment); otherwise target is the entry, or nil
// when the link is unresolved.
func (r *Links) Resolve(self *index.Doc, l Link) (target *index.Doc, isLink bool) {
	d, outcome := r.resolve(self, l)
	switch outcome {
	case linkInside, linkAttachment:
		return nil, false
	case linkUnresolved:
		return nil, true
	}
	return d, true
}

// resolve is Resolve with the outcome spelt out.
func (r *Links) resolve(self *index.Doc, l Link) (*index.Doc, linkOutcome) {
	if l.Kind == LinkSelf {
		return nil, linkInside
	}
	// A name as written ("What is it?") reaches the entry whose identity
	// it maps to (SPEC §1's name mapping, store.NameKey). An alias is
	// front matter text, not a file name: it is looked up as written.
	written := l.target
	l.Category, l.Name, l.target = store.CategoryKey(l.Category), store.NameKey(l.Name), pathKey(l.target)
	var d *index.Doc
	ambiguous := false
	switch l.Kind {
	case LinkExact:
		d, ambiguous = r.identity(l.Category, l.Name)
	case LinkBare:
		// The linking note's folder holds the name as written: Obsidian's
		// answer too (the shortest path under that folder), found without
		// the case-folded table.
		d = r.snap.Lookup(self.Category, l.Name)
	case LinkPath:
		// The full path as written (a leading "/" dropped): Obsidian's
		// exact-path answer. Not for the top's notes (no folder "_root"),
		// nor a relative path.
		if l.Category != store.RootCategory && !strings.HasPrefix(l.target, ".") {
			d = r.snap.Lookup(l.Category, l.Name)
		}
	}
	if d == nil && !ambiguous {
		d, ambiguous = r.obsidian(self, l.target)
	}
	if d == nil && !ambiguous {
		d = r.alias(written)
	}
	switch {
	case d == self:
		return nil, linkInside
	case d != nil:
		return d, linkResolved
	case !ambiguous && IsAttachment(l.Name):
		return nil, linkAttachment
	}
	return nil, linkUnresolved
}

// named returns the live entries whose name is name, case ignored
// (index.FoldName), exact matches first. It is the one place where a
// link's target text meets entry names: a mapping of names (a stored
// name standing for one written differently) belongs here.
func (r *Links) named(name string) []*index.Doc {
	var out []*index.Doc
	r.snap.LookupFold(name, func(d *index.Doc) bool {
		out = append(out, d)
		return true
	})
	if len(out) > 1 {
		slices.SortStableFunc(out, func(a, b *index.Doc) int {
			return cmp.Compare(boolInt(a.Name != name), boolInt(b.Name != name))
		})
	}
	return out
}

// identity resolves [[category:name]]: that identity, else the one entry
// whose category and name match it when case is ignored (several: the
// exact name first, else ambiguous).
func (r *Links) identity(category, name string) (d *index.Doc, ambiguous bool) {
	if d = r.snap.Lookup(category, name); d != nil {
		return d, false
	}
	fc := index.FoldName(category)
	var found []*index.Doc
	for _, c := range r.named(name) {
		if index.FoldName(c.Category) == fc {
			found = append(found, c)
		}
	}
	return pickCase(found, category, name)
}

// pickCase returns the one of found, else the one spelt exactly
// category:name, else reports the choice ambiguous (none found: neither).
func pickCase(found []*index.Doc, category, name string) (*index.Doc, bool) {
	switch len(found) {
	case 0:
		return nil, false
	case 1:
		return found[0], false
	}
	for _, d := range found {
		if d.Name == name && d.Category == category {
			return d, false
		}
	}
	return nil, true
}

// pathKey is a link path as written with each file or folder name mapped
// to its identity (store.NameKey); "." and ".." stay as they are.
func pathKey(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if s != "." && s != ".." {
			segs[i] = store.NameKey(s)
		}
	}
	return strings.Join(segs, "/")
}

// notePath is the vault path of d: "category/name.md", a note of the
// folder store's root category at the top ("name.md").
func notePath(d *index.Doc) string {
	if d.Category == store.RootCategory {
		return d.Name + ".md"
	}
	return d.Category + "/" + d.Name + ".md"
}

// dirOf is the folder part of a slash-separated path ("" at the top).
func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// obsidian resolves a link path as Obsidian's link resolver does
// (README "Links" states the rule): by the file name, case ignored; a path
// in the link, relative ("./", "../") or from the vault's top, picks among
// the notes of that name, else the notes whose path ends with it, those
// under the linking note's folder first, the shortest path first.
// ambiguous is true when two notes tie for first place, which Obsidian
// decides by the order it loaded the files in: recall leaves such a link
// unresolved rather than guess.
func (r *Links) obsidian(self *index.Doc, target string) (d *index.Doc, ambiguous bool) {
	if target == "" {
		return nil, false
	}
	n := index.FoldName(target)
	base := target[strings.LastIndexByte(target, '/')+1:]
	var cands []*index.Doc
	if stem, ok := cutSuffixFold(base, ".md"); ok {
		cands = r.named(stem)
	}
	if len(cands) == 0 {
		cands = r.named(base)
		n += ".md"
	}
	if len(cands) == 0 {
		return nil, false
	}
	if !strings.Contains(n, "/") && len(cands) == 1 {
		return cands[0], false
	}
	dir := index.FoldName(dirOf(notePath(self)))
	if strings.HasPrefix(n, "./") || strings.HasPrefix(n, "../") {
		if strings.HasPrefix(n, "./../") {
			n = n[2:]
		}
		if rest, ok := strings.CutPrefix(n, "./"); ok {
			n = joinDir(dir, rest)
		} else {
			for strings.HasPrefix(n, "../") {
				n = n[3:]
				dir = dirOf(dir)
			}
			n = joinDir(dir, n)
		}
		if d, amb := pathIs(cands, n, base); d != nil || amb {
			return d, amb
		}
	}
	n = strings.TrimPrefix(n, "/")
	if d, amb := pathIs(cands, n, base); d != nil || amb {
		return d, amb
	}
	if strings.HasPrefix(target, "/") {
		return nil, false
	}
	var near, far []*index.Doc
	for _, c := range cands {
		p := index.FoldName(notePath(c))
		switch {
		case !strings.HasSuffix(p, n):
		case strings.HasPrefix(p, dir):
			near = append(near, c)
		default:
			far = append(far, c)
		}
	}
	group := near
	if len(group) == 0 {
		group = far
	}
	if len(group) == 0 {
		return nil, false
	}
	byLen := func(a, b *index.Doc) int { return cmp.Compare(utf16Len(notePath(a)), utf16Len(notePath(b))) }
	slices.SortStableFunc(group, byLen)
	if len(group) > 1 && byLen(group[0], group[1]) == 0 {
		// A tie: only case variants of one path are told apart (the exact
		// spelling of the link's name wins).
		var tied []*index.Doc
		for _, c := range group {
			if byLen(c, group[0]) == 0 {
				tied = append(tied, c)
			}
		}
		p0 := index.FoldName(notePath(tied[0]))
		for _, c := range tied[1:] {
			if index.FoldName(notePath(c)) != p0 {
				return nil, true
			}
		}
		return exactName(tied, base)
	}
	return group[0], false
}

// pathIs returns the candidate whose vault path is p, case ignored; of
// several case variants, the one whose name is spelt as base.
func pathIs(cands []*index.Doc, p, base string) (*index.Doc, bool) {
	var found []*index.Doc
	for _, c := range cands {
		if index.FoldName(notePath(c)) == p {
			found = append(found, c)
		}
	}
	switch len(found) {
	case 0:
		return nil, false
	case 1:
		return found[0], false
	}
	return exactName(found, base)
}

// exactName returns the one of docs (case variants of one name) spelt as
// base, with or without ".md"; ambiguous when none or several are.
func exactName(docs []*index.Doc, base string) (*index.Doc, bool) {
	stem, _ := cutSuffixFold(base, ".md")
	var hit *index.Doc
	for _, d := range docs {
		if d.Name == base || d.Name == stem {
			if hit != nil {
				return nil, true
			}
			hit = d
		}
	}
	return hit, hit == nil
}

func joinDir(dir, rest string) string {
	if dir == "" {
		return rest
	}
	return dir + "/" + rest
}

// cutSuffixFold cuts suffix from s, its case ignored.
func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) > len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}

// utf16Len is the length of s in UTF-16 code units, the length Obsidian
// compares paths by.
func utf16Len(s string) int {
	n := 0
	for _, c := range s {
		n += utf16.RuneLen(c)
	}
	return n
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// alias returns the one entry that has target as an alias (store.Aliases),
// case ignored; nil when none or several do.
func (r *Links) alias(target string) *index.Doc {
	r.once.Do(r.buildAliases)
	ds := r.aliases[index.FoldName(strings.TrimSpace(target))]
	if len(ds) != 1 {
		return nil
	}
	return ds[0]
}

func (r *Links) buildAliases() {
	r.snap.EachAliases(func(d *index.Doc, aliases []string) bool {
		for _, a := range aliases {
			if r.aliases == nil {
				r.aliases = map[string][]*index.Doc{}
			}
			f := index.FoldName(a)
			if !slices.Contains(r.aliases[f], d) {
				r.aliases[f] = append(r.aliases[f], d)
			}
		}
		return true
	})
}

// linksFor is the Links expand resolves with: the engine's for snap, or a
// bare one when req asks for no links (expand then reads only its
// snapshot).
func (e *Engine) linksFor(snap *index.Snapshot, req Request) *Links {
	if req.NoLinks {
		return &Links{snap: snap}
	}
	return e.Links(snap)
}
