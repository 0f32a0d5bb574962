package retrieve

import (
	"context"

	"github.com/recallhq/recall/index"
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
}

// Retrieve runs the pipeline of SPEC §7: tokenize, score, expand one-hop
// links, apply the token budget. It makes no LLM call. It fails only when
// the store cannot be read; optional paths degrade silently.
func (e *Engine) Retrieve(ctx context.Context, req Request) (*Result, error) {
	snap, err := e.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	terms := snap.Terms(req.Query)
	hits := snap.Search(terms, limit)

	res := &Result{Items: []Item{}, UnresolvedLinks: []string{}}
	seq := make([]Item, 0, len(hits))
	isHit := make(map[Ref]bool, len(hits))
	for _, h := range hits {
		isHit[Ref{h.Doc.Category, h.Doc.Name}] = true
	}
	injected := map[Ref]bool{}
	unresolved := map[string]bool{}
	for _, h := range hits {
		bm := h.Score
		matched := snap.MatchedTerms(h.Doc, terms)
		if matched == nil {
			matched = []string{}
		}
		seq = append(seq, Item{
			Source:       SourceHit,
			Category:     h.Doc.Category,
			Name:         h.Doc.Name,
			Content:      h.Doc.Content,
			Score:        h.Score,
			BM25Score:    &bm,
			MatchedTerms: matched,
			TokensEst:    estTokens(h.Doc),
		})
		if req.NoLinks {
			continue
		}
		via := &Ref{h.Doc.Category, h.Doc.Name}
		for _, l := range ParseLinks(h.Doc.Category, h.Doc.Content) {
			d := snap.Lookup(l.Category, l.Name)
			if d == nil {
				if !unresolved[l.Raw] {
					unresolved[l.Raw] = true
					res.UnresolvedLinks = append(res.UnresolvedLinks, l.Raw)
				}
				continue
			}
			r := Ref{d.Category, d.Name}
			if isHit[r] || injected[r] {
				continue
			}
			injected[r] = true
			seq = append(seq, Item{
				Source:    SourceLink,
				Category:  d.Category,
				Name:      d.Name,
				Content:   d.Content,
				Via:       via,
				TokensEst: estTokens(d),
			})
		}
	}
	applyBudget(res, seq, req.Budget, req.Explain)
	return res, nil
}

func estTokens(d *index.Doc) int { return index.EstTokens(d.Name + "\n" + d.Content) }

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
	res.Items = append(res.Items, seq[:cut]...)
	res.BudgetUsed = used
	if explain {
		res.Dropped = append([]Item{}, seq[cut:]...)
	}
}
