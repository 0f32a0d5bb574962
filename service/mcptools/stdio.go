package mcptools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/service"
)

// ServeStdio serves m to one agent host over in and out (its stdin and
// stdout, as `recall mcp` does): the server NewServer builds, on
// StdioTransport (bad frames logged to logger). It starts m's background
// work first (Memory.Start only launches it, so the handshake is answered
// at once), and returns when the host hangs up (closes in) or ctx ends,
// both normal ends: nil. The caller closes m.
func ServeStdio(ctx context.Context, m *service.Memory, in io.Reader, out io.Writer, opts Options, logger *log.Logger) error {
	if in == nil {
		return errors.New("mcp: no stdin to read the protocol from")
	}
	srv := NewServer(m, opts)
	// Clients of newer protocol versions send no "initialized"
	// notification to wait for.
	if err := m.Start(ctx); err != nil {
		return err
	}
	err := srv.Run(ctx, StdioTransport(in, out, logger))
	if ctx.Err() != nil || err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil // the host hung up or stopped us
	}
	return fmt.Errorf("mcp: %w", err)
}
