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
	"time"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	"github.com/recallhq/recall/service/mcptools"
	"github.com/recallhq/recall/service/tenants"
	"github.com/recallhq/recall/store"
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

	memories      []string // NAME=STORE: several memories (service/tenants)
	memoriesFile  string
	memoryTokens  []string // NAME=@FILE or NAME=env:VAR
	defaultMemory string
	idleClose     time.Duration
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
			if err := httpapi.CheckListen(o.addr, o.token, cmd.Flags().Changed("token"), len(o.memoryTokens) > 0 || o.memoriesFile != "", o.allowHosts); err != nil {
				return usagef(cmd, "%v", err)
			}
			if len(o.memories) > 0 || o.memoriesFile != "" {
				if cmd.Flags().Changed("store") {
					return usagef(cmd, "--store and --memory (or --memories) do not go together: give every memory with --memory NAME=STORE or in the --memories file (and --default-memory NAME for the /v1 and /mcp routes)")
				}
				return o.runMemories(cmd.Context())
			}
			for _, fl := range []string{"memory-token", "default-memory", "idle-close"} {
				if cmd.Flags().Changed(fl) {
					return usagef(cmd, "--%s needs --memory NAME=STORE (it is for serving several memories)", fl)
				}
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
	f.StringArrayVar(&o.memories, "memory", nil, "serve the store `NAME=STORE` as memory NAME at /v1/m/NAME/... and /mcp/NAME (repeat for several; --token is then the admin token, for all)")
	f.StringVar(&o.memoriesFile, "memories", "", "serve the memories `FILE` lists (YAML or JSON: name, store and token sources of each; see service/tenants.ReadConfig)")
	f.StringArrayVar(&o.memoryTokens, "memory-token", nil, "memory NAME's tokens: `NAME=@FILE` (one a line) or NAME=env:VAR (repeat for several)")
	f.StringVar(&o.defaultMemory, "default-memory", "", "with --memory, also serve memory `NAME` at /v1/..., /mcp and /healthz (else those are 404)")
	f.DurationVar(&o.idleClose, "idle-close", 0, "with --memory, close a memory unused for `DURATION` (0: keep it open once opened)")
	o.engine.register(cmd)
	return cmd
}

// runMemories serves several memories (service/tenants).
func (o *serveOptions) runMemories(ctx context.Context) error {
	a := o.app
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger := log.New(a.stderr, "recall serve: ", 0)
	cfg, err := tenants.Flags{File: o.memoriesFile, Memories: o.memories, Tokens: o.memoryTokens, Default: o.defaultMemory}.Config(a.getenv)
	if err != nil {
		return err
	}
	if host, _, _ := net.SplitHostPort(o.addr); !httpapi.IsLoopback(host) && o.token == "" && !cfg.HasTokens() {
		return fmt.Errorf("--addr %s is not a loopback address: give the memories tokens (in the --memories file, or --memory-token), or an admin token with --token or $RECALL_TOKEN", o.addr)
	}
	opts := tenants.Options{Memories: cfg.Memories, Default: cfg.Default, AdminTokens: cfg.AdminTokens, Create: o.create, IdleClose: o.idleClose,
		CacheDir: a.getenv("RECALL_CACHE_DIR"), CacheInFolder: a.cacheInFolder,
		AllowHosts: o.allowHosts, AllowOrigins: o.allowOrigs, Log: logger, RequestLog: logger,
		MCP: mcptools.Options{Logger: slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))},
		Open: func(name string, st store.Store) (*service.Memory, error) {
			return a.newMemory(st, &o.engine, log.New(a.stderr, "recall serve: "+name+": ", 0))
		}}
	if o.token != "" {
		opts.AdminTokens = append(opts.AdminTokens, o.token)
	}
	if o.quiet {
		opts.RequestLog = nil
	}
	s, err := tenants.New(opts)
	if err != nil {
		return err
	}
	defer s.Close()
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Printf("listening on http://%s, serving %d memories at /v1/m/NAME/ and /mcp/NAME", ln.Addr(), len(cfg.Memories))
	if err := httpapi.Serve(ctx, ln, s, logger); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if err := s.Close(); err != nil {
		return err
	}
	logger.Printf("stopped")
	return nil
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
