package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

type appendOptions struct {
	app *app
	src contentSource
}

func newAppendCmd(a *app) *cobra.Command {
	o := &appendOptions{app: a}
	cmd := documented(&cobra.Command{
		Use:  "append CATEGORY NAME",
		Args: exactArgs("CATEGORY", "NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if err := store.ValidateKey(store.CategoryKey(args[0]), store.NameKey(args[1])); err != nil { // a name as written is mapped (SPEC §1)
				return err
			}
			text, err := o.src.read(cmd, a, "text")
			if err != nil {
				return err
			}
			return a.withMemory(ctx, mustExist, nil, func(m *service.Memory) error {
				c, err := m.Append(ctx, args[0], args[1], text)
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stderr, "appended to %s\n", store.Key{Category: c.Category, Name: c.Name})
				return nil
			})
		},
	})
	o.src.register(cmd, "text", "the `TEXT` to append")
	return cmd
}
