package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
)

// retrieveOptions are the flags of `recall retrieve`: those that shape the
// engine go to a setup.Config, the per-query ones to service.RetrieveParams.
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
	cmd := documented(&cobra.Command{
		Use: "retrieve QUERY",
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
	})
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
	if err := o.time.validate(); err != nil {
		return err
	}
	return o.embedder.config(o.analysis.config(o.app)).Check()
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
		// Build the index here rather than lazily, to say on stderr what
		// it could not read instead of leaving it out silently (one line:
		// service.SkipSummary).
		// Load takes the store's persisted copy when it is current (a bolt
		// file's, or a folder's for the files whose stamps it matches);
		// Close waits for the copy a build saves for the next run.
		defer m.Engine().Close()
		stats, err := m.Engine().Load(ctx)
		if err != nil {
			return err
		}
		if msg := service.SkipSummary(stats.Skipped); msg != "" {
			fmt.Fprintln(o.app.stderr, msg)
		}
		res, req, err := m.Retrieve(ctx, o.params(query))
		if err != nil {
			return err
		}
		if o.json {
			return service.WriteResultJSON(o.app.stdout, res)
		}
		return render.WriteResult(o.app.stdout, res, req.Budget, o.explain, render.StyleFor(o.app.stdout, o.app.getenv))
	})
}
