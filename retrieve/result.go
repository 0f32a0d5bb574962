package retrieve

// Result is the answer to one retrieve, with the evidence for every item
// (SPEC §7). Its JSON form is the `recall retrieve --json` output.
type Result struct {
	// Items survive the budget, in injection order.
	Items []Item `json:"items"`
	// BudgetUsed is the sum of the items' TokensEst.
	BudgetUsed int `json:"budget_used"`
	// EmbeddingUsed is true only when the cosine path really ran.
	EmbeddingUsed bool `json:"embedding_used"`
	// UnresolvedLinks lists, as written and each once, the links of hits
	// whose target does not exist. Collected before the budget is applied.
	UnresolvedLinks []string `json:"unresolved_links"`
	// Dropped holds the items the budget cut, only when explain was asked.
	Dropped []Item `json:"dropped,omitzero"`
	// TimeRange is the range of effective dates the hits were restricted
	// to, and the query's phrase it was read from; nil when none.
	TimeRange *TimeRange `json:"time_range,omitempty"`

	// room is the hits' backing array, which Engine.RetrieveTo reuses.
	room []Item
}

// Source says why an item is in the result.
type Source string

const (
	SourceHit  Source = "hit"  // it matched the query
	SourceLink Source = "link" // a hit links to it
)

// Ref names an entry.
type Ref struct {
	Category string `json:"category"`
	Name     string `json:"name"`
}

// Item is one entry in a result.
type Item struct {
	Source   Source `json:"source"`
	Category string `json:"category"`
	Name     string `json:"name"`
	// DisplayName is the key as written ("Questions:What is it?",
	// store.MappedDisplayKey) when the name or category is mapped by SPEC
	// §1's name mapping ("What is it%3F"); empty, and absent from JSON,
	// for every other name.
	DisplayName string `json:"display_name,omitempty"`
	// Section is the heading path ("Install > On Linux") of the part of
	// the entry a long hit is answered by, IntroSection for its text
	// before the first heading, and empty for a whole entry. Content,
	// TokensEst and the injected links are the section's; the whole entry
	// is a get away (see SectionMinTokens, Request.WholeEntries).
	Section string `json:"section,omitempty"`
	Content string `json:"content"`
	// Score is the fused score when the embedding ran, else BM25; 0 for links,
	// which are not scored.
	Score float64 `json:"score"`
	// BM25Score is set on hits. When the embedding did not run it points
	// at the item's own Score (the same value): copy the value, not the
	// pointer, before changing Score.
	BM25Score *float64 `json:"bm25_score,omitempty"`
	// CosScore is set on hits that have a vector, when the cosine path ran.
	CosScore *float64 `json:"cos_score,omitempty"`
	// Via is the hit that linked to this item (links only).
	Via *Ref `json:"via,omitempty"`
	// MatchedTerms are the query terms present in the entry, sorted (hits).
	MatchedTerms []string `json:"matched_terms,omitzero"`
	// TokensEst is est_tokens(name + "\n" + content) (of the section's
	// content for a section).
	TokensEst int `json:"tokens_est"`
	// Date is the entry's effective date: its event date ("2024-05-03"
	// for a day, else RFC 3339 in the request's zone), else its created
	// time. Set on every item of a retrieve with a time range, and on
	// entries with an event date always; empty otherwise.
	Date string `json:"date,omitempty"`
	// OutsideRange marks a link whose entry lies outside the retrieve's
	// time range (hits never do): context for a hit, not an answer.
	OutsideRange bool `json:"outside_range,omitempty"`
	// SupersededBy is the entry ("category:name") that supersedes this one
	// (docs/validity.md): set on a link to a superseded entry, and on a
	// superseded hit of a retrieve with IncludeSuperseded.
	SupersededBy string `json:"superseded_by,omitempty"`
	// Supersedes lists the entries ("category:name", in identity order)
	// this one supersedes.
	Supersedes []string `json:"supersedes,omitempty"`
	// Expired marks an entry whose expiry has come at the request's now: a
	// link, or a hit of a retrieve with IncludeExpired.
	Expired bool `json:"expired,omitempty"`
	// Collapsed lists the hits ("category:name", in rank order) folded
	// into this one as its duplicates (docs/duplicates.md): not injected,
	// costing no budget. Absent with Request.KeepDuplicates.
	Collapsed []string `json:"collapsed,omitempty"`
}
