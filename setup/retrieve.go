package setup

import (
	"fmt"

	"github.com/recallhq/recall/service"
)

// Retrieve is a retrieve's per-query settings as a person gives them
// (recall retrieve's flags). Its Params are what the HTTP API and the MCP
// tool take, so that all three answer alike.
type Retrieve struct {
	Limit int // --limit: hits, 1 to service.MaxLimit
	// Budget (--budget) caps the tokens of all items, at least 1;
	// NoBudget (--no-budget) lifts the cap, and BudgetGiven says Budget
	// was given, which NoBudget excludes.
	Budget            int
	BudgetGiven       bool
	NoBudget          bool
	NoLinks, Explain  bool     // --no-links, --explain
	Categories, Tags  []string // --category, --tag
	MinScore          float64  // --min-score; service.DefaultMinScore is the service's default
	Time              Time     // --after, --before, --now, --tz
	NoTime            bool     // --no-time
	IncludeSuperseded bool     // --include-superseded
	IncludeExpired    bool     // --include-expired
	WholeEntries      bool     // --whole-entries
	KeepDuplicates    bool     // --keep-duplicates
}

// Params checks r and returns the service's parameters for query. A
// setting at fault is an *Error naming its flag; the service checks the
// rest (service.RetrieveParams.Request).
func (r Retrieve) Params(query string) (service.RetrieveParams, error) {
	if r.Limit < 1 || r.Limit > service.MaxLimit {
		return service.RetrieveParams{}, &Error{"--limit", fmt.Sprintf("--limit must be between 1 and %d, got %d", service.MaxLimit, r.Limit)}
	}
	if r.NoBudget && r.BudgetGiven {
		return service.RetrieveParams{}, &Error{"--budget", "--budget and --no-budget exclude each other"}
	}
	if r.Budget < 1 {
		return service.RetrieveParams{}, &Error{"--budget", fmt.Sprintf("--budget must be at least 1, got %d (use --no-budget for none)", r.Budget)}
	}
	zone, _, err := r.Time.Parse()
	if err != nil {
		return service.RetrieveParams{}, err
	}
	limit, budget, links := r.Limit, r.Budget, !r.NoLinks
	if r.NoBudget {
		budget = 0 // no cap
	}
	p := service.RetrieveParams{Query: query, Limit: &limit, BudgetTokens: &budget, ExpandLinks: &links,
		Explain: r.Explain, Categories: r.Categories, Tags: r.Tags,
		After: r.Time.After, Before: r.Time.Before, Now: r.Time.Now, NoTime: r.NoTime, Zone: zone,
		IncludeSuperseded: r.IncludeSuperseded, IncludeExpired: r.IncludeExpired, WholeEntries: r.WholeEntries, KeepDuplicates: r.KeepDuplicates}
	if r.MinScore != service.DefaultMinScore {
		minScore := r.MinScore
		p.MinScore = &minScore
	}
	return p, nil
}
