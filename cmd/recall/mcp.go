package main

import (
	"context"
	"errors"
	"log"
	"log/slog"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/service/mcptools"
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

	logger := log.New(a.stderr, "recall mcp: ", 0)
	m, desc, err := a.openMemory(&o.engine, logger, o.create)
	if err != nil {
		return err
	}
	defer m.Store().Close()
	defer m.Close()
	logger.Printf("serving %s over stdio", desc)
	return mcptools.ServeStdio(ctx, m, a.stdin, a.stdout, mcptools.Options{
		Logger: slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}, logger)
}
