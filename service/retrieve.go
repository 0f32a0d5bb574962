package service

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/timeexpr"
)

// Bounds of a retrieve request. A query is words a person or a model
// types: MaxQueryBytes holds a long paragraph, and MaxQueryTerms distinct
// index terms (words, CJK bigrams) bound the scoring work per hit.
const (
	MaxLimit      = 1000
	MaxQueryBytes = 8 << 10
	MaxQueryTerms = 256
	// MaxFilterValues bounds the categories and tags a filter lists.
	MaxFilterValues = 100
)

// parseTime fills req's time fields from p: now (default: the clock, in
// the local zone), then after and before read in now's zone.
func (p RetrieveParams) parseTime(req *retrieve.Request) error {
	req.Now = time.Now()
	if p.Now != "" {
		t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(p.Now))
		if err != nil {
			return paramf("now", "%q is not an RFC 3339 time such as 2025-06-01T09:00:00+08:00", p.Now)
		}
		req.Now = t
	}
	if p.Zone != nil {
		req.Now = req.Now.In(p.Zone)
	}
	loc := req.Now.Location()
	for _, f := range []struct {
		name, s string
		t       *time.Time
	}{{"after", p.After, &req.After}, {"before", p.Before, &req.Before}} {
		if f.s == "" {
			continue
		}
		t, err := timeexpr.ParseDate(f.s, loc)
		if err != nil {
			return paramf(f.name, "%v", err)
		}
		*f.t = t
	}
	if !req.After.IsZero() && !req.Before.IsZero() && !req.After.Before(req.Before) {
		return paramf("before", "(%s) must be later than after (%s)", p.Before, p.After)
	}
	req.NoTime = p.NoTime
	req.IncludeSuperseded, req.IncludeExpired = p.IncludeSuperseded, p.IncludeExpired
	req.WholeEntries = p.WholeEntries
	req.KeepDuplicates = p.KeepDuplicates
	return nil
}

// DefaultMinScore is the min_score a retrieve uses when it gives none
// (see RetrieveParams.MinScore). Measured with the hash embedder on the
// shared BEIR sets (TestMinScoreQuality), 0.2 is the lowest threshold that
// answers the nonsense query "qwertyuiop" with nothing (fusion gave 1-10
// items), and it leaves nDCG@10 unchanged on all four sets (msmarco 0.6934,
// dbpedia 0.3490, cmrc2018 0.9856, drcd 0.9500, the same up to 0.4).
// Without an embedder every hit matches a query word, so it changes
// nothing.
const DefaultMinScore = 0.2

// RetrieveParams are the arguments of a retrieve as the HTTP API (POST
// /v1/retrieve) and the MCP retrieve tool take them; the CLI fills them
// from its flags. The jsonschema descriptions are what a model reads.
type RetrieveParams struct {
	Query        string   `json:"query" jsonschema:"What to look for, in the user's own words or yours (any language; Chinese works). Keywords and short phrases match best, e.g. 'trip to the seaside' or '想去海边玩'. At most 8192 bytes and 256 distinct terms."`
	Limit        *int     `json:"limit,omitempty" jsonschema:"At most this many matching entries (hits), 1-1000. Linked entries come on top of them. Default 10."`
	BudgetTokens *int     `json:"budget_tokens,omitempty" jsonschema:"Cap on the estimated tokens of everything returned: entries are kept in order until the next one would exceed it (the first is always kept). Default 800. 0 means no cap."`
	ExpandLinks  *bool    `json:"expand_links,omitempty" jsonschema:"Also return the entries each hit links to with [[category:name]], right after it (one hop). Default true."`
	Explain      bool     `json:"explain,omitempty" jsonschema:"Also list the entries the token budget dropped, so you can ask again with a larger budget_tokens. Default false."`
	Categories   []string `json:"categories,omitempty" jsonschema:"Only hits from these categories (any of them, exact names). Linked entries may come from other categories. Default: all."`
	Tags         []string `json:"tags,omitempty" jsonschema:"Only hits carrying at least one of these tags. Linked entries need not carry them. Default: no tag filter."`
	MinScore     *float64 `json:"min_score,omitempty" jsonschema:"Drop hits found by embedding similarity alone (no query word matched) whose cosine similarity is below this, on the cosine scale -1 to 1; a hit that matches a query word always stays. So a query about nothing in the memory gets no items rather than the nearest guesses. Default 0.2; -1 keeps every hit. No effect without an embedder."`
	After        string   `json:"after,omitempty" jsonschema:"Only entries dated on or after this: a date 2024-05-03 (midnight, in the zone of now) or an RFC 3339 time. An entry's date is when it happened if it was given one, else when it was written. Overrides a time phrase in the query."`
	Before       string   `json:"before,omitempty" jsonschema:"Only entries dated before this (exclusive): a date 2024-06-01 or an RFC 3339 time. Overrides a time phrase in the query."`
	Now          string   `json:"now,omitempty" jsonschema:"The current time as an RFC 3339 time with the user's UTC offset, e.g. 2025-06-01T09:00:00+08:00: relative phrases such as 'last week' or '昨天' are read from it, and days are the days of its zone. Default: the server's clock and zone."`
	NoTime       bool     `json:"no_time,omitempty" jsonschema:"Keep the whole query as words: do not read a time phrase out of it. Default false."`
	// IncludeSuperseded and IncludeExpired: see docs/validity.md.
	IncludeSuperseded bool `json:"include_superseded,omitempty" jsonschema:"Also return entries another entry supersedes (an older value the user corrected), marked superseded_by with the entry that replaces them. Default false: they are left out."`
	IncludeExpired    bool `json:"include_expired,omitempty" jsonschema:"Also return entries whose expiry (their expires date) has passed at now, marked expired. Default false: they are left out."`
	// WholeEntries: see retrieve.Request.WholeEntries.
	WholeEntries bool `json:"whole_entries,omitempty" jsonschema:"Return every hit as its whole entry. Default false: a long entry with markdown headings (over 400 tokens) comes back as the section that best matches the query, named in its section field (heading path); get the entry for all of it."`
	// KeepDuplicates: see docs/duplicates.md.
	KeepDuplicates bool `json:"keep_duplicates,omitempty" jsonschema:"Keep hits that duplicate a higher-ranked hit (the same content, or nearly: docs/duplicates.md). Default false: such a hit is left out, costs no budget, and the hit it duplicates names it in collapsed."`
	// Zone, for Go callers (the CLI's --tz), is the time zone of now, of
	// after and before given as dates, and of calendar days; nil means
	// now's own zone (the local zone when now is not given).
	Zone *time.Location `json:"-"`
}

// filter is the part of a request the engine does not apply itself.
type filter struct {
	categories []string
	tags       []string
	minScore   float64
}

func (f filter) active() bool { return len(f.categories) > 0 || len(f.tags) > 0 || f.minScore > -1 }

// weak reports whether a hit fails min_score: found by the embedding
// alone, with a cosine below the threshold.
// (A timeline's hits, found by their date and not scored, have no
// bm25_score and are never weak.)
func (f filter) weak(it retrieve.Item) bool {
	return it.Source == retrieve.SourceHit && len(it.MatchedTerms) == 0 && it.BM25Score != nil && (it.CosScore == nil || *it.CosScore < f.minScore)
}

// Request turns the parameters into a retrieve.Request, applying the
// defaults of SPEC §7 and the bounds above.
func (p RetrieveParams) Request() (retrieve.Request, error) {
	req, _, err := p.parse()
	return req, err
}

func (p RetrieveParams) parse() (retrieve.Request, filter, error) {
	var f filter
	if strings.TrimSpace(p.Query) == "" && p.After == "" && p.Before == "" {
		return retrieve.Request{}, f, paramf("query", "must not be empty (unless after or before asks for a timeline)")
	}
	if len(p.Query) > MaxQueryBytes {
		return retrieve.Request{}, f, paramf("query", "is %d bytes, the limit is %d", len(p.Query), MaxQueryBytes)
	}
	req := retrieve.Request{Query: p.Query, Limit: retrieve.DefaultLimit, Budget: retrieve.DefaultBudget, Explain: p.Explain}
	if err := p.parseTime(&req); err != nil {
		return req, f, err
	}
	if p.Limit != nil {
		if *p.Limit < 1 || *p.Limit > MaxLimit {
			return req, f, paramf("limit", "must be between 1 and %d, got %d", MaxLimit, *p.Limit)
		}
		req.Limit = *p.Limit
	}
	if p.BudgetTokens != nil {
		switch b := *p.BudgetTokens; {
		case b < 0:
			return req, f, paramf("budget_tokens", "must be 0 (no cap) or more, got %d", b)
		case b == 0:
			req.Budget = retrieve.Unlimited
		default:
			req.Budget = b
		}
	}
	if p.ExpandLinks != nil && !*p.ExpandLinks {
		req.NoLinks = true
	}
	if len(p.Categories) > MaxFilterValues {
		return req, f, paramf("categories", "lists %d categories, the limit is %d", len(p.Categories), MaxFilterValues)
	}
	for _, c := range p.Categories {
		if err := store.ValidateName("categories", c); err != nil {
			return req, f, err
		}
	}
	if len(p.Tags) > MaxFilterValues {
		return req, f, paramf("tags", "lists %d tags, the limit is %d", len(p.Tags), MaxFilterValues)
	}
	tags, err := store.CleanTags(p.Tags)
	if err != nil {
		return req, f, err
	}
	f = filter{categories: p.Categories, tags: tags, minScore: DefaultMinScore}
	if p.MinScore != nil {
		if s := *p.MinScore; math.IsNaN(s) || s < -1 || s > 1 {
			return req, f, paramf("min_score", "must be between -1 and 1 (a cosine similarity), got %v", s)
		}
		f.minScore = *p.MinScore
	}
	return req, f, nil
}

// Retrieve runs a retrieve (SPEC §7) with the filters of p. It returns
// the request the engine ran (for rendering: the budget in force).
//
// Filters are exact: the hits are the best req.Limit entries among those
// that pass (categories any-of, tags any-of, min_score), not a filtered
// top list. Links of the kept hits are injected as usual and may leave
// the filter: a link is context for a hit, and says so with "via".
// Unfiltered requests are the engine's answer unchanged.
func (m *Memory) Retrieve(ctx context.Context, p RetrieveParams) (*retrieve.Result, retrieve.Request, error) {
	req, f, err := p.parse()
	if err != nil {
		return nil, req, err
	}
	if err := m.available(); err != nil {
		return nil, req, err
	}
	res, req, err := m.retrieve(ctx, req, f)
	var te *retrieve.TermsError
	if errors.As(err, &te) {
		return nil, req, paramf("query", "has %d distinct terms, the limit is %d", te.Terms, te.Max)
	}
	return res, req, err
}

// retrieve is Retrieve after the checks; the engine bounds the query's
// distinct terms (req.MaxTerms) as it analyses it, once.
func (m *Memory) retrieve(ctx context.Context, req retrieve.Request, f filter) (*retrieve.Result, retrieve.Request, error) {
	req.MaxTerms = MaxQueryTerms
	if len(f.categories) == 0 && len(f.tags) == 0 {
		// The engine's answer stands unless min_score drops one of its
		// hits (never without an embedder: every BM25 hit matched a word).
		if !f.active() {
			res, err := m.eng.Retrieve(ctx, req)
			return res, req, err
		}
		ex := req
		ex.Explain = true // to see the hits the budget cut too
		res, err := m.eng.Retrieve(ctx, ex)
		if err != nil {
			return nil, req, err
		}
		if !slices.ContainsFunc(res.Items, f.weak) && !slices.ContainsFunc(res.Dropped, f.weak) {
			if !req.Explain {
				res.Dropped = nil
			}
			return res, req, nil
		}
	}
	res, err := m.filtered(ctx, req, f)
	return res, req, err
}

// filtered ranks with the engine and widens the ranking until req.Limit
// hits pass the filter or the ranking is exhausted, then expands links and
// applies the budget with the engine's own steps (retrieve.Expand).
func (m *Memory) filtered(ctx context.Context, req retrieve.Request, f filter) (*retrieve.Result, error) {
	wide := retrieve.Request{Query: req.Query, NoLinks: true, Budget: retrieve.Unlimited, MaxTerms: req.MaxTerms,
		After: req.After, Before: req.Before, Now: req.Now, NoTime: req.NoTime,
		IncludeSuperseded: req.IncludeSuperseded, IncludeExpired: req.IncludeExpired,
		WholeEntries: true} // Expand answers long hits by their sections
	tags := map[store.Key][]string{}
	pass := func(it retrieve.Item) (bool, error) {
		if len(f.categories) > 0 && !slices.Contains(f.categories, it.Category) {
			return false, nil
		}
		if f.minScore > -1 && f.weak(it) {
			return false, nil
		}
		if len(f.tags) == 0 {
			return true, nil
		}
		k := store.Key{Category: it.Category, Name: it.Name}
		t, ok := tags[k]
		if !ok {
			e, err := m.st.Get(ctx, it.Category, it.Name)
			if err != nil && ctx.Err() != nil {
				return false, ctx.Err()
			}
			// A hit deleted or damaged since it was indexed has no tags.
			// Inline #tags of its content count (store.EntryTags).
			t = store.EntryTags(e)
			tags[k] = t
		}
		return slices.ContainsFunc(f.tags, func(x string) bool { return slices.Contains(t, x) }), nil
	}
	// Duplicates collapse among the hits that pass (docs/duplicates.md):
	// the wide ranking keeps them, so that a filtered-out hit folds away
	// none that passes.
	wide.KeepDuplicates = true
	snap, err := m.eng.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	collapse := !req.KeepDuplicates && snap.HasDuplicates()
	enough := func(hits []retrieve.Item) bool {
		return len(hits) >= req.Limit && (!collapse || len(retrieve.CollapseItems(snap, hits, 0)) >= req.Limit)
	}
	var hits []retrieve.Item
	embedded := false
	for n := max(4*req.Limit, 64); ; n *= 4 {
		wide.Limit = n
		res, err := m.eng.Retrieve(ctx, wide)
		if err != nil {
			return nil, err
		}
		embedded = res.EmbeddingUsed
		hits = hits[:0]
		for _, it := range res.Items {
			ok, err := pass(it)
			if err != nil {
				return nil, err
			}
			if ok {
				if hits = append(hits, it); enough(hits) {
					break
				}
			}
		}
		if enough(hits) || len(res.Items) < n {
			break
		}
	}
	if collapse {
		hits = retrieve.CollapseItems(snap, hits, req.Limit)
	}
	res := m.eng.Expand(snap, hits, req)
	res.EmbeddingUsed = embedded
	return res, nil
}
