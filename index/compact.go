package index

import (
	"math"
	"slices"
)

// Compact returns a snapshot with the same documents and revision whose
// base holds them all and whose overlay is empty. It is pure CPU over the
// documents s already holds (no store reads), and s is unchanged, so it
// can run on any goroutine while readers keep using s.
//
// It merges rather than rebuilds: the live base documents keep their
// posting lists (renumbered, the dead ones left out), the overlay
// documents bring the terms With counted for them, and nothing is
// analysed again. The result answers exactly as Build over the same
// documents would (the term ids differ, which no answer shows); at 100k
// entries it costs a fraction of a Build, which is what lets a server
// take writes without its reads paying seconds of re-analysis every few
// hundred of them (docs/performance.md, "Reads while writing").
func (s *Snapshot) Compact() *Snapshot {
	base := s.base
	// The live documents in identity order: the live base documents are
	// in order already, the overlay's are sorted and merged in.
	ov := make([]*ovDoc, 0, len(s.overlay))
	for _, d := range s.overlay {
		if d != nil {
			ov = append(ov, d)
		}
	}
	slices.SortFunc(ov, func(a, b *ovDoc) int { return compareIdentity(a.Doc, b.Doc) })
	n := s.n
	seg := &segment{
		docs: make([]Doc, 0, n),
		keys: newKeyTable(n),
		lens: make([]uint32, 0, n),
	}
	dates := make([]dateRec, 0, n)
	extras := map[uint32]string{}            // Input.Extra by new ord (extra.go)
	aliases := map[uint32]string{}           // Input.Aliases by new ord (titles.go)
	newOrd := make([]uint32, len(base.docs)) // base ord → new ord; dead: unused
	ovOrd := make([]uint32, len(ov))
	var ovNew []uint32 // overlay index → new ord, for the duplicates; gone: none
	if base.dup != nil {
		for i := range newOrd {
			newOrd[i] = gone
		}
		ovNew = make([]uint32, len(s.overlay))
		for i := range ovNew {
			ovNew[i] = gone
		}
	}
	j := 0
	addOv := func() {
		d := ov[j]
		ovOrd[j] = uint32(len(seg.docs))
		if ovNew != nil {
			ovNew[int(d.ord)-len(base.docs)] = ovOrd[j]
		}
		doc := d.Doc
		doc.ord = int32(len(seg.docs))
		if d.extra != "" {
			extras[uint32(len(seg.docs))] = d.extra
		}
		if d.aliases != "" {
			aliases[uint32(len(seg.docs))] = d.aliases
		}
		seg.docs = append(seg.docs, doc)
		seg.lens = append(seg.lens, d.len)
		dates = append(dates, d.date)
		seg.totalLen += uint64(d.len)
		j++
	}
	for i := range base.docs {
		if s.isDead(uint32(i)) {
			continue
		}
		for j < len(ov) && compareIdentity(ov[j].Doc, base.docs[i]) < 0 {
			addOv()
		}
		newOrd[i] = uint32(len(seg.docs))
		if x, ok := base.extra[uint32(i)]; ok {
			extras[newOrd[i]] = x
		}
		if a, ok := base.aliases[uint32(i)]; ok {
			aliases[newOrd[i]] = a
		}
		doc := base.docs[i]
		doc.ord = int32(len(seg.docs))
		seg.docs = append(seg.docs, doc)
		seg.lens = append(seg.lens, base.lens[i])
		dates = append(dates, dateRec{base.dateAt[i], base.dateKind[i]})
		seg.totalLen += uint64(base.lens[i])
	}
	for j < len(ov) {
		addOv()
	}
	for i := range seg.docs {
		seg.keys.add(seg.docs, uint32(i))
	}
	seg.setDates(dates)
	if len(extras) > 0 {
		seg.extra = extras
	}
	if len(aliases) > 0 {
		seg.aliases = aliases
	}

	// The overlay's postings by base term id, or by a new id past the
	// base's terms for a term the base does not have.
	nb := base.terms.Len()
	extra := make([][]posting, nb)
	var (
		newTerms []string
		newIDs   map[string]int
	)
	for k, d := range ov {
		for t, tf := range d.tf {
			id, ok := base.terms.id(t)
			if !ok {
				if newIDs == nil {
					newIDs = make(map[string]int)
				}
				x, seen := newIDs[t]
				if !seen {
					x = nb + len(newTerms)
					newIDs[t] = x
					newTerms = append(newTerms, t)
					extra = append(extra, nil)
				}
				id = uint32(x)
			}
			extra[id] = append(extra[id], posting{doc: ovOrd[k], tf: tf})
		}
	}

	// Pack every list that still has a posting, in id order: the base's
	// lists renumbered without their dead documents, the overlay's
	// postings merged in by ord.
	total := len(base.pdocs)
	for _, l := range extra {
		total += len(l)
	}
	seg.terms = newTermDict(len(extra), len(base.terms.text))
	seg.pdocs = make([]uint32, 0, total)
	seg.ptfs = make([]uint8, 0, total)
	seg.starts = make([]uint32, 1, len(extra)+1)
	push := func(doc, tf uint32) {
		seg.ptfs = append(seg.ptfs, seg.bigTF.add(uint32(len(seg.pdocs)), tf))
		seg.pdocs = append(seg.pdocs, doc)
	}
	for id := range extra {
		mark := len(seg.pdocs)
		add := extra[id]
		slices.SortFunc(add, func(a, b posting) int { return int(a.doc) - int(b.doc) })
		k := 0
		if id < nb {
			l := base.list(uint32(id))
			for p, bd := range l.docs {
				if s.isDead(bd) {
					continue
				}
				o := newOrd[bd]
				for k < len(add) && add[k].doc < o {
					push(add[k].doc, add[k].tf)
					k++
				}
				tf := uint32(l.tfs[p])
				if tf == tfEscape {
					tf = base.bigTF.get(l.at + uint32(p))
				}
				push(o, tf)
			}
		}
		for ; k < len(add); k++ {
			push(add[k].doc, add[k].tf)
		}
		if len(seg.pdocs) == mark {
			continue // every document of the term is gone
		}
		var t string
		if id < nb {
			t = string(base.terms.term(uint32(id)))
		} else {
			t = newTerms[id-nb]
		}
		seg.terms.add(t)
		seg.starts = append(seg.starts, uint32(len(seg.pdocs)))
	}
	if len(seg.pdocs) > math.MaxUint32 {
		panic("index: more than 2^32 postings in one segment")
	}
	seg.bigTF.pos = slices.Clip(seg.bigTF.pos)
	seg.bigTF.tf = slices.Clip(seg.bigTF.tf)
	seg.terms.done()
	seg.buildBounds()
	seg.indexNames()
	seg.titles = compactTitles(s, newOrd, ov, ovOrd)
	seg.dup = s.compactDups(seg, newOrd, ovNew)
	return &Snapshot{rev: s.rev, tok: s.tok, base: seg, n: len(seg.docs), totalLen: seg.totalLen}
}
