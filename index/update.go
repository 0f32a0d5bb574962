package index

import (
	"cmp"
	"slices"
	"strings"
)

// compactAt is the overlay size (written plus deleted documents) past which
// a snapshot asks to be compacted (WantsCompaction): folded into a new base
// by Compact, which callers run in the background. A query finds its terms
// in the overlay by one lookup each, but every write copies the overlay's
// tables (Apply copies them once per batch), while a compaction costs the
// whole index: 256 up to 16k documents, then n/64 up to 2,048, so that at
// 100k entries a compaction (about 0.2 s) comes every 780 replacements
// instead of every 128 (docs/performance.md, "Writes that group").
func compactAt(n int) int {
	return min(max(n/16, 32), max(256, min(n/64, 2048)))
}

// forceCompactAt is the overlay size past which With and Without compact on
// the spot, on the writer's goroutine: the backstop for writes that come
// faster than a background compaction finishes.
func forceCompactAt(n int) int { return 4 * compactAt(n) }

// WantsCompaction reports whether the overlay has grown enough that the
// snapshot should be compacted.
func (s *Snapshot) WantsCompaction() bool {
	return len(s.overlay)+s.nDead > compactAt(s.n)
}

// With returns a snapshot tagged rev in which (in.Category, in.Name) holds
// in.Content, added or replaced. s is unchanged.
func (s *Snapshot) With(rev uint64, in Input) *Snapshot {
	b := s.edit(rev)
	b.remove(in.Category, in.Name)
	b.add(in)
	return b.done()
}

// Without returns a snapshot tagged rev without the identity. s is
// unchanged.
func (s *Snapshot) Without(rev uint64, category, name string) *Snapshot {
	b := s.edit(rev)
	b.remove(category, name)
	return b.done()
}

// Change is one document of a batch given to Apply: In added or replaced,
// or, with Delete, the document with In's identity (only Category and Name
// are read) removed.
type Change struct {
	In     Input
	Delete bool
}

// Apply returns a snapshot tagged rev with every change applied in order
// (a later change of an identity wins), as the same sequence of With and
// Without would, and answering exactly as they would; s is unchanged.
// Where k calls of With copy the overlay's tables k times, Apply copies
// them once and merges all the new terms in one pass, so a batch of k
// changes costs O(k + overlay) instead of O(k · overlay); a batch that
// grows the overlay past the bound of With compacts once at the end.
func (s *Snapshot) Apply(rev uint64, changes []Change) *Snapshot {
	b := s.edit(rev)
	for _, c := range changes {
		b.remove(c.In.Category, c.In.Name)
		if !c.Delete {
			b.add(c.In)
		}
	}
	return b.done()
}

// edit is a change of a snapshot under way: With, Without and Apply clone
// the snapshot once, remove and add documents, and merge the terms they
// gathered into the overlay's tables in done.
type edit struct {
	ns        *Snapshot
	ownDead   bool          // ns.dead is ns's own copy
	deadAdd   []deadPosting // term ids of the base documents removed
	postAdd   []ovPosting   // terms of the documents added
	overlayIn bool          // a document was added
	// dupNew are the documents added whose duplicates done looks for
	// (dup.go), once every one of them is in the overlay's tables.
	dupNew []dupPending
}

// dupPending is a document an edit added, by overlay index, with its
// sorted, distinct content terms.
type dupPending struct {
	ov int
	xs []string
}

func (s *Snapshot) edit(rev uint64) *edit { return &edit{ns: s.clone(rev)} }

// clone copies the mutable parts; the base segment is shared.
func (s *Snapshot) clone(rev uint64) *Snapshot {
	ns := *s
	ns.rev = rev
	ns.overlay = slices.Clone(s.overlay)
	ns.cloneNames()
	return &ns
}

// add puts in into the overlay; an older document with its identity must
// have been removed first.
func (b *edit) add(in Input) {
	ns := b.ns
	d := &ovDoc{Doc: Doc{Category: in.Category, Name: in.Name, Content: in.Content, ord: int32(len(ns.base.docs) + len(ns.overlay))}}
	d.date = dateOf(in)
	d.extra = in.Extra
	d.aliases = aliasText(in.Aliases)
	d.titles = ns.tok.titleKeys(in.Name, d.aliases)
	// IndexText(name, aliases, content), as appendDocTokens makes it, with
	// where the content's terms start.
	toks, e1 := ns.tok.appendNameTokens(nil, in.Name)
	if d.aliases != "" {
		toks, _ = ns.tok.appendTokens(toks, d.aliases)
	}
	nameToks := len(toks)
	toks, e2 := ns.tok.appendTokens(toks, in.Content)
	d.len = uint32(len(toks))
	d.est = uint32(e1 + e2)
	if ns.base.dup != nil {
		xs := slices.Compact(slices.Sorted(slices.Values(toks[nameToks:])))
		d.ctn = uint32(len(xs))
		if len(xs) == 0 { // only these are hashed (forward.end)
			d.hash = contentHash(in.Content)
		}
		for _, t := range xs {
			d.sig |= termSig(t)
		}
		b.dupNew = append(b.dupNew, dupPending{ov: len(ns.overlay), xs: xs})
	}
	tf := make(map[string]uint32, len(toks))
	for _, t := range toks {
		if _, ok := tf[t]; !ok {
			t = strings.Clone(t)
		}
		tf[t]++
	}
	d.tf = tf
	below, _ := slices.BinarySearchFunc(ns.base.docs, d.Doc, compareIdentity)
	d.below = uint32(below)
	for t, n := range tf {
		b.postAdd = append(b.postAdd, ovPosting{hash: termHash(t), term: t, doc: uint32(len(ns.overlay)), tf: n})
	}
	ns.addName(in.Name, len(ns.overlay))
	ns.overlay = append(ns.overlay, d)
	ns.n++
	ns.totalLen += uint64(d.len)
	b.overlayIn = true
}

// remove drops the live document with the identity, if any.
func (b *edit) remove(category, name string) {
	ns := b.ns
	if i, ok := ns.overlayIndex(category, name); ok {
		d := ns.overlay[i]
		// Leave a hole: Ords of later overlay docs stay put.
		ns.overlay[i] = nil
		ns.dropName(name, i)
		ns.n--
		ns.totalLen -= uint64(d.len)
		return
	}
	i, ok := ns.base.keys.find(ns.base.docs, category, name)
	if !ok || ns.isDead(i) {
		return
	}
	if !b.ownDead {
		if len(ns.dead) == 0 {
			ns.dead = make([]uint64, (len(ns.base.docs)+63)/64)
		} else {
			ns.dead = slices.Clone(ns.dead)
		}
		b.ownDead = true
	}
	ns.dead[i/64] |= 1 << (i % 64)
	ns.nDead++
	bd := &ns.base.docs[i]
	toks, _ := ns.tok.appendDocTokens(nil, bd.Name, ns.base.aliases[i], bd.Content)
	for _, t := range toks {
		if id, ok := ns.base.terms.id(t); ok {
			b.deadAdd = append(b.deadAdd, deadPosting{id: id, ord: i})
		}
	}
	ns.n--
	ns.totalLen -= uint64(ns.base.lens[i])
}

// done merges what the edit gathered into the snapshot's tables and
// returns it, compacted on the spot when the overlay outgrew the bound.
func (b *edit) done() *Snapshot {
	ns := b.ns
	if len(b.deadAdd) > 0 {
		slices.SortFunc(b.deadAdd, cmpDead)
		ns.addDeadPostings(slices.Compact(b.deadAdd))
	}
	if b.overlayIn {
		slices.SortFunc(b.postAdd, cmpOv)
		ns.addOverlayPostings(b.postAdd)
	}
	b.linkNewDups()
	return ns.maybeCompact()
}

func (ns *Snapshot) maybeCompact() *Snapshot {
	if len(ns.overlay)+ns.nDead <= forceCompactAt(ns.n) {
		return ns
	}
	return ns.Compact()
}

// linkNewDups records the duplicates of the documents the edit added, now
// that all of them are in the overlay's tables: each pair once, a pair of
// two added documents when the later one is looked at.
func (b *edit) linkNewDups() {
	ns := b.ns
	nb := int32(len(ns.base.docs))
	for _, p := range b.dupNew {
		d := ns.overlay[p.ov]
		if d == nil { // removed again by a later change of the batch
			continue
		}
		dups := ns.dupsOf(d.Content, p.xs, d.hash, d.sig)
		dups = slices.DeleteFunc(dups, func(y int32) bool {
			return y == d.ord || y >= nb && int(y-nb) > p.ov && b.isNew(int(y-nb))
		})
		ns.linkDups(d.ord, dups)
	}
}

// isNew reports whether overlay index i is a document the edit added.
func (b *edit) isNew(i int) bool {
	_, found := slices.BinarySearchFunc(b.dupNew, i, func(p dupPending, i int) int { return cmp.Compare(p.ov, i) })
	return found
}
