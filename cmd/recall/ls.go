package main

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/setup"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/timeexpr"
)

type lsOptions struct {
	app    *app
	json   bool
	long   bool
	limit  int
	cursor string
	time   setup.Time
	// zone and dates are --tz and --after/--before as time.Parse read
	// them.
	zone  *time.Location
	dates timeexpr.Range
	// expired lists only the entries whose expiry has passed.
	expired bool
}

func newLsCmd(a *app) *cobra.Command {
	o := &lsOptions{app: a}
	cmd := documented(&cobra.Command{
		Use:  "ls [CATEGORY]",
		Args: rangeArgs(0, 1, "at most one CATEGORY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			category := ""
			if len(args) == 1 {
				category = args[0]
				if err := store.ValidateName("category", category); err != nil {
					return err
				}
				category, _ = store.NormalizeKey(category, "") // NFC, as stored
			}
			var err error
			if o.zone, o.dates, err = o.time.Parse(); err != nil {
				return err
			}
			ranged := o.time.After != "" || o.time.Before != ""
			if ranged && (cmd.Flags().Changed("limit") || o.cursor != "") {
				return usagef(cmd, "--after and --before do not combine with --limit or --cursor")
			}
			if o.expired && (cmd.Flags().Changed("limit") || o.cursor != "") {
				return usagef(cmd, "--expired does not combine with --limit or --cursor")
			}
			if ranged || o.expired {
				return o.ranged(cmd, category)
			}
			if cmd.Flags().Changed("limit") || o.cursor != "" {
				if o.limit < 1 || o.limit > service.MaxListLimit {
					return usagef(cmd, "--limit must be between 1 and %d, got %d", service.MaxListLimit, o.limit)
				}
				return o.page(cmd.Context(), category)
			}
			return o.run(cmd.Context(), category)
		},
	})
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "print a JSON array")
	f.BoolVarP(&o.long, "long", "l", false, "add tokens, updated date and tags")
	f.IntVarP(&o.limit, "limit", "n", service.DefaultListLimit, "print one page of at most `N` entries")
	f.StringVar(&o.cursor, "cursor", "", "continue after the page that printed this `CURSOR`")
	registerTime(cmd, &o.time, nil)
	f.BoolVar(&o.expired, "expired", false, "only the entries whose expiry has passed")
	return cmd
}

// ranged is ls with --after/--before or --expired: every entry is read,
// those whose effective date is outside the range (or, with --expired,
// whose expiry has not passed) are left out.
func (o *lsOptions) ranged(cmd *cobra.Command, category string) error {
	r := o.dates
	if !r.From.IsZero() && !r.To.IsZero() && !r.From.Before(r.To) {
		return usagef(cmd, "--before (%s) must be later than --after (%s)", o.time.Before, o.time.After)
	}
	loc := cmp.Or(o.zone, time.Local)
	now := time.Now().In(loc)
	return o.list(cmd.Context(), category, func(ctx context.Context, st store.Store, skip func(error)) ([]store.Entry, error) {
		list, err := service.ListDated(ctx, st, category, r, loc, skip)
		if err != nil || !o.expired {
			return list, err
		}
		return slices.DeleteFunc(list, func(e store.Entry) bool { return !store.IsExpired(e.Meta, now) }), nil
	})
}

func (o *lsOptions) run(ctx context.Context, category string) error {
	// Names only, unless the columns need the entries: no entry is read
	// where the store can list them.
	return o.list(ctx, category, func(ctx context.Context, st store.Store, skip func(error)) ([]store.Entry, error) {
		return service.ListAll(ctx, st, category, o.json || o.long, skip)
	})
}

// list prints what entries lists. Like ls(1), it lists what can be
// listed, and still says by the exit status that something was left out.
func (o *lsOptions) list(ctx context.Context, category string, entries func(context.Context, store.Store, func(error)) ([]store.Entry, error)) error {
	return o.app.withStore(ctx, mustExist, func(st store.Store) error {
		skips := &render.Skips{W: o.app.stderr}
		list, err := entries(ctx, st, skips.Add)
		if err != nil {
			return err
		}
		if err := o.write(ctx, st, category, list); err != nil {
			return err
		}
		return skips.Err("ls")
	})
}

// write prints the list; with --long, the validity of its entries in
// columns (worked out over the whole store when a category or a filter
// left part of it out) and its problems on stderr.
func (o *lsOptions) write(ctx context.Context, st store.Store, category string, entries []store.Entry) error {
	if !o.long || o.json {
		return render.WriteList(o.app.stdout, entries, o.json, o.long)
	}
	all := entries
	if category != "" || o.expired || o.time.After != "" || o.time.Before != "" {
		all = nil
		if err := service.EachEntry(ctx, st, func(e store.Entry) { all = append(all, e) }, func(error) {}); err != nil {
			return err
		}
	}
	v := retrieve.ValidityOf(all)
	if err := render.WriteLongValidity(o.app.stdout, entries, v, time.Now().In(cmp.Or(o.zone, time.Local))); err != nil {
		return err
	}
	return render.WriteValidityProblems(o.app.stderr, v)
}

// page prints one page of the list through the service, and on stderr how
// to get the next.
func (o *lsOptions) page(ctx context.Context, category string) error {
	return o.app.withMemory(ctx, mustExist, nil, func(m *service.Memory) error {
		p, err := m.List(ctx, service.ListRequest{Category: category, Limit: o.limit, Cursor: o.cursor})
		if err != nil {
			return err
		}
		if err := render.WritePage(o.app.stdout, o.app.stderr, p, o.json, o.long); err != nil {
			return err
		}
		return render.SkippedErr("ls", p.Skipped)
	})
}
