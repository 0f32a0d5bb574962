package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
)

// retrieveOptions are the flags of `recall retrieve`. Options that shape
// the Engine (segmentation now, an embedder later) are turned into
// retrieve.Options by engineOptions; per-query ones into a Request.
type retrieveOptions struct {
	app *app

	limit    int
	budget   int
	noBudget bool
	noLinks  bool
	explain  bool
	analysis analyzerFlags
	json     bool
	embedder embedderFlags

	categories []string
	tags       []string
	minScore   float64

	time timeFlags

	includeSuperseded, includeExpired bool
}

func newRetrieveCmd(a *app) *cobra.Command {
	o := &retrieveOptions{app: a}
	cmd := &cobra.Command{
		Use:   "retrieve QUERY",
		Short: "Find the entries relevant to a query, with the evidence",
		Long: `Retrieve scores every entry against QUERY with BM25, keeps the best --limit
as hits, adds the entries each hit links to ([[category:name]], one hop) right
after it, and keeps the longest prefix of that list within the token budget.
Several arguments are joined into one query with spaces.

Time: a time phrase in the query ("last week", "in May 2024", "since March",
"上周", "2024年5月", "三天前"; the grammar is in docs/time.md) is taken out of
the words and restricts the hits to the entries dated in that range: an
entry's date is its event date (add --date, front matter date:) or else its
created time. --after DATE (inclusive) and --before DATE (exclusive), DATE
being 2024-05-03 or an RFC 3339 time, give the range explicitly and then the
whole query is words; --no-time keeps a phrase as words. The range filters
before ranking: the hits are the best --limit entries inside it. A query that
is only a time phrase, or no query with --after/--before, lists the entries in
the range newest first (a timeline). Relative phrases are read from --now
(default: the current time) in the zone --tz names (default: $TZ, else the
local zone). The output says what range was understood (time_range in --json).

Validity (docs/validity.md): an entry another one supersedes (add
--supersedes) and an entry whose expiry (add --expires) has come at --now are
no hits; --include-superseded and --include-expired bring them back, marked
superseded-by= and expired. A hit names what it supersedes (supersedes=).

The human output shows, per item, why it is there: a hit's score, BM25 score and
the query terms it matched; a link's "via", the hit that links to it; and the
estimated tokens. --json prints exactly one JSON object with the fields of the
library's retrieve.Result (items, budget_used, embedding_used,
unresolved_links, and dropped with --explain).

--segmenter defaults to off here: dictionary segmentation (gse) needs about two
seconds and over 100 MB of memory to load its dictionary, more than most
one-shot queries are worth; bigrams need nothing. Use auto or on for better
Chinese word boundaries when that cost is acceptable.`,
		Example: `  recall retrieve 想去海边玩
  recall retrieve "peanut allergy" --limit 3 --no-budget
  recall retrieve 周末 --budget 200 --explain
  recall retrieve 海边 --json | jq '.items[].name'
  recall retrieve "what did I eat last week"
  recall retrieve 上周 --now 2025-06-04T09:00:00+08:00
  recall retrieve --after 2024-05-01 --before 2024-06-01`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && o.time.after == "" && o.time.before == "" {
				return usagef(cmd, "retrieve takes a QUERY (or --after/--before for a timeline)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.validate(cmd); err != nil {
				return err
			}
			return o.run(cmd, strings.Join(args, " "))
		},
	}
	f := cmd.Flags()
	f.IntVarP(&o.limit, "limit", "n", retrieve.DefaultLimit, "at most `N` hits (links come on top)")
	f.IntVar(&o.budget, "budget", retrieve.DefaultBudget, "token budget `N` for all items")
	f.BoolVar(&o.noBudget, "no-budget", false, "no token budget")
	f.BoolVar(&o.noLinks, "no-links", false, "do not add the entries hits link to")
	f.BoolVar(&o.explain, "explain", false, "also show the items the budget dropped")
	o.analysis.register(cmd, "CJK segmentation `MODE`: auto, on or off (see above)")
	f.BoolVar(&o.json, "json", false, "print one JSON object")
	f.StringArrayVar(&o.categories, "category", nil, "only hits from `CATEGORY` (repeat for any of several; links may leave it)")
	f.StringArrayVar(&o.tags, "tag", nil, "only hits tagged `TAG` (repeat for any of several)")
	f.Float64Var(&o.minScore, "min-score", service.DefaultMinScore, "with an embedder, drop hits that match no query word and whose cosine similarity is below `S` (-1..1; -1 keeps all)")
	o.time.register(cmd, true)
	f.BoolVar(&o.includeSuperseded, "include-superseded", false, "also hits that another entry supersedes (marked superseded-by=)")
	f.BoolVar(&o.includeExpired, "include-expired", false, "also hits whose expiry has passed (marked expired)")
	o.embedder.register(cmd, true)
	return cmd
}

func (o *retrieveOptions) validate(cmd *cobra.Command) error {
	if o.limit < 1 || o.limit > service.MaxLimit {
		return usagef(cmd, "--limit must be between 1 and %d, got %d", service.MaxLimit, o.limit)
	}
	if o.noBudget && cmd.Flags().Changed("budget") {
		return usagef(cmd, "--budget and --no-budget exclude each other")
	}
	if o.budget < 1 {
		return usagef(cmd, "--budget must be at least 1, got %d (use --no-budget for none)", o.budget)
	}
	if err := o.analysis.validate(cmd, o.app); err != nil {
		return err
	}
	if err := o.time.validate(cmd); err != nil {
		return err
	}
	return o.embedder.validate()
}

// params turns the flags into the service's retrieve parameters, the
// ones the HTTP API and the MCP tool take, so all three answer alike.
func (o *retrieveOptions) params(query string) service.RetrieveParams {
	budget := o.budget
	if o.noBudget {
		budget = 0 // no cap
	}
	links := !o.noLinks
	p := service.RetrieveParams{Query: query, Limit: &o.limit, BudgetTokens: &budget, ExpandLinks: &links,
		Explain: o.explain, Categories: o.categories, Tags: o.tags}
	if o.minScore != service.DefaultMinScore {
		p.MinScore = &o.minScore
	}
	o.time.fill(&p)
	p.IncludeSuperseded, p.IncludeExpired = o.includeSuperseded, o.includeExpired
	return p
}

func (o *retrieveOptions) run(cmd *cobra.Command, query string) error {
	ctx := cmd.Context()
	f := &engineFlags{analysis: o.analysis, embedder: o.embedder}
	return o.app.withMemory(ctx, mustExist, f, func(m *service.Memory) error {
		// Build the index here rather than lazily, to say on stderr which
		// entries it could not read instead of leaving them out silently.
		// Load takes the store's persisted copy when it is current (a bolt
		// file's, or a folder's for the files whose stamps it matches);
		// Close waits for the copy a build saves for the next run.
		defer m.Engine().Close()
		stats, err := m.Engine().Load(ctx)
		if err != nil {
			return err
		}
		for _, e := range stats.Skipped {
			fmt.Fprintf(o.app.stderr, "skipped %s\n", oneLine(e.Error()))
		}
		res, req, err := m.Retrieve(ctx, o.params(query))
		if err != nil {
			return err
		}
		if o.json {
			return service.WriteResultJSON(o.app.stdout, res)
		}
		return render.WriteResult(o.app.stdout, res, req.Budget, o.explain, render.Style{Color: o.app.color()})
	})
}
