package main

import (
	"github.com/spf13/cobra"

	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/service"
)

type categoriesOptions struct {
	app  *app
	json bool
}

func newCategoriesCmd(a *app) *cobra.Command {
	o := &categoriesOptions{app: a}
	cmd := documented(&cobra.Command{
		Use:  "categories",
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			return a.withMemory(ctx, mustExist, nil, func(m *service.Memory) error {
				cats, err := m.Categories(ctx)
				if err != nil {
					return err
				}
				if o.json {
					return service.WriteJSON(a.stdout, cats, "  ")
				}
				return render.WriteCategories(a.stdout, cats)
			})
		},
	})
	cmd.Flags().BoolVar(&o.json, "json", false, "print a JSON array")
	return cmd
}
