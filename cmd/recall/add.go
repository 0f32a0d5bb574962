package main

import (
	"github.com/spf13/cobra"

	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/setup"
)

type addOptions struct {
	app *app

	src contentSource
	s   setup.Add
}

func newAddCmd(a *app) *cobra.Command {
	o := &addOptions{app: a, src: contentSource{fileUsage: "read the content from file `F` (- for stdin)",
		// Most likely a script with stdin at /dev/null, not a wish to
		// store nothing; --content "" says that explicitly.
		emptyStdin: `no content: stdin is empty (use --content "" for an empty entry)`}}
	cmd := documented(&cobra.Command{
		Use:  "add CATEGORY NAME",
		Args: exactArgs("CATEGORY", "NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.s.Category, o.s.Name, o.s.TagsGiven = args[0], args[1], cmd.Flags().Changed("tag")
			return o.run(cmd)
		},
	})
	f := cmd.Flags()
	o.src.register(cmd, "content", "the content `TEXT`")
	f.StringArrayVarP(&o.s.Tags, "tag", "t", nil, "a tag (repeat for several); replaces the entry's tags")
	f.StringVar(&o.s.Date, "date", "", "when it happened: `DATE` 2024-05-03 or an RFC 3339 time")
	f.StringArrayVar(&o.s.Supersedes, "supersedes", nil, "an entry this one replaces: `LINK` such as places:Paris flat (repeat for several)")
	f.StringVar(&o.s.Expires, "expires", "", "when it stops being a hit: `DATE` 2026-07-01 or an RFC 3339 time")
	return cmd
}

func (o *addOptions) run(cmd *cobra.Command) error {
	ctx := cmd.Context()
	// Everything is checked before the store is opened, so a mistake
	// neither creates a store nor writes anything.
	if err := o.s.Check(); err != nil {
		return err
	}
	content, err := o.src.read(cmd, o.app, "content")
	if err != nil {
		return err
	}
	req, err := o.s.Request(content)
	if err != nil {
		return err
	}
	return o.app.withMemory(ctx, create, nil, func(m *service.Memory) error {
		c, err := m.Add(ctx, req)
		if err != nil {
			return err
		}
		render.WriteChange(o.app.stderr, c)
		return nil
	})
}
