package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/service"
)

type categoriesOptions struct {
	app  *app
	json bool
}

func newCategoriesCmd(a *app) *cobra.Command {
	o := &categoriesOptions{app: a}
	cmd := &cobra.Command{
		Use:   "categories",
		Short: "List the categories with their number of entries",
		Long: `Categories prints one line per category, sorted, with its number of entries
separated by a tab. --json prints [{"category": ..., "count": N}, ...], the
shape of the HTTP API's GET /v1/categories.`,
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
				for _, c := range cats {
					if _, err := fmt.Fprintf(a.stdout, "%s\t%d\n", c.Category, c.Count); err != nil {
						return err
					}
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print a JSON array")
	return cmd
}
