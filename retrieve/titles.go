package retrieve

import (
	"cmp"
	"slices"

	"github.com/recallhq/recall/index"
)

// titleFirst applies the title rule (README, "A query that is a title
// ranks that note first"): the entries one of whose titles (the name, or
// an alias from its front matter) is made of exactly the query's terms
// (index.Snapshot.Titled) come first, by their BM25 score, whatever the
// ranking gave them; the other hits follow in their order, and the whole
// is cut to limit again. An entry it brings in from outside the ranking
// is a hit with its BM25 score (and no cosine score).
//
// It changes nothing, and allocates nothing, when no title matches, the
// case of every query of a store whose names are not queries. own says the
// items' BM25Score points at their own Score (the BM25-only path), which
// the moved items must keep.
func titleFirst(snap *index.Snapshot, q index.Query, tv *timeView, items []Item, docs []*index.Doc, limit int, own bool) ([]Item, []*index.Doc) {
	titled := snap.Titled(nil, q.Terms, tv.cand)
	if len(titled) == 0 {
		return items, docs
	}
	type first struct {
		d    *index.Doc
		bm25 float64
		at   int // index in items; -1: not ranked
	}
	fs := make([]first, len(titled))
	for i, d := range titled {
		fs[i] = first{d: d, bm25: snap.ScoreOf(d, q.Terms), at: -1}
		for j := range items {
			if items[j].Category == d.Category && items[j].Name == d.Name {
				fs[i].at = j
				break
			}
		}
	}
	slices.SortStableFunc(fs, func(a, b first) int { return cmp.Compare(b.bm25, a.bm25) })
	out := make([]Item, 0, min(limit, len(items)+len(fs)))
	var outDocs []*index.Doc
	if docs != nil {
		outDocs = make([]*index.Doc, 0, cap(out))
	}
	moved := make([]bool, len(items))
	for _, f := range fs {
		if len(out) == limit {
			break
		}
		if f.at >= 0 {
			out = append(out, items[f.at])
			moved[f.at] = true
		} else {
			var it Item
			bm := f.bm25
			matched := q.Words(snap.MatchedTerms(f.d, q.Terms))
			if matched == nil {
				matched = []string{}
			}
			setHit(&it, f.d, bm, &bm, nil, matched)
			it.Date = tv.dateOf(snap, f.d)
			out = append(out, it)
		}
		if outDocs != nil {
			outDocs = append(outDocs, f.d)
		}
	}
	for j := range items {
		if len(out) == limit {
			break
		}
		if !moved[j] {
			out = append(out, items[j])
			if outDocs != nil {
				outDocs = append(outDocs, docs[j])
			}
		}
	}
	if own {
		for i := range out {
			out[i].BM25Score = &out[i].Score
		}
	}
	return out, outDocs
}
