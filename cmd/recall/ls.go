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
	app *app
	s   setup.List
}

func newLsCmd(a *app) *cobra.Command {
	o := &lsOptions{app: a}
	cmd := documented(&cobra.Command{
		Use:  "ls [CATEGORY]",
		Args: rangeArgs(0, 1, "at most one CATEGORY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.s.Category = args[0]
			}
			o.s.LimitGiven = cmd.Flags().Changed("limit")
			l, err := o.s.Listing()
			if err != nil {
				return err
			}
			if o.s.Paged() {
				return o.page(cmd.Context(), l)
			}
			return o.list(cmd.Context(), l)
		},
	})
	f := cmd.Flags()
	f.BoolVar(&o.s.JSON, "json", false, "print a JSON array")
	f.BoolVarP(&o.s.Long, "long", "l", false, "add tokens, updated date and tags")
	f.IntVarP(&o.s.Limit, "limit", "n", service.DefaultListLimit, "print one page of at most `N` entries")
	f.StringVar(&o.s.Cursor, "cursor", "", "continue after the page that printed this `CURSOR`")
	registerTime(cmd, &o.s.Time, nil)
	f.BoolVar(&o.s.Expired, "expired", false, "only the entries whose expiry has passed")
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
	if !o.s.Long || o.s.JSON {
		return render.WriteList(o.app.stdout, entries, o.s.JSON, o.s.Long)
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

// page prints one page of the list through the service (with --long, its
// validity as list does), and on stderr how to get the next.
func (o *lsOptions) page(ctx context.Context, l service.Listing) error {
	return o.app.withMemory(ctx, mustExist, nil, func(m *service.Memory) error {
		p, v, err := l.Page(ctx, m, o.s.Limit, o.s.Cursor)
		if err != nil {
			return err
		}
		if err := render.WritePage(o.app.stdout, o.app.stderr, p, o.s.JSON, o.s.Long, v, l.Now); err != nil {
			return err
		}
		return render.SkippedErr("ls", p.Skipped)
	})
}
