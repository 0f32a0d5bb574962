package index

import (
	"errors"
	"slices"
)

// The query side of a snapshot: Top plans the query (plan.go), chooses a
// scorer for its shape (choose.go) and runs it; each scorer is in a file
// of its own (exhaustive.go, onelist.go, pruned.go, impact.go) and keeps
// its top k in the one heap (heap.go). Every scorer sums a document's
// weights in term order from 0, so that they agree to the bit.

// ErrCanceled is returned by Snapshot.Top when TopQuery.Done closed before the
// search finished.
var ErrCanceled = errors.New("search canceled")

// TopQuery is a top-k search.
type TopQuery struct {
	// Terms are the distinct query terms (Snapshot.Terms).
	Terms []string
	// Limit is k; <= 0 means every document that matches.
	Limit int
	// Done, when it closes, stops the search (ErrCanceled) within a few
	// thousand postings. Typically ctx.Done().
	Done <-chan struct{}
	// Pruning chooses the scorer; the answer is the same either way.
	Pruning Pruning
	// Within, when not nil, admits only its documents (a Set of this
	// snapshot, such as Snapshot.In builds for a time range): the top
	// Limit are the best inside it, never a filtered top list. A narrow
	// set is scored with the exhaustive scorer, which skips the postings
	// of documents outside it and probes long lists for its documents.
	Within *Set
}

// Pruning chooses between exhaustive scoring and the pruned top-k.
type Pruning int

const (
	// PruneAuto prunes when the query's lists promise to pay for it.
	PruneAuto Pruning = iota
	// PruneNever scores every posting (for tests and measurements).
	PruneNever
	// PruneAlways prunes whenever the query allows it (a limit, at most
	// 64 terms, two lists or more), for tests.
	PruneAlways
)

// checkEvery is how many postings or candidates the scorers handle
// between two looks at TopQuery.Done: a few microseconds of work.
const checkEvery = 1 << 12

func canceled(done <-chan struct{}) bool {
	if done == nil {
		return false
	}
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// Top returns the top q.Limit documents by BM25 score for the distinct
// query terms, best first; ties by category, then name, ascending. With
// q.Limit > 0 it prunes (exactly: the answer is the exhaustive one).
func (s *Snapshot) Top(q TopQuery) ([]Scored, error) {
	return s.AppendTop(nil, q)
}

// AppendTop is Top appending the answer to dst (on an error, dst as
// given): a caller that keeps dst between queries ranks without an
// allocation.
func (s *Snapshot) AppendTop(dst []Scored, q TopQuery) ([]Scored, error) {
	p := planPool.Get().(*plan)
	defer p.release()
	if s.planIn(p, q.Terms) == nil {
		return dst, nil
	}
	p.done = q.Done
	p.h.k = q.Limit
	if q.Within != nil && q.Within.all {
		q.Within = nil // it admits every document
	}
	if q.Within != nil && q.Within.Len() == 0 {
		return dst, nil // it admits none
	}
	p.h.within = q.Within
	if q.Limit > 0 {
		p.h.h = slices.Grow(p.h.h, min(q.Limit, s.Len()))
	}
	var err error
	switch c := s.choose(p, q); c.scorer {
	case impactScorer:
		err = p.impact(c.li)
	case prunedScorer:
		err = c.walk.run()
	case oneListScorer:
		err = p.oneList()
	default:
		err = p.exhaustive(nil)
	}
	if err != nil {
		return dst, err
	}
	return p.h.appendSorted(dst), nil
}
