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
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the memory over an HTTP JSON API",
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
  RECALL_TOKEN=s3cret recall serve --addr 0.0.0.0:7411`,
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
			if !httpapi.IsLoopback(host) && o.token == "" {
				return usagef(cmd, "--addr %s is not a loopback address: set a bearer token with --token or $RECALL_TOKEN", o.addr)
			}
			for _, h := range o.allowHosts {
				if h == "" || strings.ContainsAny(h, "/: ") {
					return usagef(cmd, "--allow-host %q: give a host name without scheme or port, e.g. recall.lan", h)
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
