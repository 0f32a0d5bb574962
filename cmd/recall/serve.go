package main

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
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
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the memory over an HTTP JSON API and MCP (Streamable HTTP)",
		Long: `Serve answers HTTP requests on --addr (default ` + defaultServeAddr + `, loopback only):

  POST   /v1/retrieve                   {"query": "...", "limit": 10, "budget_tokens": 800,
                                         "expand_links": true, "explain": false,
                                         "categories": ["..."], "tags": ["..."], "min_score": 0.3}
                                        → the same JSON object as 'recall retrieve --json'
  PUT    /v1/entries/CATEGORY/NAME      {"content": "...", "tags": ["..."]} → 201 added, 200 updated
                                        (If-None-Match: * → 412 when it exists, nothing written)
  POST   /v1/entries/CATEGORY/NAME/append  {"text": "..."}                  → 200
  POST   /v1/entries/CATEGORY/NAME/edit    {"old_text": "...", "new_text": "..."} → 200, 422 when
                                        old_text is absent or occurs more than once
  GET    /v1/entries/CATEGORY/NAME      → the entry, as 'recall get --json' prints it
  DELETE /v1/entries/CATEGORY/NAME      → 204
  GET    /v1/entries[?category=C&limit=N&cursor=X]
                                        → one page (default 200, at most 10000) as 'recall ls
                                        --json' prints it; X-Total-Count, and X-Next-Cursor and
                                        Link rel="next" when there is more
  GET    /v1/categories                 → [{"category": "...", "count": N}, ...]
  GET    /v1/backup[?format=jsonl]      → a backup of the live store: a bolt store's consistent
                                        snapshot (a .db file), else (or with format=jsonl)
                                        every entry as JSONL; see 'recall backup --help'
  GET    /healthz                       → {"status": "ok", "revision": N, "indexed": true,
                                         "unreadable": N}, 503 when the store is unavailable
  GET    /v1/links/CATEGORY/NAME        → the entry's links (resolved or not) and backlinks
  POST   /mcp                           MCP Streamable HTTP (stateless): the tools of 'recall mcp'
                                        for hosts that connect by URL; same token and checks
  GET    /                              → a web page over all of the above

Only query is required; budget_tokens 0 means no budget. PUT is an upsert: an
update keeps the entry's metadata, and its tags unless "tags" is given.
Categories and names in paths are URL-escaped (projects/harbor is projects%2Fharbor). Bodies must be JSON sent as
Content-Type: application/json, at most 4 MiB; a query at most 8192 bytes and
256 distinct terms. Errors are JSON objects, {"error": "...", "field": "..."},
with status 400 (bad JSON, unknown field, invalid name or value), 401 (token),
403 (Host or Origin), 404, 405, 413 (body too large), 415 (not JSON), 422 or 503.
A client has 30 s to read an answer once it is ready (then it is cut off), and
large answers (1 MiB or more) being sent at once are held to 64 MiB: one more
gets 503 with Retry-After, so clients that never read cannot pin memory.

Binding anything but a loopback address requires a bearer token (--token, else
$RECALL_TOKEN): clients send "Authorization: Bearer TOKEN". With a token set,
every endpoint but /healthz requires it. Without a token, only requests whose
Host is a loopback name or address (or a host given with --allow-host) and
that carry no Origin of another site are answered: a web page cannot reach the
memory through DNS rebinding or a cross-site form. A page on localhost but
another port (a dev server) is another site: allow it with --allow-origin.

Several memories: --memory NAME=STORE (repeat; STORE a folder, a .db file or a
postgres:// URL, ?schema=NAME for one schema each) serves each at
/v1/m/NAME/... (every route above, /healthz too, with the token) and at
/mcp/NAME. --memory-token NAME=@FILE (a file of tokens, one a line) or
NAME=env:VAR gives a memory its tokens; --memories FILE reads memories from a
YAML or JSON file (name, store, tokens: @FILE or env:VAR sources; see
the README); --token or $RECALL_TOKEN is then the
admin token, which reaches every memory. Another memory's token gets 404, as
a memory that does not exist. /v1/..., /mcp and /healthz serve the memory
--default-memory names, else they are 404 (/healthz: {"status":"ok"}). A
memory is opened by its first request; --idle-close 10m closes one unused for
10 minutes (freeing its index; the next request opens it again).

The store must exist (a typo in --store is an error, not a new empty memory);
--create makes a missing one, as add does.

A folder store is watched: edits made by the CLI, an editor or git are visible
to the next retrieve within about a second. A bolt store is held by the server
while it runs; other recall commands on it fail with "locked": send them here.
SIGINT or SIGTERM stops the server gracefully: requests in flight finish (for
up to 10 s), and every write that was answered is on disk.`,
		Example: `  recall --store ~/memory serve
  curl -s localhost:7411/v1/retrieve -H 'Content-Type: application/json' -d '{"query": "想去海边玩"}'
  curl -s -X PUT localhost:7411/v1/entries/preferences/coffee -H 'Content-Type: application/json' -d '{"content": "Flat white, no sugar."}'
  RECALL_TOKEN=s3cret recall serve --addr 0.0.0.0:7411
  recall serve --memory alice=~/alice.db --memory-token alice=@alice.token --memory bob=~/bob --memory-token bob=@bob.token`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.engine.validate(cmd, a); err != nil {
				return err
			}
			if !cmd.Flags().Changed("token") {
				o.token = a.getenv("RECALL_TOKEN")
			}
			if o.token != strings.TrimSpace(o.token) || (o.token == "" && cmd.Flags().Changed("token")) {
				return usagef(cmd, "the token (--token or $RECALL_TOKEN) is empty or has surrounding whitespace, which no client could send back")
			}
			host, _, err := net.SplitHostPort(o.addr)
			if err != nil {
				return usagef(cmd, "--addr %q is not a HOST:PORT address (for example 127.0.0.1:7411 or :7411): %v", o.addr, strings.TrimPrefix(err.Error(), "address "+o.addr+": "))
			}
			if !httpapi.IsLoopback(host) && o.token == "" && len(o.memoryTokens) == 0 && o.memoriesFile == "" {
				return usagef(cmd, "--addr %s is not a loopback address: set a bearer token with --token or $RECALL_TOKEN", o.addr)
			}
			for _, h := range o.allowHosts {
				if h == "" || strings.ContainsAny(h, "/: ") {
					return usagef(cmd, "--allow-host %q: give a host name without scheme or port, e.g. recall.lan", h)
				}
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
	}
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
