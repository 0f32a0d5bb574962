package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/store"
)

type getOptions struct {
	app  *app
	json bool
}

func newGetCmd(a *app) *cobra.Command {
	o := &getOptions{app: a}
	cmd := &cobra.Command{
		Use:   "get CATEGORY NAME",
		Short: "Print an entry's content",
		Long: `Get prints the content of CATEGORY:NAME to stdout exactly as stored, with
nothing added. --json prints the entry with its metadata as one line of JSON,
the same shape import reads from a .jsonl file.`,
		Example: `  recall get trips 三亚之行
  recall get --json people alice >> backup.jsonl`,
		Args: exactArgs("CATEGORY", "NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd, args[0], args[1])
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print the entry and its metadata as JSON")
	return cmd
}

func (o *getOptions) run(cmd *cobra.Command, category, name string) error {
	ctx := cmd.Context()
	if err := store.ValidateKey(category, name); err != nil {
		return err
	}
	return o.app.withStore(ctx, mustExist, func(st store.Store) error {
		e, err := st.Get(ctx, category, name)
		if errors.Is(err, store.ErrNotFound) {
			return notFound(category, name)
		}
		if err != nil {
			return err
		}
		if o.json {
			return writeJSON(o.app.stdout, entryJSON{
				Category: e.Category, Name: e.Name, Content: e.Content, Meta: metaObject(e.Meta),
			}, "")
		}
		_, err = io.WriteString(o.app.stdout, e.Content)
		return err
	})
}

// notFound is the error of get and rm for a missing entry. The backends'
// own messages carry the operation ("get x:y: entry not found"), which is
// noise on a command line that already says it.
func notFound(category, name string) error {
	return fmt.Errorf("%s: %w", store.Key{Category: category, Name: name}, store.ErrNotFound)
}
