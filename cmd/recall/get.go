package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/progress"
	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/setup"
)

type getOptions struct {
	app  *app
	json bool
}

func newGetCmd(a *app) *cobra.Command {
	o := &getOptions{app: a}
	cmd := documented(&cobra.Command{
		Use:  "get CATEGORY NAME",
		Args: exactArgs("CATEGORY", "NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd, args[0], args[1])
		},
	})
	cmd.Flags().BoolVar(&o.json, "json", false, "print the entry and its metadata as JSON")
	return cmd
}

func (o *getOptions) run(cmd *cobra.Command, category, name string) error {
	ctx := cmd.Context()
	return setup.ByName(category, name, func() error { return o.withMemory(ctx, category, name) })
}

func (o *getOptions) withMemory(ctx context.Context, category, name string) error {
	return o.app.withMemory(ctx, mustExist, nil, func(m *service.Memory) error {
		e, err := m.Get(ctx, category, name)
		if err != nil {
			return err
		}
		if o.json {
			return service.WriteJSON(o.app.stdout, service.EntryFor(e), "")
		}
		return render.WriteContent(o.app.stdout, e.Content, progress.IsTerminal(o.app.stdout))
	})
}
