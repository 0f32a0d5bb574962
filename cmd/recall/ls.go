package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/setup"
	"github.com/recallhq/recall/store"
)

type lsOptions struct {
	app    *app
	json   bool
	long   bool
	limit  int
	cursor string
	time   setup.Time
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
			zone, dates, err := o.time.Parse()
			if err != nil {
				return err
			}
			ranged := o.time.After != "" || o.time.Before != ""
			if ranged && (cmd.Flags().Changed("limit") || o.cursor != "") {
				return usagef(cmd, "--after and --before do not combine with --limit or --cursor")
			}
			if o.expired && (cmd.Flags().Changed("limit") || o.cursor != "") {
				return usagef(cmd, "--expired does not combine with --limit or --cursor")
			}
			if !dates.From.IsZero() && !dates.To.IsZero() && !dates.From.Before(dates.To) {
				return usagef(cmd, "--before (%s) must be later than --after (%s)", o.time.Before, o.time.After)
			}
			// Names only, unless the columns need the entries: no entry
			// is read where the store can list them.
			l := service.Listing{Category: category, Read: o.json || o.long, Range: dates, Zone: zone, Expired: o.expired}
			if cmd.Flags().Changed("limit") || o.cursor != "" {
				if o.limit < 1 || o.limit > service.MaxListLimit {
					return usagef(cmd, "--limit must be between 1 and %d, got %d", service.MaxListLimit, o.limit)
				}
				return o.page(cmd.Context(), category)
			}
			return o.list(cmd.Context(), l)
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

// list prints the listing (service.Listing): with --after/--before or
// --expired every entry is read, and those outside the range (or, with
// --expired, whose expiry has not passed) are left out. Like ls(1), it
// lists what can be listed, and still says by the exit status that
// something was left out.
func (o *lsOptions) list(ctx context.Context, l service.Listing) error {
	return o.app.withStore(ctx, mustExist, func(st store.Store) error {
		skips := &render.Skips{W: o.app.stderr}
		list, err := l.List(ctx, st, skips.Add)
		if err != nil {
			return err
		}
		if err := o.write(ctx, st, l, list); err != nil {
			return err
		}
		render.WriteFrontMatterWarnings(o.app.stderr, list)
		return skips.Err("ls")
	})
}

// write prints the list; with --long, the validity of its entries in
// columns and its problems on stderr.
func (o *lsOptions) write(ctx context.Context, st store.Store, l service.Listing, entries []store.Entry) error {
	if !o.long || o.json {
		return render.WriteList(o.app.stdout, entries, o.json, o.long)
	}
	v, now, err := l.Validity(ctx, st, entries)
	if err != nil {
		return err
	}
	if err := render.WriteLongValidity(o.app.stdout, entries, v, now); err != nil {
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
