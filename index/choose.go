package index

// choose is the one place that decides which scorer answers a query; its
// table test (choose_test.go) pins the scorer of each query shape. The
// answer does not depend on the choice, only the time does.

// scorer names the algorithm that answers a query.
type scorer int

const (
	// exhaustiveScorer scores every posting, term at a time
	// (exhaustive.go): no limit, PruneNever, more than 64 terms, too few
	// postings for another to pay, or pruning would read most of them.
	exhaustiveScorer scorer = iota
	// oneListScorer is one base list scored in a loop (onelist.go).
	oneListScorer
	// prunedScorer is the MaxScore walk with block bounds (pruned.go).
	prunedScorer
	// impactScorer is one long list read in impact order, with short
	// others (impact.go).
	impactScorer
)

func (c scorer) String() string {
	switch c {
	case oneListScorer:
		return "one-list"
	case prunedScorer:
		return "pruned"
	case impactScorer:
		return "impact"
	}
	return "exhaustive"
}

// choice is a scorer with what choosing it computed.
type choice struct {
	scorer scorer
	li     int      // impactScorer: the long list's index in p.qt
	walk   maxScore // prunedScorer: the walk, set up
}

// impactMin is the shortest list that gets an impact order.
const impactMin = 1 << 10

// impactShare: the impact path is taken when the other lists hold at most
// 1/impactShare of the long list's postings.
const impactShare = 8

// impactFirst: with at most this many postings in the short lists (plus
// 4k), the impact path is taken without asking whether the pruned scorer
// would read less; above it, when pruning applies, it reads less (its
// walk skips the short lists too once their bounds fall below the
// threshold, where the impact path scores every one of their documents).
const impactFirst = 512

// pruneMin is the least number of postings, per result asked for, below
// which the exhaustive scorer is used without looking further.
const pruneMin = 16

// minPrunePostings: below this many postings the exhaustive scorer takes
// a few microseconds, less than the pruned scorer's set-up pays back
// (BenchmarkSearchPruning at 1k entries).
const minPrunePostings = 1 << 11

// pruneRatio: the pruned scorer runs only when the lists it must walk
// (the essential ones under the start threshold) hold at most 1/pruneRatio
// of the query's postings. A candidate costs the pruned scorer several
// times what a posting costs the exhaustive one (cursor minimum, probes
// into the other lists), so it pays only when it skips most postings
// (measured with BenchmarkSearchPruning and BenchmarkSharedSetsRetrieve
// in bench: at k = 100 over 5k documents, common words decide the tail of
// the top k and cannot be skipped).
const pruneRatio = 4

// choose picks the scorer of q on plan p. Without a set (q.Within): the
// impact scorer when one list is long, the others short and few; the
// pruned walk when it would skip most postings; the impact scorer when
// one list is long and the others short; the one-list loop for a single
// list; the exhaustive scorer otherwise. Choosing the pruned walk sets
// it up (its start threshold decides whether it pays). Inside a set, the
// exhaustive scorer (which skips or probes for the documents outside it,
// within.go) when it costs less than the list scorer would (inSet);
// PruneAlways keeps the list scorer, for tests.
func (s *Snapshot) choose(p *plan, q TopQuery) choice {
	c := s.chooseLists(p, q)
	if q.Within != nil && q.Pruning == PruneAuto && c.scorer != exhaustiveScorer && s.inSet(p, q, c) {
		return choice{scorer: exhaustiveScorer}
	}
	return c
}

// chooseLists is choose without the set's question: the scorer for the
// shape of the query's lists.
func (s *Snapshot) chooseLists(p *plan, q TopQuery) choice {
	li, others, impact := s.useImpact(p, q)
	if impact && others <= impactFirst+4*q.Limit {
		return choice{scorer: impactScorer, li: li}
	}
	if w, ok := s.usePruning(p, q); ok {
		return choice{scorer: prunedScorer, walk: w}
	}
	if impact {
		return choice{scorer: impactScorer, li: li}
	}
	if len(p.qt) == 1 && q.Limit > 0 && q.Pruning != PruneNever {
		return choice{scorer: oneListScorer}
	}
	return choice{scorer: exhaustiveScorer}
}

// walkCost is what the impact scorer's walk of its long list costs per
// document it reads inside a set (mostly a look at the set, at random
// places where a scan reads in order) against one posting scanned
// (BenchmarkTopWithin: 3 and 10 measured alike, within the noise).
const walkCost = 4

// inSet reports whether the exhaustive scorer inside q.Within costs less
// than c, the list scorer chosen. A set of s of density f (its share of
// the documents) makes a list scorer read about 1/f times the documents
// it reads without a set before k of them are in it: the impact
// scorer's walk reads about k/f, the pruned walk its estimate over f;
// the one-list loop reads the whole list either way.
func (s *Snapshot) inSet(p *plan, q TopQuery, c choice) bool {
	w := q.Within
	in := p.inSetCost(w)
	n, m := s.Count(), max(w.Len(), 1)
	var lists int
	switch c.scorer {
	case impactScorer:
		_, others, _ := s.useImpact(p, q)
		lists = others + walkCost*min(len(p.qt[c.li].list.docs), q.Limit*n/m)
	case prunedScorer:
		lists = min(p.postings(), c.walk.estimate()*n/m)
	default:
		lists = p.postings()
	}
	return in < lists
}

// useImpact reports whether the impact path can answer q, which of the
// plan's terms is the long one, and how many postings the others hold:
// a limit, at most 64 terms, one list of at least impactMin postings
// holding impactShare times the others', whose impact order the cache
// budget allows (cachebudget.go).
func (s *Snapshot) useImpact(p *plan, q TopQuery) (li, others int, ok bool) {
	if q.Pruning == PruneNever || q.Limit <= 0 || len(q.Terms) > 64 || len(p.qt) == 0 {
		return 0, 0, false
	}
	li = -1
	for j, t := range p.qt {
		if len(t.list.docs) >= impactMin && (li < 0 || len(t.list.docs) > len(p.qt[li].list.docs)) {
			if li >= 0 {
				others += len(p.qt[li].list.docs)
			}
			li = j
			continue
		}
		others += len(t.list.docs)
	}
	if li < 0 || others*impactShare > len(p.qt[li].list.docs) || !s.base.impactReady(p.qt[li].id) {
		return 0, 0, false
	}
	return li, others, true
}

// usePruning reports whether the pruned walk answers q, and returns it set
// up: a limit, at most 64 terms, enough postings (pruneMin per result,
// minPrunePostings in all) and a walk that reads at most 1/pruneRatio of
// them; PruneAlways drops the last two conditions.
func (s *Snapshot) usePruning(p *plan, q TopQuery) (maxScore, bool) {
	if q.Pruning == PruneNever || q.Limit <= 0 || len(q.Terms) > 64 || len(p.qt) == 0 {
		return maxScore{}, false
	}
	total := 0
	for _, t := range p.qt {
		total += len(t.list.docs)
	}
	if (total < pruneMin*q.Limit || total < minPrunePostings) && q.Pruning != PruneAlways {
		return maxScore{}, false
	}
	w := newMaxScore(p, q.Limit)
	if w.estimate()*pruneRatio > total && q.Pruning != PruneAlways {
		return maxScore{}, false
	}
	return w, true
}
