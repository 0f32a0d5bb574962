package main

import (
	"cmp"
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

type lsOptions struct {
	app    *app
	json   bool
	long   bool
	limit  int
	cursor string
	time   timeFlags
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
			if err := o.time.validate(); err != nil {
				return err
			}
			ranged := o.time.after != "" || o.time.before != ""
			if ranged && (cmd.Flags().Changed("limit") || o.cursor != "") {
				return usagef(cmd, "--after and --before do not combine with --limit or --cursor")
			}
			if ranged {
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
	o.time.register(cmd, false)
	return cmd
}

// ranged is ls with --after/--before: every entry is read, those whose
// effective date is outside the range are left out.
func (o *lsOptions) ranged(cmd *cobra.Command, category string) error {
	r := o.time.dates
	if !r.From.IsZero() && !r.To.IsZero() && !r.From.Before(r.To) {
		return usagef(cmd, "--before (%s) must be later than --after (%s)", o.time.before, o.time.after)
	}
	return o.list(cmd.Context(), func(ctx context.Context, st store.Store, skip func(error)) ([]store.Entry, error) {
		return service.ListDated(ctx, st, category, r, cmp.Or(o.time.zone, time.Local), skip)
	})
}

func (o *lsOptions) run(ctx context.Context, category string) error {
	// Names only, unless the columns need the entries: no entry is read
	// where the store can list them.
	return o.list(ctx, func(ctx context.Context, st store.Store, skip func(error)) ([]store.Entry, error) {
		return service.ListAll(ctx, st, category, o.json || o.long, skip)
	})
}

// list prints what entries lists. Like ls(1), it lists what can be
// listed, and still says by the exit status that something was left out.
func (o *lsOptions) list(ctx context.Context, entries func(context.Context, store.Store, func(error)) ([]store.Entry, error)) error {
	return o.app.withStore(ctx, mustExist, func(st store.Store) error {
		skips := &render.Skips{W: o.app.stderr}
		list, err := entries(ctx, st, skips.Add)
		if err != nil {
			return err
		}
		if err := render.WriteList(o.app.stdout, list, o.json, o.long); err != nil {
			return err
		}
		return skips.Err("ls")
	})
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
