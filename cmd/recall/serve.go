package main

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/service/httpapi"
	"github.com/recallhq/recall/service/mcptools"
	"github.com/recallhq/recall/web"
)

const defaultServeAddr = "127.0.0.1:7411"

type serveOptions struct {
	app        *app
	engine     engineFlags
	addr       string
	token      string
	allowHosts []string
	allowOrigs []string
	quiet      bool
	create     bool
}

func newServeCmd(a *app) *cobra.Command {
	o := &serveOptions{app: a}
	cmd := documented(&cobra.Command{
		Use:  "serve",
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.engine.config(a).Check(); err != nil {
				return err
			}
			if !cmd.Flags().Changed("token") {
				o.token = a.getenv("RECALL_TOKEN")
			}
			if err := httpapi.CheckListen(o.addr, o.token, cmd.Flags().Changed("token"), o.allowHosts); err != nil {
				return usagef(cmd, "%v", err)
			}
			return o.run(cmd.Context())
		},
	})
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", defaultServeAddr, "listen on `HOST:PORT` (port 0 picks a free one)")
	f.StringVar(&o.token, "token", "", "require this bearer `TOKEN` (default $RECALL_TOKEN); needed off loopback")
	f.StringArrayVar(&o.allowHosts, "allow-host", nil, "also answer requests whose Host (or Origin) is `NAME` when there is no token (repeat for several)")
	f.StringArrayVar(&o.allowOrigs, "allow-origin", nil, "also answer requests from web pages of `ORIGIN` (http://localhost:3000) when there is no token (repeat for several)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "do not log one line per request on stderr")
	f.BoolVar(&o.create, "create", false, "create the store when it does not exist (without it, a missing store is an error, as for read commands)")
	o.engine.register(cmd)
	return cmd
}

func (o *serveOptions) run(ctx context.Context) error {
	a := o.app
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	logger := log.New(a.stderr, "recall serve: ", 0)
	m, desc, err := a.openMemory(&o.engine, logger, o.create)
	if err != nil {
		return err
	}
	st := m.Store()
	defer st.Close() // a second Close after the one below only fails quietly
	reqLog := logger
	if o.quiet {
		reqLog = nil
	}
	h, err := httpapi.New(m, httpapi.Options{Token: o.token, AllowHosts: o.allowHosts, AllowOrigins: o.allowOrigs, Log: reqLog})
	if err != nil {
		return err
	}
	h.Handle("GET /v1/links/{category}/{name}", web.Links(m.Engine())) // for the page, behind the API's checks
	h.Handle("/mcp", mcptools.NewHTTPHandler(m, mcptools.Options{Logger: slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}))
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	page := web.Page(h, web.Options{Embedder: m.EmbeddingModel(), Alpha: o.engine.embedder.alpha})
	logger.Printf("listening on http://%s, serving %s", ln.Addr(), desc)
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
