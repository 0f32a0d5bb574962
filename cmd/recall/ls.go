package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/timeexpr"
)

type lsOptions struct {
	app    *app
	json   bool
	long   bool
	limit  int
	cursor string
	time   timeFlags
	// expired lists only the entries whose expiry has passed.
	expired bool
}

func newLsCmd(a *app) *cobra.Command {
	o := &lsOptions{app: a}
	cmd := &cobra.Command{
		Use:   "ls [CATEGORY]",
		Short: "List entries",
		Long: `Ls prints one category:name per line, sorted by category, then name (byte
order), optionally only those of CATEGORY. --long adds tab-separated columns:
estimated tokens (as retrieve counts them), the updated date, and the tags, and
for an entry that carries an event date (add --date, front matter date:) a
fifth column "date 2024-05-03" (or the RFC 3339 time).
--json prints one array of {category, name, tokens_est, meta}.

--limit N prints one page of at most N entries; when there are more, the
command that prints the next page (with --cursor) goes to stderr.

--after DATE (inclusive) and --before DATE (exclusive) list only the entries
whose effective date (the event date, else the created time) is in that range;
DATE is 2024-05-03 (midnight in the --tz zone, default $TZ or local) or an
RFC 3339 time. They read every entry, and do not combine with --limit.

Plain ls lists names without reading the entries (in a folder, the file names),
so an entry whose file is damaged is listed; a file whose name cannot be an
entry (a symbolic link, a name the rules refuse) is reported on stderr.
--long and --json read every entry, --limit the entries of its page: those the
store cannot read (a hand-edited file with broken front matter) are reported on
stderr and left out.
Either way, when something was reported the exit status is 1 (as ls(1) does).

Validity (docs/validity.md): --long adds, on the entries concerned, the
columns "superseded-by category:name", "supersedes a:x,b:y" and "expires DATE"
(or "expired DATE" once it has passed), and reports on stderr each
supersession cycle (and the entry it keeps) and each supersedes link that
names no entry. --expired lists only the entries whose expiry has passed
(now, in the --tz zone); it reads every entry, and does not combine with
--limit.`,
		Example: `  recall ls
  recall ls trips --long
  recall ls --limit 100 --cursor dHJpcHMA5LiJ5Lqa
  recall ls diary --long --after 2024-05-01 --before 2024-06-01
  recall ls --expired --long`,
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
			if err := o.time.validate(cmd); err != nil {
				return err
			}
			ranged := o.time.after != "" || o.time.before != ""
			if ranged && (cmd.Flags().Changed("limit") || o.cursor != "") {
				return usagef(cmd, "--after and --before do not combine with --limit or --cursor")
			}
			if o.expired && (cmd.Flags().Changed("limit") || o.cursor != "") {
				return usagef(cmd, "--expired does not combine with --limit or --cursor")
			}
			ranged = ranged || o.expired
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
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "print a JSON array")
	f.BoolVarP(&o.long, "long", "l", false, "add tokens, updated date and tags")
	f.IntVarP(&o.limit, "limit", "n", service.DefaultListLimit, "print one page of at most `N` entries")
	f.StringVar(&o.cursor, "cursor", "", "continue after the page that printed this `CURSOR`")
	o.time.register(cmd, false)
	f.BoolVar(&o.expired, "expired", false, "only the entries whose expiry has passed")
	return cmd
}

// ranged is ls with --after/--before: every entry is read, those whose
// effective date is outside the range are left out.
func (o *lsOptions) ranged(cmd *cobra.Command, category string) error {
	loc := o.time.zone
	if loc == nil {
		loc = time.Local
	}
	var from, to time.Time
	for _, f := range []struct {
		name, s string
		t       *time.Time
	}{{"--after", o.time.after, &from}, {"--before", o.time.before, &to}} {
		if f.s == "" {
			continue
		}
		t, err := timeexpr.ParseDate(f.s, loc)
		if err != nil {
			return usagef(cmd, "%s: %v", f.name, err)
		}
		*f.t = t
	}
	if !from.IsZero() && !to.IsZero() && !from.Before(to) {
		return usagef(cmd, "--before (%s) must be later than --after (%s)", o.time.before, o.time.after)
	}
	ctx := cmd.Context()
	now := time.Now().In(loc)
	return o.app.withStore(ctx, mustExist, func(st store.Store) error {
		var entries []store.Entry
		skipped := 0
		err := service.EachEntry(ctx, st, func(e store.Entry) {
			if (category == "" || e.Category == category) && store.InRange(e.Meta, from, to, loc) &&
				(!o.expired || store.IsExpired(e.Meta, now)) {
				entries = append(entries, e)
			}
		}, func(err error) {
			skipped++
			fmt.Fprintf(o.app.stderr, "skipped %s\n", oneLine(err.Error()))
		})
		if err != nil {
			return err
		}
		if err := o.writeWith(ctx, st, category, entries); err != nil {
			return err
		}
		if skipped > 0 {
			return fmt.Errorf("ls: %s could not be read", plural(skipped, "entry", "entries"))
		}
		return nil
	})
}

func (o *lsOptions) run(ctx context.Context, category string) error {
	return o.app.withStore(ctx, mustExist, func(st store.Store) error {
		skipped := 0
		skip := func(err error) {
			skipped++
			fmt.Fprintf(o.app.stderr, "skipped %s\n", oneLine(err.Error()))
		}
		// Names only, unless the columns need the entries: no entry is
		// read where the store can list them.
		entries, err := service.ListAll(ctx, st, category, o.json || o.long, skip)
		if err != nil {
			return err
		}
		if err := o.writeWith(ctx, st, category, entries); err != nil {
			return err
		}
		if skipped > 0 {
			// Like ls(1): list what can be listed, and still say by the exit
			// status that something was left out.
			return fmt.Errorf("ls: %s could not be read", plural(skipped, "entry", "entries"))
		}
		return nil
	})
}

// writeWith is write, with --long the validity of the entries in its
// columns (worked out over the whole store when a category or a filter
// left part of it out) and its problems on stderr.
func (o *lsOptions) writeWith(ctx context.Context, st store.Store, category string, entries []store.Entry) error {
	if !o.long || o.json {
		return o.write(entries)
	}
	all := entries
	if category != "" || o.expired || o.time.after != "" || o.time.before != "" {
		all = nil
		if err := service.EachEntry(ctx, st, func(e store.Entry) { all = append(all, e) }, func(error) {}); err != nil {
			return err
		}
	}
	v := retrieve.ValidityOf(all)
	loc := o.time.zone
	if loc == nil {
		loc = time.Local
	}
	if err := render.WriteLongValidity(o.app.stdout, entries, v, time.Now().In(loc)); err != nil {
		return err
	}
	return render.WriteValidityProblems(o.app.stderr, v)
}

func (o *lsOptions) write(entries []store.Entry) error {
	switch {
	case o.json:
		items := make([]service.ListItem, 0, len(entries))
		for _, e := range entries {
			items = append(items, service.ListItemOf(e))
		}
		return service.WriteJSON(o.app.stdout, items, "  ")
	case o.long:
		return render.WriteLong(o.app.stdout, entries)
	default:
		for _, e := range entries {
			if _, err := fmt.Fprintln(o.app.stdout, e.Key()); err != nil {
				return err
			}
		}
		return nil
	}
}

// page prints one page of the list through the service, and on stderr how
// to get the next.
func (o *lsOptions) page(ctx context.Context, category string) error {
	return o.app.withMemory(ctx, mustExist, nil, func(m *service.Memory) error {
		p, err := m.List(ctx, service.ListRequest{Category: category, Limit: o.limit, Cursor: o.cursor})
		if err != nil {
			return err
		}
		w := o.app.stdout
		switch {
		case o.json:
			err = service.WriteJSON(w, p.Entries, "  ")
		default:
			err = render.WriteItems(w, p.Entries, o.long)
		}
		if err != nil {
			return err
		}
		if p.NextCursor != "" {
			fmt.Fprintf(o.app.stderr, "%d of %d shown; next page: --cursor %s\n", len(p.Entries), p.Total, p.NextCursor)
		}
		if p.Skipped > 0 {
			return fmt.Errorf("ls: %s could not be read", plural(p.Skipped, "entry", "entries"))
		}
		return nil
	})
}
