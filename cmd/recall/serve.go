package main

import (
	"context"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	"github.com/recallhq/recall/service/server"
	"github.com/recallhq/recall/service/tenants"
	"github.com/recallhq/recall/store"
)

const defaultServeAddr = "127.0.0.1:7411"

type serveOptions struct {
	app    *app
	engine engineFlags
	s      server.Options
	create bool

	mem tenants.Flags // several memories (service/tenants)
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
				o.s.Token = a.getenv("RECALL_TOKEN")
			}
			if err := httpapi.CheckListen(o.s.Addr, o.s.Token, cmd.Flags().Changed("token"), len(o.mem.Tokens) > 0 || o.mem.File != "", o.s.AllowHosts); err != nil {
				return usagef(cmd, "%v", err)
			}
			if err := o.mem.Check(cmd.Flags().Changed("store"), cmd.Flags().Changed); err != nil {
				return usagef(cmd, "%v", err)
			}
			if o.mem.Several() {
				return o.runMemories(cmd.Context())
			}
			return o.run(cmd.Context())
		},
	})
	f := cmd.Flags()
	f.StringVar(&o.s.Addr, "addr", defaultServeAddr, "listen on `HOST:PORT` (port 0 picks a free one)")
	f.StringVar(&o.s.Token, "token", "", "require this bearer `TOKEN` (default $RECALL_TOKEN); needed off loopback")
	f.StringArrayVar(&o.s.AllowHosts, "allow-host", nil, "also answer requests whose Host (or Origin) is `NAME` when there is no token (repeat for several)")
	f.StringArrayVar(&o.s.AllowOrigins, "allow-origin", nil, "also answer requests from web pages of `ORIGIN` (http://localhost:3000) when there is no token (repeat for several)")
	f.BoolVarP(&o.s.Quiet, "quiet", "q", false, "do not log one line per request on stderr")
	f.BoolVar(&o.create, "create", false, "create the store when it does not exist (without it, a missing store is an error, as for read commands)")
	f.StringArrayVar(&o.mem.Memories, "memory", nil, "serve the store `NAME=STORE` as memory NAME at /v1/m/NAME/... and /mcp/NAME (repeat for several; --token is then the admin token, for all)")
	f.StringVar(&o.mem.File, "memories", "", "serve the memories `FILE` lists (YAML or JSON: name, store and token sources of each; see service/tenants.ReadConfig)")
	f.StringArrayVar(&o.mem.Tokens, "memory-token", nil, "memory NAME's tokens: `NAME=@FILE` (one a line) or NAME=env:VAR (repeat for several)")
	f.StringVar(&o.mem.Default, "default-memory", "", "with --memory, also serve memory `NAME` at /v1/..., /mcp and /healthz (else those are 404)")
	f.DurationVar(&o.mem.IdleClose, "idle-close", 0, "with --memory, close a memory unused for `DURATION` (0: keep it open once opened)")
	o.engine.register(cmd)
	return cmd
}

// runMemories serves several memories (service/tenants).
func (o *serveOptions) runMemories(ctx context.Context) error {
	a := o.app
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := o.mem.Config(a.getenv)
	if err != nil {
		return err
	}
	defer server.SyncHeadroom(a.getenv)()
	return server.ServeMemories(ctx, tenants.Options{Memories: cfg.Memories, Default: cfg.Default, AdminTokens: cfg.AdminTokens, Create: o.create, IdleClose: o.mem.IdleClose,
		CacheDir: a.getenv("RECALL_CACHE_DIR"), CacheInFolder: a.cacheInFolder,
		Open: func(name string, st store.Store) (*service.Memory, error) {
			return a.newMemory(st, &o.engine, log.New(a.stderr, "recall serve: "+name+": ", 0))
		}}, o.options(""))
}

// options are the flags as the server's settings, logging on stderr.
func (o *serveOptions) options(desc string) server.Options {
	s := o.s
	s.Desc, s.Alpha, s.Log = desc, o.engine.embedder.alpha, o.app.stderr
	return s
}

func (o *serveOptions) run(ctx context.Context) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	m, desc, err := o.app.openMemory(&o.engine, log.New(o.app.stderr, "recall serve: ", 0), o.create)
	if err != nil {
		return err
	}
	defer server.SyncHeadroom(o.app.getenv)()
	return server.Serve(ctx, m, o.options(desc))
}
