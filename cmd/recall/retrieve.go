package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/setup"
)

// retrieveOptions are the flags of `recall retrieve`: those that shape the
// engine go to a setup.Config, the per-query ones to a setup.Retrieve.
type retrieveOptions struct {
	app *app

	r        setup.Retrieve
	analysis analyzerFlags
	json     bool
	embedder embedderFlags
}

func newRetrieveCmd(a *app) *cobra.Command {
	o := &retrieveOptions{app: a}
	cmd := documented(&cobra.Command{
		Use: "retrieve QUERY",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && o.r.Time.After == "" && o.r.Time.Before == "" {
				return usagef(cmd, "retrieve takes a QUERY (or --after/--before for a timeline)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.r.BudgetGiven = cmd.Flags().Changed("budget")
			p, err := o.r.Params(strings.Join(args, " "))
			if err != nil {
				return err
			}
			if err := o.embedder.config(o.analysis.config(o.app)).Check(); err != nil {
				return err
			}
			return o.run(cmd, p)
		},
	})
	f := cmd.Flags()
	f.IntVarP(&o.r.Limit, "limit", "n", retrieve.DefaultLimit, "at most `N` hits (links come on top)")
	f.IntVar(&o.r.Budget, "budget", retrieve.DefaultBudget, "token budget `N` for all items")
	f.BoolVar(&o.r.NoBudget, "no-budget", false, "no token budget")
	f.BoolVar(&o.r.NoLinks, "no-links", false, "do not add the entries hits link to")
	f.BoolVar(&o.r.Explain, "explain", false, "also show the items the budget dropped")
	o.analysis.register(cmd, "CJK segmentation `MODE`: auto, on or off (see above)")
	f.BoolVar(&o.json, "json", false, "print one JSON object")
	f.StringArrayVar(&o.r.Categories, "category", nil, "only hits from `CATEGORY` (repeat for any of several; links may leave it)")
	f.StringArrayVar(&o.r.Tags, "tag", nil, "only hits tagged `TAG` (repeat for any of several)")
	f.Float64Var(&o.r.MinScore, "min-score", service.DefaultMinScore, "with an embedder, drop hits that match no query word and whose cosine similarity is below `S` (-1..1; -1 keeps all)")
	registerTime(cmd, &o.r.Time, &o.r.NoTime)
	f.BoolVar(&o.r.IncludeSuperseded, "include-superseded", false, "also hits that another entry supersedes (marked superseded-by=)")
	f.BoolVar(&o.r.IncludeExpired, "include-expired", false, "also hits whose expiry has passed (marked expired)")
	f.BoolVar(&o.r.WholeEntries, "whole-entries", false, "every hit whole, never one section of a long note")
	f.BoolVar(&o.r.KeepDuplicates, "keep-duplicates", false, "keep hits that duplicate a higher-ranked one (default: collapsed into it)")
	o.embedder.register(cmd, true)
	return cmd
}

func (o *retrieveOptions) run(cmd *cobra.Command, p service.RetrieveParams) error {
	ctx := cmd.Context()
	f := &engineFlags{analysis: o.analysis, embedder: o.embedder}
	return o.app.withMemory(ctx, mustExist, f, func(m *service.Memory) error {
		defer m.Engine().Close() // after the answer: it waits for the index copy a build saves
		res, req, err := m.RetrieveLoaded(ctx, p, func(msg string) { fmt.Fprintln(o.app.stderr, msg) })
		if err != nil {
			return err
		}
		if o.json {
			return service.WriteResultJSON(o.app.stdout, res)
		}
		return render.WriteResult(o.app.stdout, res, req.Budget, o.r.Explain, render.StyleFor(o.app.stdout, o.app.getenv))
	})
}
