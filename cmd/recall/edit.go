package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

type editOptions struct {
	app *app
	old string
	new string
}

func newEditCmd(a *app) *cobra.Command {
	o := &editOptions{app: a}
	cmd := documented(&cobra.Command{
		Use:  "edit CATEGORY NAME --old TEXT --new TEXT",
		Args: exactArgs("CATEGORY", "NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if err := store.ValidateKey(store.CategoryKey(args[0]), store.NameKey(args[1])); err != nil { // a name as written is mapped (SPEC §1)
				return err
			}
			if o.old == "" {
				return usagef(cmd, "--old must give the text to replace")
			}
			if !cmd.Flags().Changed("new") {
				return usagef(cmd, "--new must give the replacement (--new \"\" deletes the text)")
			}
			return a.withMemory(ctx, mustExist, nil, func(m *service.Memory) error {
				c, err := m.Edit(ctx, args[0], args[1], o.old, o.new)
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stderr, "edited %s\n", store.Key{Category: c.Category, Name: c.Name})
				return nil
			})
		},
	})
	cmd.Flags().StringVar(&o.old, "old", "", "the exact `TEXT` to replace; it must occur once")
	cmd.Flags().StringVar(&o.new, "new", "", "the replacement `TEXT`")
	return cmd
}
