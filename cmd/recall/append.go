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
	cmd := &cobra.Command{
		Use:   "append CATEGORY NAME",
		Short: "Add text to the end of an existing entry",
		Long: `Append adds text at the end of CATEGORY:NAME's content, with a line break
before it when the content does not end with one. The entry must exist; its
tags and dates are kept. The read and the write are one atomic update, so a
concurrent writer never loses its change.

The text comes from exactly one of --text TEXT, --file F (- for stdin), or
stdin when it is not a terminal.`,
		Example: `  recall append people alice --text "Moved to Lisbon in 2025."
  date | recall append notes log`,
		Args: exactArgs("CATEGORY", "NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if err := store.ValidateKey(args[0], args[1]); err != nil {
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
	}
	o.src.register(cmd, "text", "the `TEXT` to append")
	return cmd
}
