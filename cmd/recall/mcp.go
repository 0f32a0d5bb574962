package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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

	srv := mcptools.NewServer(m, mcptools.Options{
		Logger: slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	// Start only launches the background work (the index is built on its
	// own goroutine), so the handshake is answered at once. Clients of
	// newer protocol versions send no "initialized" notification to wait
	// for.
	if err := m.Start(ctx); err != nil {
		return err
	}
	err = srv.Run(ctx, mcptools.StdioTransport(a.stdin, a.stdout, logger))
	if ctx.Err() != nil || err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil // the host hung up or stopped us: a normal end
	}
	return fmt.Errorf("mcp: %w", err)
}
