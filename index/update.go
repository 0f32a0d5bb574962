package index

import (
	"slices"
	"strings"
)

// compactAt is the overlay size (written plus deleted documents) past which
// a snapshot asks to be compacted (WantsCompaction): folded into a new base
// by Compact, which callers run in the background. The overlay is scanned
// per query term, so it must stay small.
func compactAt(n int) int {
	return min(max(n/16, 32), 256)
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
	ns := s.clone(rev)
	ns.remove(in.Category, in.Name)
	d := &ovDoc{Doc: Doc{Category: in.Category, Name: in.Name, Content: in.Content, ord: int32(len(s.base.docs) + len(ns.overlay))}}
	d.date = dateOf(in)
	d.extra = in.Extra
	toks, e1 := s.tok.appendTokens(nil, in.Name)
	nameToks := len(toks)
	toks, e2 := s.tok.appendTokens(toks, in.Content)
	if s.base.dup != nil {
		xs := slices.Compact(slices.Sorted(slices.Values(toks[nameToks:])))
		d.ctn = uint32(len(xs))
		if len(xs) == 0 { // only these are hashed (forward.end)
			d.hash = contentHash(in.Content)
		}
		for _, t := range xs {
			d.sig |= termSig(t)
		}
		ns.linkDups(d.ord, ns.dupsOf(in.Content, xs, d.hash, d.sig))
	}
	d.len = uint32(len(toks))
	d.est = uint32(e1 + e2)
	tf := make(map[string]uint32, len(toks))
	for _, t := range toks {
		if _, ok := tf[t]; !ok {
			t = strings.Clone(t)
		}
		tf[t]++
	}
	d.tf = tf
	below, _ := slices.BinarySearchFunc(s.base.docs, d.Doc, compareIdentity)
	d.below = uint32(below)
	add := make([]ovPosting, 0, len(tf))
	for t, n := range tf {
		add = append(add, ovPosting{hash: termHash(t), term: t, doc: uint32(len(ns.overlay)), tf: n})
	}
	ns.ovPost = mergeSorted(ns.ovPost, add, cmpOv)
	ns.ovIdx = newOvIndex(ns.ovPost)
	ns.okeys[docKey{in.Category, in.Name}] = len(ns.overlay)
	ns.addName(in.Name, len(ns.overlay))
	ns.overlay = append(ns.overlay, d)
	ns.n++
	ns.totalLen += uint64(d.len)
	return ns.maybeCompact()
}

// Without returns a snapshot tagged rev without the identity. s is
// unchanged.
func (s *Snapshot) Without(rev uint64, category, name string) *Snapshot {
	ns := s.clone(rev)
	ns.remove(category, name)
	return ns.maybeCompact()
}

// clone copies the mutable parts; the base segment is shared.
func (s *Snapshot) clone(rev uint64) *Snapshot {
	ns := *s
	ns.rev = rev
	ns.overlay = slices.Clone(s.overlay)
	ns.okeys = make(map[docKey]int, len(s.okeys)+1)
	for k, v := range s.okeys {
		ns.okeys[k] = v
	}
	ns.cloneNames()
	return &ns
}

// remove drops the live document with the identity, if any, from ns, which
// must be a fresh clone.
func (ns *Snapshot) remove(category, name string) {
	k := docKey{category, name}
	if i, ok := ns.okeys[k]; ok {
		d := ns.overlay[i]
		// Leave a hole: Ords of later overlay docs stay put.
		ns.overlay[i] = nil
		delete(ns.okeys, k)
		ns.dropName(name, i)
		ns.n--
		ns.totalLen -= uint64(d.len)
		return
	}
	i, ok := ns.base.keys.find(ns.base.docs, category, name)
	if !ok || ns.isDead(i) {
		return
	}
	if len(ns.dead) == 0 {
		ns.dead = make([]uint64, (len(ns.base.docs)+63)/64)
	} else {
		ns.dead = slices.Clone(ns.dead)
	}
	ns.dead[i/64] |= 1 << (i % 64)
	ns.nDead++
	bd := &ns.base.docs[i]
	toks, _ := ns.tok.appendTokens(nil, bd.Name)
	toks, _ = ns.tok.appendTokens(toks, bd.Content)
	add := make([]deadPosting, 0, len(toks))
	for _, t := range toks {
		if id, ok := ns.base.terms.id(t); ok {
			add = append(add, deadPosting{id: id, ord: i})
		}
	}
	slices.SortFunc(add, cmpDead)
	add = slices.Compact(add)
	ns.deadPost = mergeSorted(ns.deadPost, add, cmpDead)
	ns.n--
	ns.totalLen -= uint64(ns.base.lens[i])
}

func (ns *Snapshot) maybeCompact() *Snapshot {
	if len(ns.overlay)+ns.nDead <= forceCompactAt(ns.n) {
		return ns
	}
	return ns.Compact()
}
