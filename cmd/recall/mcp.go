package main

import (
	"context"
	"errors"
	"log"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/service/server"
)

type mcpOptions struct {
	app    *app
	engine engineFlags
	create bool
}

func newMCPCmd(a *app) *cobra.Command {
	o := &mcpOptions{app: a}
	cmd := documented(&cobra.Command{
		Use:  "mcp",
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.engine.config(a).Check(); err != nil {
				return err
			}
			return o.run(cmd.Context())
		},
	})
	o.engine.register(cmd)
	cmd.Flags().BoolVar(&o.create, "create", false, "create the store when it does not exist (without it, a missing store is an error, as for read commands)")
	return cmd
}

func (o *mcpOptions) run(ctx context.Context) error {
	a := o.app
	if a.stdin == nil {
		return errors.New("mcp: no stdin to read the protocol from")
	}
	// A host stops its server by closing stdin, then with SIGTERM.
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()

	m, desc, err := a.openMemory(&o.engine, log.New(a.stderr, "recall mcp: ", 0), o.create)
	if err != nil {
		return err
	}
	defer server.SyncHeadroom(a.getenv)()
	return server.ServeStdio(ctx, m, desc, a.stdin, a.stdout, a.stderr)
}
