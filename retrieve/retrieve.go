package retrieve

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/recallhq/recall/fusion"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/store"
)

// Request is one retrieve. The zero value of every field but Query means
// the SPEC default.
type Request struct {
	Query string
	// Limit caps the hits (before link expansion); 0 means DefaultLimit.
	Limit int
	// Budget caps the summed tokens_est of the items; 0 means
	// DefaultBudget, Unlimited (or any negative value) means no cap.
	Budget int
	// NoLinks turns one-hop link expansion off.
	NoLinks bool
	// Explain keeps the items the budget cut in Result.Dropped.
	Explain bool
	// MaxTerms, when positive, refuses a query with more distinct terms
	// (a *TermsError) before any scoring: a bound on a query's work.
	MaxTerms int `json:",omitempty"`

	// After and Before restrict the hits to the entries whose effective
	// date (the event date, else the created time) is in [After, Before);
	// a zero one leaves that side open. When either is set the query is
	// all words; otherwise its time phrase, if any (timeexpr.Find: "last
	// week", "上周", "in May 2024"), is taken out of the words and becomes
	// the range. Entries outside the range are no candidates at all: the
	// hits are the best Limit inside it. A query of nothing but the time
	// phrase (or no words, with After/Before) is a timeline: the entries
	// in the range, newest first.
	After, Before time.Time `json:",omitzero"`
	// Now is the time relative phrases ("yesterday") are read from, and
	// its Location the zone of calendar days (of the phrase and of entries
	// dated without a time of day); zero means time.Now() in time.Local.
	Now time.Time `json:",omitzero"`
	// NoTime keeps the whole query as words: no time phrase is read.
	NoTime bool `json:",omitempty"`

	// IncludeSuperseded makes superseded entries candidates again (they
	// are none by default), marked Item.SupersededBy (docs/validity.md).
	IncludeSuperseded bool `json:",omitempty"`
	// IncludeExpired makes entries expired at Now candidates again (they
	// are none by default), marked Item.Expired.
	IncludeExpired bool `json:",omitempty"`

	// WholeEntries answers every hit with its whole entry, as before
	// sections existed; by default a hit longer than SectionMinTokens
	// with markdown headings is answered by its best-matching section
	// (Item.Section).
	WholeEntries bool `json:",omitempty"`

	// KeepDuplicates keeps every hit that duplicates a higher-ranked one
	// (docs/duplicates.md); by default such a hit is collapsed: no item,
	// no budget, named in the kept hit's Item.Collapsed.
	KeepDuplicates bool `json:",omitempty"`
}

// TermsError is Retrieve's refusal of a query with more distinct terms
// than Request.MaxTerms.
type TermsError struct {
	Terms, Max int
}

func (e *TermsError) Error() string {
	return fmt.Sprintf("query has %d distinct terms, the limit is %d", e.Terms, e.Max)
}

// Retrieve runs the pipeline of SPEC §7: tokenize, score, expand one-hop
// links, apply the token budget. It makes no LLM call. It fails only when
// the store cannot be read; optional paths degrade silently.
func (e *Engine) Retrieve(ctx context.Context, req Request) (*Result, error) {
	res := new(Result)
	if err := e.RetrieveTo(ctx, req, res); err != nil {
		return nil, err
	}
	// Nobody will reuse this Result: with links on its room (the hits) is
	// not its items' array, and would only be held alive with them.
	res.room = nil
	return res, nil
}

// RetrieveTo is Retrieve writing its answer into res and reusing the room
// of res's items: a host that answers queries in a loop keeps one Result
// per goroutine, and a BM25 retrieve then allocates only its matched
// words. Everything res held is replaced, the items in its room
// overwritten: copy what must outlive the next call (an item's BM25Score
// points into that room). On an error res is left empty.
func (e *Engine) RetrieveTo(ctx context.Context, req Request, res *Result) error {
	room := res.room
	*res = Result{Items: []Item{}, UnresolvedLinks: []string{}, room: room}
	snap, err := e.Snapshot(ctx)
	if err != nil {
		return err
	}
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	tv := timeOf(snap, req)
	res.TimeRange = tv.rng
	vv := e.Validity(snap).viewOf(req)
	tv.cand = snap.Except(tv.in, vv.hide)
	q := snap.Query(tv.query)
	terms := q.Terms
	if req.MaxTerms > 0 && len(terms) > req.MaxTerms {
		return &TermsError{Terms: len(terms), Max: req.MaxTerms}
	}
	if len(terms) == 0 && tv.in != nil {
		items, docs := timeline(room, snap, &tv, limit, req.NoLinks)
		res.room = items
		expand(res, e.linksFor(snap, req), &e.sections, items, docs, nil, req, &tv, &vv)
		return nil
	}
	collapse := !req.KeepDuplicates && snap.HasDuplicates()
	hits, fused := e.fusedHits(ctx, snap, tv.query, terms, limit, tv.cand)
	var (
		keep  []int // the hits collapse kept (nil: all), and what it folded
		folds []fold
	)
	// With collapse on, the title rule orders the ranking collapse walks
	// (titledFront); without it, it runs on the items (titleFirst).
	var fs []titled
	if collapse {
		fs = titledOf(snap, q, &tv)
	}
	if fused && collapse {
		for n := limit; ; {
			ranked := len(hits)
			hits = titledHits(fs, hits)
			keep, folds = collapseDocs(snap, len(hits), func(i int) *index.Doc { return hits[i].doc })
			if keep == nil || len(keep) >= limit || ranked < n {
				keep, folds = cutFolds(keep, folds, limit)
				if keep == nil && len(hits) > limit {
					hits = hits[:limit]
				}
				break
			}
			n += limit - len(keep)
			if hits, fused = e.fusedHits(ctx, snap, tv.query, terms, n, tv.cand); !fused {
				keep, folds = nil, nil
				break
			}
		}
	}
	res.EmbeddingUsed = fused
	var items []Item
	var docs []*index.Doc // for the links; nil when they are off
	if !req.NoLinks {
		docs = make([]*index.Doc, 0, len(hits))
	}
	if fused {
		ranked := hits
		rankedDoc := func(i int) *index.Doc { return ranked[i].doc }
		if keep != nil {
			hits = make([]hit, len(keep))
			for i, k := range keep {
				hits[i] = ranked[k]
			}
		}
		items = roomFor(room, len(hits))
		for i, h := range hits {
			// The fused path keeps no masks: look the terms up per hit.
			matched := q.Words(snap.MatchedTerms(h.doc, terms))
			if matched == nil {
				matched = []string{}
			}
			setHit(&items[i], h.doc, h.score, h.bm25, h.cos, matched)
			items[i].Date = tv.dateOf(snap, h.doc)
			if keep != nil {
				items[i].Collapsed = collapsedOf(folds, keep[i], rankedDoc)
			}
			if docs != nil {
				docs = append(docs, h.doc)
			}
		}
	} else {
		// Stop scoring when the caller gives up. The top k and their
		// matched words are written into pooled room.
		sc := hitsPool.Get().(*hitScratch)
		rank := func(n int) ([]index.Scored, error) {
			return snap.AppendTop(sc.top[:0], index.TopQuery{Terms: terms, Limit: n, Done: ctx.Done(), Within: tv.cand})
		}
		var (
			top []index.Scored
			err error
		)
		if collapse {
			ranked := rank
			if fs != nil {
				ranked = func(n int) ([]index.Scored, error) {
					top, err := rank(n)
					if err != nil {
						return top, err
					}
					return titledScored(snap, fs, top, terms), nil
				}
			}
			top, keep, folds, err = collapseRanked(snap, limit, ranked)
			if err == nil && keep == nil && len(top) > limit {
				top = top[:limit]
			}
		} else {
			top, err = rank(limit)
		}
		if err != nil {
			sc.release(top, nil)
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			return err
		}
		// The matched words come from the masks the ranking recorded; the
		// items (one allocation, or res's room) have their BM25Score point
		// at their own Score (the same value: no fusion on this path).
		shown := top
		if keep != nil {
			shown = make([]index.Scored, len(keep))
			for i, k := range keep {
				shown[i] = top[k]
			}
		}
		matched := snap.AppendMatchedWords(sc.matched[:0], shown, q)
		items = roomFor(room, len(shown))
		for i, h := range shown {
			it := &items[i]
			setHit(it, h.Doc, h.Score, &it.Score, nil, matched[i])
			it.Date = tv.dateOf(snap, h.Doc)
			if keep != nil {
				it.Collapsed = collapsedOf(folds, keep[i], func(j int) *index.Doc { return top[j].Doc })
			}
			if docs != nil {
				docs = append(docs, h.Doc)
			}
		}
		sc.release(top, matched)
	}
	if !collapse {
		items, docs = titleFirst(snap, q, &tv, items, docs, limit, !fused)
	}
	res.room = items
	expand(res, e.linksFor(snap, req), &e.sections, items, docs, terms, req, &tv, &vv)
	return nil
}

// roomFor returns n items in room's backing array when it has the room,
// else newly allocated ones. Items of room past n (an earlier, longer
// answer) are cleared, so that they keep no snapshot alive.
func roomFor(room []Item, n int) []Item {
	if cap(room) < n {
		return make([]Item, n)
	}
	if len(room) > n {
		clear(room[n:])
	}
	return room[:n]
}

// hitScratch is the room of one ranked retrieve's top k and matched
// words, pooled: only the items and the words are allocated per call.
//
// The room keeps the last answer's pointers (into the snapshot it ranked)
// until the next retrieve that takes it overwrites them: clearing 100
// pointers costs a bulk write barrier whenever the collector is marking.
// Room beyond the last answer is cleared, so an old snapshot is kept alive
// at most until this scratch is used again, or dropped by the pool (two
// collections unused).
type hitScratch struct {
	top     []index.Scored
	matched [][]string
	nTop    int // elements of top's backing array that may hold pointers
	nWords  int // the same for matched
}

var hitsPool = sync.Pool{New: func() any { return new(hitScratch) }}

// release keeps the room of top and matched, clearing what an earlier,
// longer answer left beyond them, and puts sc back in the pool.
func (sc *hitScratch) release(top []index.Scored, matched [][]string) {
	sc.top, sc.nTop = top[:0], keepFilled(top, sc.nTop)
	sc.matched, sc.nWords = matched[:0], keepFilled(matched, sc.nWords)
	hitsPool.Put(sc)
}

// keepFilled clears s's backing array from len(s) up to filled (how far
// earlier uses filled it) and returns how far it is filled now.
func keepFilled[T any](s []T, filled int) int {
	if end := min(filled, cap(s)); end > len(s) {
		clear(s[len(s):end])
	}
	return len(s)
}

// setHit makes it the item of a hit, setting every field one by one: a
// whole-struct copy into the slice goes through a typed copy with write
// barriers.
func setHit(it *Item, d *index.Doc, score float64, bm25, cos *float64, matched []string) {
	it.Source = SourceHit
	it.Category = d.Category
	it.Name = d.Name
	it.DisplayName = store.MappedDisplayKey(store.Key{Category: d.Category, Name: d.Name})
	it.Section = ""
	it.Content = d.Content
	it.Score = score
	it.BM25Score = bm25
	it.CosScore = cos
	it.MatchedTerms = matched
	it.TokensEst = d.TokensEst()
	it.Via = nil // a reused item may have been a link
	it.OutsideRange = false
	it.SupersededBy, it.Supersedes, it.Expired = "", nil, false
	it.Collapsed = nil
}

// Expand completes a result from hits chosen by the caller (for example
// the engine's ranking filtered by category or tag): SPEC §7 steps 3 to 5,
// exactly as Retrieve runs them — one-hop links of each hit injected after
// it, unresolved links collected, then the token budget. Hits whose entry
// is no longer in snap keep their place but inject no links.
//
// The hits keep the dates they carry; req's time range (After, Before, or
// the query's phrase) marks the links that lie outside it and is reported
// in Result.TimeRange, as Retrieve reports it. Validity (superseded and
// expired entries, docs/validity.md) is the engine's for snap, worked
// out once per snapshot and shared with Retrieve.
func (e *Engine) Expand(snap *index.Snapshot, hits []Item, req Request) *Result {
	res := &Result{Items: []Item{}, UnresolvedLinks: []string{}}
	docs := make([]*index.Doc, len(hits))
	for i, h := range hits {
		docs[i] = snap.Lookup(h.Category, h.Name)
	}
	tv := timeOf(snap, req)
	res.TimeRange = tv.rng
	vv := e.Validity(snap).viewOf(req)
	var terms []string
	if !req.WholeEntries {
		terms = snap.Query(tv.query).Terms
	}
	expand(res, e.linksFor(snap, req), &e.sections, hits, docs, terms, req, &tv, &vv)
	return res
}

// expand is steps 3 to 5 of SPEC §7 over the hit items and their
// documents (docs[i] may be nil: no links then; docs is not read when
// req.NoLinks). With links off the hits are the sequence the budget cuts,
// without a copy. Unless req.WholeEntries, long hits become their best
// section for terms (the query's) first, and inject the section's links.
func expand(res *Result, lk *Links, sc *sectionCache, hits []Item, docs []*index.Doc, terms []string, req Request, tv *timeView, vv *validView) {
	snap := lk.snap
	defer vv.markAll(res, snap)
	if !req.WholeEntries {
		sectionHits(snap, sc, terms, hits, req.Budget, req.Explain)
	}
	if req.NoLinks {
		applyBudget(res, hits, req.Budget, req.Explain)
		return
	}
	// Each hit's links first (memoised per snapshot), so that the
	// sequence and the sets are made at their size once.
	lists := make([][]memoLink, len(hits))
	n := 0
	for i, h := range hits {
		if self := docs[i]; self != nil {
			if h.Section != "" {
				lists[i] = lk.linksOf(self, h.Content, false) // a section's own links
			} else {
				lists[i] = lk.linksOf(self, "", true)
			}
			n += len(lists[i])
		}
	}
	seq := make([]Item, 0, len(hits)+n)
	isHit := make(map[Ref]bool, len(hits))
	for _, h := range hits {
		isHit[Ref{h.Category, h.Name}] = true
	}
	collapsedRefs(hits, isHit)
	injected := make(map[Ref]bool, n)
	unresolved := map[string]bool{}
	for i, h := range hits {
		seq = append(seq, h)
		self := docs[i]
		if self == nil {
			continue
		}
		via := &Ref{self.Category, self.Name}
		for _, l := range lists[i] {
			d := l.d
			if d == nil {
				if !unresolved[l.raw] {
					unresolved[l.raw] = true
					res.UnresolvedLinks = append(res.UnresolvedLinks, l.raw)
				}
				continue
			}
			r := Ref{d.Category, d.Name}
			if isHit[r] || injected[r] {
				continue
			}
			injected[r] = true
			seq = append(seq, Item{
				Source:       SourceLink,
				Category:     d.Category,
				Name:         d.Name,
				DisplayName:  store.MappedDisplayKey(store.Key{Category: d.Category, Name: d.Name}),
				Content:      d.Content,
				Via:          via,
				TokensEst:    d.TokensEst(),
				Date:         tv.dateOf(snap, d),
				OutsideRange: tv.outside(d),
			})
		}
		// Its supersedes links that name no entry, as unresolved as any.
		for _, raw := range vv.unresolvedOf(self) {
			if !unresolved[raw] {
				unresolved[raw] = true
				res.UnresolvedLinks = append(res.UnresolvedLinks, raw)
			}
		}
	}
	applyBudget(res, seq, req.Budget, req.Explain)
}

// hit is a scored document before it becomes an Item.
type hit struct {
	doc   *index.Doc
	score float64
	bm25  *float64
	cos   *float64
}

// fusedHits runs the embedding path of SPEC §6. ok is false, and BM25
// alone must answer, when there is no embedder, the query embedding fails
// or times out, or no document vector of the query's dimension exists.
// Only documents of within (when not nil) are candidates: the others'
// scores are cleared before the min-max normalisation.
func (e *Engine) fusedHits(ctx context.Context, snap *index.Snapshot, query string, terms []string, limit int, within *index.Set) (hits []hit, ok bool) {
	if e.embedder == nil || e.vectors == nil || snap.Count() == 0 {
		return nil, false
	}
	// The embedding path (the query's vector, and the vector cache's
	// first load, which runs on the Engine's own goroutine meanwhile) gets
	// EmbedTimeout, and never more than half the time ctx has left, so
	// that BM25 can still answer in the rest.
	budget := e.embedTimeout
	if dl, has := ctx.Deadline(); has {
		budget = min(budget, time.Until(dl)/2)
	}
	fctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	vl := e.vectorsLoaded(fctx)
	q, ok := e.queryVector(fctx, query)
	if !ok {
		return nil, false
	}
	select {
	case <-vl.done:
		if vl.err != nil {
			return nil, false
		}
	case <-fctx.Done():
		return nil, false // still loading: BM25 answers (SPEC §6)
	}
	t := e.table(snap)
	if t == nil {
		return nil, false
	}
	n := snap.Len()
	buf := fusionBufs.Get().(*fusionBuf)
	defer fusionBufs.Put(buf)
	bm, cos, has := buf.get(n)
	if e.cosines(snap, t, q, cos, has) == 0 {
		return nil, false
	}
	snap.Score(terms, func(d *index.Doc, s float64) { bm[d.Ord()] = s })
	if within != nil {
		for ord := range bm {
			if d := snap.Doc(ord); d == nil || !within.Has(d) {
				bm[ord], cos[ord], has[ord] = 0, 0, false
			}
		}
	}
	scores, err := fusion.Fuse(bm, cos, has, e.alpha)
	if err != nil {
		return nil, false
	}
	var top index.TopK
	top.Reset(limit)
	for ord, f := range scores {
		if f > 0 {
			if d := snap.Doc(ord); d != nil {
				top.Push(d, f)
			}
		}
	}
	for _, s := range top.Sorted() {
		ord := s.Doc.Ord()
		h := hit{doc: s.Doc, score: s.Score}
		b := bm[ord]
		h.bm25 = &b
		if has[ord] {
			c := cos[ord]
			h.cos = &c
		}
		hits = append(hits, h)
	}
	return hits, true
}

// applyBudget keeps the longest prefix of seq within budget, and always the
// first item.
func applyBudget(res *Result, seq []Item, budget int, explain bool) {
	if budget == 0 {
		budget = DefaultBudget
	}
	cut := len(seq)
	used := 0
	for i, it := range seq {
		if budget > 0 && i > 0 && used+it.TokensEst > budget {
			cut = i
			break
		}
		used += it.TokensEst
	}
	if cut > 0 {
		res.Items = seq[:cut:cut]
	}
	res.BudgetUsed = used
	if explain {
		res.Dropped = append([]Item{}, seq[cut:]...)
	}
}

// fusionBuf holds the per-query score arrays of the fused path, which are
// as long as the store is large: reusing them spares an allocation and a
// clear of a few hundred kilobytes per retrieve.
type fusionBuf struct {
	bm, cos []float64
	has     []bool
}

var fusionBufs = sync.Pool{New: func() any { return new(fusionBuf) }}

// get returns zeroed slices of length n.
func (b *fusionBuf) get(n int) (bm, cos []float64, has []bool) {
	if cap(b.bm) < n {
		b.bm, b.cos, b.has = make([]float64, n), make([]float64, n), make([]bool, n)
	}
	bm, cos, has = b.bm[:n], b.cos[:n], b.has[:n]
	clear(bm)
	clear(cos)
	clear(has)
	return bm, cos, has
}
