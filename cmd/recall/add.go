package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

type addOptions struct {
	app *app

	src        contentSource
	tags       []string
	tagsSet    bool
	date       string
	supersedes []string
	expires    string
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
			o.tagsSet = cmd.Flags().Changed("tag")
			return o.run(cmd, args[0], args[1])
		},
	})
	f := cmd.Flags()
	o.src.register(cmd, "content", "the content `TEXT`")
	f.StringArrayVarP(&o.tags, "tag", "t", nil, "a tag (repeat for several); replaces the entry's tags")
	f.StringVar(&o.date, "date", "", "when it happened: `DATE` 2024-05-03 or an RFC 3339 time")
	f.StringArrayVar(&o.supersedes, "supersedes", nil, "an entry this one replaces: `LINK` such as places:Paris flat (repeat for several)")
	f.StringVar(&o.expires, "expires", "", "when it stops being a hit: `DATE` 2026-07-01 or an RFC 3339 time")
	return cmd
}

func (o *addOptions) run(cmd *cobra.Command, category, name string) error {
	ctx := cmd.Context()
	// Everything is checked before the store is opened, so a mistake
	// neither creates a store nor writes anything.
	if err := store.ValidateKey(category, name); err != nil {
		return err
	}
	tags, err := store.CleanTags(o.tags)
	if err != nil {
		return err
	}
	content, err := o.src.read(cmd, o.app, "content")
	if err != nil {
		return err
	}
	if err := store.ValidateContent(content); err != nil {
		return err
	}
	req := service.AddRequest{Category: category, Name: name, Content: content}
	if o.date != "" {
		d, err := service.ParseDate("--date", o.date)
		if err != nil {
			return usagef(cmd, "%v", err)
		}
		req.Date = d
	}
	if len(o.supersedes) > 0 {
		req.Supersedes = o.supersedes
	}
	if o.expires != "" {
		t, err := service.ParseExpires("--expires", o.expires)
		if err != nil {
			return usagef(cmd, "%v", err)
		}
		req.Expires = t
	}
	if o.tagsSet {
		req.Tags = tags
		if req.Tags == nil {
			req.Tags = []string{}
		}
	}
	return o.app.withMemory(ctx, create, nil, func(m *service.Memory) error {
		c, err := m.Add(ctx, req)
		if err != nil {
			return err
		}
		fmt.Fprintf(o.app.stderr, "%s %s\n", c.Status, store.Key{Category: c.Category, Name: c.Name})
		return nil
	})
}
