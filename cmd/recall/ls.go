package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/store"
)

type lsOptions struct {
	app  *app
	json bool
	long bool
}

func newLsCmd(a *app) *cobra.Command {
	o := &lsOptions{app: a}
	cmd := &cobra.Command{
		Use:   "ls [CATEGORY]",
		Short: "List entries",
		Long: `Ls prints one category:name per line, sorted by category, then name (byte
order), optionally only those of CATEGORY. --long adds tab-separated columns:
estimated tokens (as retrieve counts them), the updated date, and the tags.
--json prints one array of {category, name, tokens_est, meta}.

Entries the store cannot read (a hand-edited file with broken front matter) are
reported on stderr and left out, and the exit status is then 1 (as ls(1) does).`,
		Example: `  recall ls
  recall ls trips --long`,
		Args: rangeArgs(0, 1, "at most one CATEGORY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			category := ""
			if len(args) == 1 {
				category = args[0]
				if err := store.ValidateName("category", category); err != nil {
					return err
				}
			}
			return o.run(cmd.Context(), category)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "print a JSON array")
	f.BoolVarP(&o.long, "long", "l", false, "add tokens, updated date and tags")
	return cmd
}

type lsItem struct {
	Category  string         `json:"category"`
	Name      string         `json:"name"`
	TokensEst int            `json:"tokens_est"`
	Meta      map[string]any `json:"meta,omitempty"`
}

func (o *lsOptions) run(ctx context.Context, category string) error {
	return o.app.withStore(ctx, mustExist, func(st store.Store) error {
		var (
			entries []store.Entry
			skipped int
		)
		err := eachEntry(ctx, st, func(e store.Entry) {
			if category == "" || e.Category == category {
				entries = append(entries, e)
			}
		}, func(err error) {
			skipped++
			fmt.Fprintf(o.app.stderr, "skipped %s\n", oneLine(err.Error()))
		})
		if err != nil {
			return err
		}
		if err := o.write(entries); err != nil {
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

func (o *lsOptions) write(entries []store.Entry) error {
	slices.SortFunc(entries, func(a, b store.Entry) int {
		return cmp.Or(strings.Compare(a.Category, b.Category), strings.Compare(a.Name, b.Name))
	})
	switch {
	case o.json:
		items := make([]lsItem, 0, len(entries))
		for _, e := range entries {
			items = append(items, lsItem{e.Category, e.Name, tokensEst(e), metaObject(e.Meta)})
		}
		return writeJSON(o.app.stdout, items, "  ")
	case o.long:
		return writeLong(o.app.stdout, entries)
	default:
		for _, e := range entries {
			if _, err := fmt.Fprintln(o.app.stdout, e.Key()); err != nil {
				return err
			}
		}
		return nil
	}
}

func writeLong(w io.Writer, entries []store.Entry) error {
	for _, e := range entries {
		updated := "-"
		if !e.Meta.Updated.IsZero() {
			updated = e.Meta.Updated.UTC().Format(time.DateOnly)
		}
		tags := strings.Join(e.Meta.Tags, ",")
		if tags == "" {
			tags = "-"
		}
		if _, err := fmt.Fprintf(w, "%s\t%d tokens\t%s\t%s\n", e.Key(), tokensEst(e), updated, tags); err != nil {
			return err
		}
	}
	return nil
}

// tokensEst is the estimate retrieve charges against the budget for e.
func tokensEst(e store.Entry) int { return index.EstTokens(e.Name + "\n" + e.Content) }

// eachEntry walks the store, passing entries to fn and unreadable ones to
// skip. Only a failure of the walk as a whole (a cancelled context, a
// closed store) ends it with an error.
func eachEntry(ctx context.Context, st store.Store, fn func(store.Entry), skip func(error)) error {
	for e, err := range st.All(ctx) {
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, store.ErrClosed) {
				return err
			}
			skip(err)
			continue
		}
		fn(e)
	}
	return ctx.Err()
}
