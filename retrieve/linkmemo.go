package retrieve

import (
	"sync"

	"github.com/recallhq/recall/index"
)

// linkMemoEntries bounds the texts a Links' memo keeps per generation (it
// keeps two): 8,192, some 1 to 2 MiB of link lists for notes of a few
// links. A variable for the tests; 0 keeps nothing.
var linkMemoEntries = 8192

// linkMemo keeps, for the texts expand injects links from (a hit's whole
// entry, or the section it is answered by), the links that come to
// something once resolved in its Links' snapshot: parsed (Links.Of,
// ParseLinks) and resolved (Links.resolve) once per snapshot instead of
// on every retrieve. It belongs to one Links, so to one snapshot: a link
// resolved against an older snapshot is never served, since a new
// snapshot gets a new Links (Engine.Links) and so an empty memo.
//
// It holds two generations of at most linkMemoEntries texts each: when
// the current one is full it becomes the old one and the old one is
// dropped; a text found in the old generation moves to the current one.
// Its values are never changed once stored; it is safe for concurrent use.
type linkMemo struct {
	mu       sync.Mutex
	cur, old map[linkKey][]memoLink
}

// linkKey names a text of the snapshot: the entry d whole (whole), or a
// text of it (a section's, as the item carries it).
type linkKey struct {
	d     *index.Doc
	text  string
	whole bool
}

// memoLink is one link of a text that expand reports or injects: one
// that resolved to another entry (d), or an unresolved one (d nil).
// Links to the entry itself and to attachments are left out, as expand
// skips them.
type memoLink struct {
	raw string
	d   *index.Doc
}

// linksOf returns the links of self that expand acts on: those of the
// whole entry when text is "" and whole, else those written in text (a
// section of self), each resolved in r's snapshot, in order of
// appearance. The result is shared: callers must not change it.
func (r *Links) linksOf(self *index.Doc, text string, whole bool) []memoLink {
	if linkMemoEntries <= 0 {
		return r.resolveAll(self, text, whole)
	}
	k := linkKey{d: self, text: text, whole: whole}
	m := &r.memo
	m.mu.Lock()
	ls, ok := m.cur[k]
	if !ok {
		if ls, ok = m.old[k]; ok {
			m.storeLocked(k, ls)
		}
	}
	m.mu.Unlock()
	if ok {
		return ls
	}
	ls = r.resolveAll(self, text, whole)
	m.mu.Lock()
	m.storeLocked(k, ls)
	m.mu.Unlock()
	return ls
}

// resolveAll is linksOf without the memo.
func (r *Links) resolveAll(self *index.Doc, text string, whole bool) []memoLink {
	var links []Link
	if whole {
		links = r.Of(self)
	} else {
		links = ParseLinks(self.Category, text)
	}
	var out []memoLink
	for _, l := range links {
		d, outcome := r.resolve(self, l)
		switch outcome {
		case linkResolved:
			out = append(out, memoLink{raw: l.Raw, d: d})
		case linkUnresolved:
			out = append(out, memoLink{raw: l.Raw})
		}
	}
	return out
}

func (m *linkMemo) storeLocked(k linkKey, ls []memoLink) {
	if _, ok := m.cur[k]; !ok && (m.cur == nil || len(m.cur) >= linkMemoEntries) {
		m.old, m.cur = m.cur, map[linkKey][]memoLink{}
	}
	m.cur[k] = ls
	delete(m.old, k)
}
