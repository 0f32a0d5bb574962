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
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the memory to an agent host over MCP (stdio)",
		Long: `Mcp runs a Model Context Protocol server on stdin and stdout, for agent hosts
(Claude Desktop, IDE agents, any MCP client) that start it as a subprocess. It
offers the tools retrieve, add, append, edit, get, delete, list and categories,
the prompt "recall" (the memory for a message, as context) and the resources
recall:// (categories), recall://{category} and recall://{category}/{name}.
Stdout carries nothing but the protocol; diagnostics go to stderr.

It starts at once: the index is built in the background while the handshake runs,
and a CJK dictionary or an embedding model is only touched when first needed.
A folder store is watched, so edits made meanwhile by the CLI, an editor or git
are visible to the next retrieve. A bolt store is held by this process for as
long as it runs: other recall commands on it fail with "locked".

The store must exist (a typo in --store is an error, not a new empty memory);
--create makes a missing one, as add does.

A bad frame never ends the server: invalid JSON is answered with a JSON-RPC
error -32700, a batch, a wrong or missing "jsonrpc", an id that is not a
string or number (or a number out of range), nesting over 1000 levels, or a
line over 4 MiB + 64 KiB with -32600, and the next frame is served.

A host's configuration names the command, for example:

  {"mcpServers": {"recall": {"command": "recall", "args": ["--store", "/path/to/memory", "mcp"]}}}`,
		Example: `  recall --store ~/memory mcp
  recall --store ~/memory.db mcp --segmenter auto`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.engine.validate(cmd, a); err != nil {
				return err
			}
			return o.run(cmd.Context())
		},
	}
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
