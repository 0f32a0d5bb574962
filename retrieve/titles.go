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
	fs := titledOf(snap, q, tv)
	if len(fs) == 0 {
		return items, docs
	}
	type ranked struct {
		it Item
		d  *index.Doc // nil when docs is
	}
	rs := make([]ranked, len(items))
	for i := range items {
		rs[i].it = items[i]
		if docs != nil {
			rs[i].d = docs[i]
		}
	}
	rs = titledFront(fs, rs, func(r ranked) (string, string) { return r.it.Category, r.it.Name },
		func(f titled) ranked { return ranked{titledItem(snap, q, tv, f), f.d} })
	rs = rs[:min(limit, len(rs))]
	out := make([]Item, len(rs))
	var outDocs []*index.Doc
	if docs != nil {
		outDocs = make([]*index.Doc, len(rs))
	}
	for i, r := range rs {
		out[i] = r.it
		if outDocs != nil {
			outDocs[i] = r.d
		}
	}
	if own {
		for i := range out {
			out[i].BM25Score = &out[i].Score
		}
	}
	return out, outDocs
}

// titled is an entry the title rule puts first, with its BM25 score.
type titled struct {
	d    *index.Doc
	bm25 float64
}

// titledOf returns the entries the title rule puts first, in the order
// it puts them: by BM25 score, ties in the index's order. nil when no
// title is made of the query's terms.
func titledOf(snap *index.Snapshot, q index.Query, tv *timeView) []titled {
	ds := snap.Titled(nil, q.Terms, tv.cand)
	if len(ds) == 0 {
		return nil
	}
	fs := make([]titled, len(ds))
	for i, d := range ds {
		fs[i] = titled{d: d, bm25: snap.ScoreOf(d, q.Terms)}
	}
	slices.SortStableFunc(fs, func(a, b titled) int { return cmp.Compare(b.bm25, a.bm25) })
	return fs
}

// titledItem is the hit of a titled entry the ranking did not bring: its
// BM25 score (and no cosine score) and the words it matched.
func titledItem(snap *index.Snapshot, q index.Query, tv *timeView, f titled) Item {
	var it Item
	bm := f.bm25
	matched := q.Words(snap.MatchedTerms(f.d, q.Terms))
	if matched == nil {
		matched = []string{}
	}
	setHit(&it, f.d, bm, &bm, nil, matched)
	it.Date = tv.dateOf(snap, f.d)
	return it
}

// titledFront is the title rule over a ranking that collapse is about to
// walk (docs/duplicates.md): the titled entries first, each the ranking's
// own element when it holds one, else made by brought; the rest after, in
// their order. So a copy ranked above a titled entry is folded into it,
// not it into the copy, and the rule has nothing left to move once
// collapse has run. ranked itself when fs is empty.
func titledFront[T any](fs []titled, ranked []T, key func(T) (category, name string), brought func(titled) T) []T {
	if len(fs) == 0 {
		return ranked
	}
	out := make([]T, 0, len(ranked)+len(fs))
	moved := make([]bool, len(ranked))
	for _, f := range fs {
		j := slices.IndexFunc(ranked, func(r T) bool {
			c, n := key(r)
			return c == f.d.Category && n == f.d.Name
		})
		if j >= 0 {
			out = append(out, ranked[j])
			moved[j] = true
		} else {
			out = append(out, brought(f))
		}
	}
	for j, r := range ranked {
		if !moved[j] {
			out = append(out, r)
		}
	}
	return out
}

// titledScored is titledFront over the BM25 path's ranking: a brought
// entry's mask has the bits of the query terms it holds, as a ranking's
// would (index.Scored.Matched).
func titledScored(snap *index.Snapshot, fs []titled, top []index.Scored, terms []string) []index.Scored {
	return titledFront(fs, top, func(s index.Scored) (string, string) { return s.Doc.Category, s.Doc.Name }, func(f titled) index.Scored {
		var mask uint64
		for i, t := range terms[:min(len(terms), 64)] {
			if snap.TermFreq(f.d, t) > 0 {
				mask |= 1 << i
			}
		}
		return index.Scored{Doc: f.d, Score: f.bm25, Matched: mask}
	})
}

// titledHits is titledFront over the fused path's ranking: a brought
// entry is a hit with its BM25 score and no cosine score.
func titledHits(fs []titled, hits []hit) []hit {
	return titledFront(fs, hits, func(h hit) (string, string) { return h.doc.Category, h.doc.Name }, func(f titled) hit {
		bm := f.bm25
		return hit{doc: f.d, score: bm, bm25: &bm}
	})
}
