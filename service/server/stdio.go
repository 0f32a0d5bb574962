package server

import (
	"context"
	"io"
	"log"
	"log/slog"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/mcptools"
)

// ServeStdio serves m over MCP to one agent host on in and out, as
// `recall mcp` does (mcptools.ServeStdio), until the host hangs up or ctx
// is done; then it closes m and its store. logw (nil: discarded) gets the
// start-up line, naming the memory by desc, with bad frames and the MCP
// server's warnings.
func ServeStdio(ctx context.Context, m *service.Memory, desc string, in io.Reader, out io.Writer, logw io.Writer) error {
	if logw == nil {
		logw = io.Discard
	}
	logger := log.New(logw, "recall mcp: ", 0)
	defer m.Store().Close()
	defer m.Close()
	logger.Printf("serving %s over stdio", desc)
	return mcptools.ServeStdio(ctx, m, in, out, mcptools.Options{
		Logger: slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}, logger)
}
