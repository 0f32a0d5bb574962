// Package server runs what `recall serve` runs: one memory, or several
// (service/tenants), over HTTP on a listener until a context is done,
// then shuts down and closes what it opened; and what `recall mcp` runs
// (ServeStdio). The HTTP JSON API
// (service/httpapi), MCP over Streamable HTTP at /mcp (service/mcptools)
// and, for one memory, the web page (package web) are served behind the
// same token, Host and Origin checks.
//
// A Go program that wants recall's server over its own store builds a
// service.Memory (package setup) and calls Serve:
//
//	err := server.Serve(ctx, m, server.Options{Addr: "127.0.0.1:7411", Desc: "my store", Log: os.Stderr})
//
// Serve and ServeMemories return when ctx is done (nil after a clean
// shutdown), or with the error that stopped them; they close the
// listener either way.
package server

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	"github.com/recallhq/recall/service/mcptools"
	"github.com/recallhq/recall/service/tenants"
	"github.com/recallhq/recall/web"
)

// Options are the settings Serve and ServeMemories share.
type Options struct {
	// Addr is the HOST:PORT to listen on (port 0 picks a free one), once
	// everything else is set up; Listener, when set, is served instead.
	Addr     string
	Listener net.Listener
	// Token, when set, is the bearer token every request needs (for
	// ServeMemories: an admin token, granting every memory).
	Token string
	// AllowHosts and AllowOrigins are httpapi.Options'.
	AllowHosts, AllowOrigins []string
	// Quiet drops the one log line per request.
	Quiet bool
	// Desc names the memory Serve serves in its start-up line (without a
	// password: location.Location.String).
	Desc string
	// Alpha is the fusion weight the web page shows (0: the embedder's
	// default).
	Alpha float64
	// Log gets the start-up, request and shutdown lines, each prefixed
	// "recall serve: ", and the MCP servers' warnings; nil discards them.
	Log io.Writer
}

func (o Options) loggers() (logger, reqLog *log.Logger, mcp mcptools.Options) {
	w := o.Log
	if w == nil {
		w = io.Discard
	}
	logger = log.New(w, "recall serve: ", 0)
	if !o.Quiet {
		reqLog = logger
	}
	mcp.Logger = slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
	return logger, reqLog, mcp
}

func (o Options) listen() (net.Listener, error) {
	if o.Listener != nil {
		return o.Listener, nil
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	return ln, nil
}

// Serve serves m until ctx is done: the HTTP API, its links route
// for the page, MCP at /mcp, and the web page at /. It starts m (its
// background work), and closes m and then its store when it returns, so
// that a bolt file's lock is released for the next process.
func Serve(ctx context.Context, m *service.Memory, o Options) error {
	logger, reqLog, mcpOpts := o.loggers()
	st := m.Store()
	defer st.Close() // a second Close after the one below only fails quietly
	h, err := httpapi.New(m, httpapi.Options{Token: o.Token, AllowHosts: o.AllowHosts, AllowOrigins: o.AllowOrigins, Log: reqLog})
	if err != nil {
		return err
	}
	h.Handle("GET /v1/links/{category}/{name}", web.Links(m.Engine())) // for the page, behind the API's checks
	h.Handle("/mcp", mcptools.NewHTTPHandler(m, mcpOpts))
	ln, err := o.listen()
	if err != nil {
		return err
	}
	page := web.Page(h, web.Options{Embedder: m.EmbeddingModel(), Alpha: o.Alpha})
	logger.Printf("listening on http://%s, serving %s", ln.Addr(), o.Desc)
	if err := m.Start(ctx); err != nil {
		ln.Close()
		return err
	}
	defer m.Close()

	if err := httpapi.Serve(ctx, ln, page, logger); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	m.Close()
	// Every answered write is already durable (each Put syncs before it
	// returns); closing releases a bolt file's lock for the next process.
	if err := st.Close(); err != nil {
		return fmt.Errorf("close store: %w", err)
	}
	logger.Printf("stopped")
	return nil
}

// ServeMemories serves several memories (a tenants.Server over t, with
// o's token as one more admin token and o's checks and logs) until ctx is
// done, then closes every memory it opened. Off loopback it refuses to
// serve memories none of which has a token when o has none either (the
// message names recall serve's flags, as httpapi.CheckListen's do).
func ServeMemories(ctx context.Context, t tenants.Options, o Options) error {
	addr := o.Addr
	if o.Listener != nil {
		addr = o.Listener.Addr().String()
	}
	if host, _, _ := net.SplitHostPort(addr); !httpapi.IsLoopback(host) && o.Token == "" &&
		!(tenants.Config{Memories: t.Memories, AdminTokens: t.AdminTokens}).HasTokens() {
		return fmt.Errorf("--addr %s is not a loopback address: give the memories tokens (in the --memories file, or --memory-token), or an admin token with --token or $RECALL_TOKEN", addr)
	}
	logger, reqLog, mcpOpts := o.loggers()
	t.Log, t.RequestLog, t.MCP = logger, reqLog, mcpOpts
	t.AllowHosts, t.AllowOrigins = o.AllowHosts, o.AllowOrigins
	if o.Token != "" {
		t.AdminTokens = append(t.AdminTokens, o.Token)
	}
	s, err := tenants.New(t)
	if err != nil {
		return err
	}
	defer s.Close()
	ln, err := o.listen()
	if err != nil {
		return err
	}
	logger.Printf("listening on http://%s, serving %d memories at /v1/m/NAME/ and /mcp/NAME", ln.Addr(), len(t.Memories))
	if err := httpapi.Serve(ctx, ln, s, logger); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if err := s.Close(); err != nil {
		return err
	}
	logger.Printf("stopped")
	return nil
}
