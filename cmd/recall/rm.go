package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/setup"
	"github.com/recallhq/recall/store"
)

type rmOptions struct {
	app *app
}

func newRmCmd(a *app) *cobra.Command {
	o := &rmOptions{app: a}
	return documented(&cobra.Command{
		Use:  "rm CATEGORY NAME",
		Args: exactArgs("CATEGORY", "NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd, args[0], args[1])
		},
	})
}

func (o *rmOptions) run(cmd *cobra.Command, category, name string) error {
	ctx := cmd.Context()
	return setup.ByName(category, name, func() error {
		return o.app.withMemory(ctx, mustExist, nil, func(m *service.Memory) error {
			if _, err := m.Delete(ctx, category, name); err != nil {
				return err
			}
			fmt.Fprintf(o.app.stderr, "removed %s\n", store.Key{Category: category, Name: name})
			return nil
		})
	})
}
