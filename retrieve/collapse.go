package retrieve

import (
	"strings"

	"github.com/recallhq/recall/index"
)

// Collapse (docs/duplicates.md): a hit that is a duplicate of a
// higher-ranked kept hit (index.Snapshot.EachDuplicate: exact or near) is
// folded into the highest-ranked such hit — it is no item, costs no
// budget, injects no links, and the kept hit's Item.Collapsed names it.
// Request.KeepDuplicates turns this off. A snapshot with no duplicate
// pair at all (HasDuplicates) skips it, so its answers are the ones
// collapse never touched.

// fold is a collapsed hit: hit i of the ranking, folded into hit into.
type fold struct{ i, into int }

// collapseDocs runs collapse over the n hits doc(0), doc(1), ... in rank
// order. keep lists the kept hits' indexes, nil when every hit is kept
// (no allocation then), and folds the collapsed ones. A hit with no
// duplicate in the snapshot costs one or two map lookups.
func collapseDocs(snap *index.Snapshot, n int, doc func(int) *index.Doc) (keep []int, folds []fold) {
	var pos map[*index.Doc]int // hit → its index, made on the first duplicate met
	collapsed := func(j int) bool {
		for _, f := range folds {
			if f.i == j {
				return true
			}
		}
		return false
	}
	for i := range n {
		d := doc(i)
		into := -1
		if d != nil {
			snap.EachDuplicate(d, func(y *index.Doc) bool {
				if pos == nil {
					pos = make(map[*index.Doc]int, n)
					for k := n - 1; k >= 0; k-- {
						if dk := doc(k); dk != nil {
							pos[dk] = k
						}
					}
				}
				if j, ok := pos[y]; ok && j < i && (into < 0 || j < into) && !collapsed(j) {
					into = j
				}
				return true
			})
		}
		if into < 0 {
			if keep != nil {
				keep = append(keep, i)
			}
			continue
		}
		if keep == nil {
			keep = make([]int, i, n)
			for k := range keep {
				keep[k] = k
			}
		}
		folds = append(folds, fold{i: i, into: into})
	}
	return keep, folds
}

// cutFolds keeps the first limit kept hits and the folds of the hits
// ranked above the last of them: what a ranking long enough to keep
// limit hits shows, whatever its length.
func cutFolds(keep []int, folds []fold, limit int) ([]int, []fold) {
	if len(keep) <= limit {
		return keep, folds
	}
	keep = keep[:limit]
	last := keep[len(keep)-1]
	out := folds[:0]
	for _, f := range folds {
		if f.i < last {
			out = append(out, f)
		}
	}
	return keep, out
}

// refOf is an entry's identity as evidence names it: "category:name".
func refOf(d *index.Doc) string { return d.Category + ":" + d.Name }

// collapsedOf returns, for kept hit into, the identities folded into it,
// in rank order; nil when none.
func collapsedOf(folds []fold, into int, doc func(int) *index.Doc) []string {
	var out []string
	for _, f := range folds {
		if f.into == into {
			out = append(out, refOf(doc(f.i)))
		}
	}
	return out
}

// collapseRanked is the BM25 path's collapse: it ranks with rank(limit)
// and, while collapse leaves fewer than limit hits of a ranking that
// was full, ranks again with room for the ones it folded.
func collapseRanked(snap *index.Snapshot, limit int, rank func(n int) ([]index.Scored, error)) ([]index.Scored, []int, []fold, error) {
	n := limit
	for {
		top, err := rank(n)
		if err != nil {
			return top, nil, nil, err
		}
		keep, folds := collapseDocs(snap, len(top), func(i int) *index.Doc { return top[i].Doc })
		if keep == nil || len(keep) >= limit || len(top) < n {
			keep, folds = cutFolds(keep, folds, limit)
			return top, keep, folds, nil
		}
		n += limit - len(keep)
	}
}

// CollapseItems is collapse over hits chosen by a caller (a filtered
// ranking, see Engine.Expand), in rank order, in snap: the hits kept,
// each naming in Collapsed the ones folded into it (after any it already
// names), at most limit of them (0: all). Hits whose entry is not in snap,
// and a timeline's (unscored) hits, are kept as they are.
func CollapseItems(snap *index.Snapshot, hits []Item, limit int) []Item {
	if !snap.HasDuplicates() {
		if limit > 0 && len(hits) > limit {
			return hits[:limit]
		}
		return hits
	}
	docs := make([]*index.Doc, len(hits))
	for i, h := range hits {
		if h.BM25Score != nil { // a timeline's hits, not ranked, do not collapse
			docs[i] = snap.Lookup(h.Category, h.Name)
		}
	}
	doc := func(i int) *index.Doc { return docs[i] }
	keep, folds := collapseDocs(snap, len(hits), doc)
	if keep == nil {
		if limit > 0 && len(hits) > limit {
			return hits[:limit]
		}
		return hits
	}
	if limit > 0 {
		keep, folds = cutFolds(keep, folds, limit)
	}
	out := make([]Item, 0, len(keep))
	for _, k := range keep {
		it := hits[k]
		if c := collapsedOf(folds, k, doc); c != nil {
			it.Collapsed = append(append([]string(nil), it.Collapsed...), c...)
		}
		out = append(out, it)
	}
	return out
}

// collapsedRefs adds the identities hits folded away to set: no link
// injects them either.
func collapsedRefs(hits []Item, set map[Ref]bool) {
	for _, h := range hits {
		for _, c := range h.Collapsed {
			if cat, name, ok := strings.Cut(c, ":"); ok {
				set[Ref{cat, name}] = true
			}
		}
	}
}
