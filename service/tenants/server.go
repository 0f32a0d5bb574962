package tenants

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	"github.com/recallhq/recall/service/mcptools"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/location"
)

// Memory is one named memory a Server holds.
type Memory struct {
	// Name is the memory's name in its URLs (ValidateName).
	Name string
	// Store is its store's location, as store/location parses it: a
	// folder, a .db file or a postgres:// URL (?schema= gives each memory
	// its own schema of one database).
	Store string
	// Tokens are the bearer tokens that grant this memory (and no other).
	Tokens []string
}

// Options configure a Server.
type Options struct {
	// Memories are the memories served, at least one, names and stores
	// distinct.
	Memories []Memory
	// AdminTokens grant every memory.
	AdminTokens []string
	// Default, when set, names the memory also served at the
	// single-memory routes (/v1/..., /healthz, /mcp), with the same
	// tokens. Without it those routes answer 404 (/healthz: the server's
	// own {"status":"ok"}).
	Default string
	// Create makes a memory's store when it does not exist, as the CLI's
	// --create; without it a missing store is an error: from New for a
	// folder or bolt file, from the memory's first request for a
	// PostgreSQL one (New connects to no database).
	Create bool
	// CacheDir and CacheInFolder say where a folder memory keeps its
	// index copy and vector cache, as location.Options' (the CLI's
	// $RECALL_CACHE_DIR and --cache-in-folder): the zero values keep them
	// in the user's cache directory, out of the folder.
	CacheDir      string
	CacheInFolder bool
	// Open builds the service.Memory over a memory's store when it is
	// opened (its engine: analyser, embedder); nil means service.New with
	// the zero service.Options. The Server starts it and, when the memory
	// is closed, closes it and then the store.
	Open func(name string, st store.Store) (*service.Memory, error)
	// IdleClose, when positive, closes a memory that has served no
	// request for that long (its index and vectors freed, a bolt file's
	// lock released); the next request opens it again. Zero keeps every
	// memory open, once opened, until Close.
	IdleClose time.Duration
	// AllowHosts and AllowOrigins are httpapi.Options' (used only when no
	// memory has a token).
	AllowHosts   []string
	AllowOrigins []string
	// MCP configures each memory's MCP server (mcptools.NewHTTPHandler).
	MCP mcptools.Options
	// Log gets diagnostics: memories opened and closed, failures to open;
	// nil discards them.
	Log *log.Logger
	// RequestLog, when set, gets one line per request.
	RequestLog *log.Logger
}

// Server serves several memories over the HTTP JSON API and MCP, each at
// its own paths and with its own tokens (see the package doc). It is safe
// for concurrent use.
type Server struct {
	tenants map[string]*tenant
	def     *tenant // Options.Default's; nil without one
	grants  *grants // nil: no tokens, Host and Origin checks (guard)
	guard   *httpapi.Guard
	pending *httpapi.Pending // one bound on large answers for every memory
	open    func(name string, st store.Store) (*service.Memory, error)
	create  bool
	cache   location.Options // CacheDir and CacheInFolder: where folder memories keep their caches
	idle    time.Duration
	mcpOpts mcptools.Options
	log     *log.Logger
	reqLog  *log.Logger

	ctx    context.Context // lives until Close: the memories' background work
	cancel context.CancelFunc
	group  singleflight.Group // one open per memory at a time
	wg     sync.WaitGroup     // the idle closer

	mu      sync.Mutex
	closed  bool
	opening sync.WaitGroup // opens under way; Added to under mu, only before closed
}

var _ http.Handler = (*Server)(nil)

// ErrClosed is the error of a request to a Server after Close.
var ErrClosed = errors.New("the server is shutting down")

// New checks opts and returns a Server; it opens no memory (each is
// opened by its first request). Every memory needs a token (its own or
// an admin token) once any has one: with none at all, the Server answers
// only loopback clients, as httpapi without a token.
func New(opts Options) (*Server, error) {
	if len(opts.Memories) == 0 {
		return nil, errors.New("no memory to serve (give one or more NAME=STORE)")
	}
	s := &Server{tenants: map[string]*tenant{}, pending: httpapi.NewPending(0), open: opts.Open, create: opts.Create, idle: opts.IdleClose,
		cache:   location.Options{CacheDir: opts.CacheDir, CacheInFolder: opts.CacheInFolder},
		mcpOpts: opts.MCP, log: opts.Log, reqLog: opts.RequestLog}
	if s.log == nil {
		s.log = log.New(discard{}, "", 0)
	}
	if s.open == nil {
		s.open = func(_ string, st store.Store) (*service.Memory, error) {
			return service.New(st, service.Options{}), nil
		}
	}
	g, err := newGrants()
	if err != nil {
		return nil, err
	}
	for _, tok := range opts.AdminTokens {
		if err := g.add("", tok); err != nil {
			return nil, err
		}
	}
	stores := map[string]string{}
	var tokenless []string
	for _, mem := range opts.Memories {
		if err := ValidateName(mem.Name); err != nil {
			return nil, err
		}
		if _, dup := s.tenants[mem.Name]; dup {
			return nil, fmt.Errorf("memory %s is given twice", mem.Name)
		}
		loc, err := location.Parse(mem.Store)
		if err != nil {
			return nil, fmt.Errorf("memory %s: %w", mem.Name, err)
		}
		key := loc.Name()
		if loc.Backend != location.Postgres {
			if abs, err := filepath.Abs(key); err == nil {
				key = abs
			}
			if err := s.exists(loc); err != nil {
				return nil, fmt.Errorf("memory %s: %w", mem.Name, err)
			}
		}
		if other, dup := stores[key]; dup {
			return nil, fmt.Errorf("memories %s and %s have the same store %s: each memory needs its own", other, mem.Name, loc.Redacted())
		}
		stores[key] = mem.Name
		for _, tok := range mem.Tokens {
			if err := g.add(mem.Name, tok); err != nil {
				return nil, fmt.Errorf("memory %s: %w", mem.Name, err)
			}
		}
		if len(mem.Tokens) == 0 {
			tokenless = append(tokenless, mem.Name)
		}
		s.tenants[mem.Name] = &tenant{name: mem.Name, loc: loc}
	}
	switch {
	case len(g.by) == 0:
		guard, err := httpapi.NewGuard(httpapi.Options{AllowHosts: opts.AllowHosts, AllowOrigins: opts.AllowOrigins})
		if err != nil {
			return nil, err
		}
		s.guard = guard
	case len(opts.AdminTokens) == 0 && len(tokenless) > 0:
		return nil, fmt.Errorf("memory %s has no token while others have: give it one, or give an admin token (with none at all, only loopback clients are served)", strings.Join(tokenless, ", "))
	default:
		s.grants = g
	}
	if opts.Default != "" {
		s.def = s.tenants[opts.Default]
		if s.def == nil {
			return nil, fmt.Errorf("default memory %q is not one of the memories served", opts.Default)
		}
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	if s.idle > 0 {
		s.wg.Go(s.closeIdle)
	}
	return s, nil
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// exists checks that a folder or bolt store is there (unless Create):
// cheap, and a typo is then an error at start, not at the first request.
func (s *Server) exists(loc location.Location) error {
	if s.create {
		return nil
	}
	if _, err := osStat(loc.Name()); err != nil {
		return fmt.Errorf("%s: %w (to serve a new, empty store there, create it)", loc.Redacted(), location.ErrNotExist)
	}
	return nil
}

// Close stops the Server: no memory opens any more, an open under way is
// undone, and every open memory is closed once the requests it is serving
// are done. When Close returns, every store is closed (a bolt file's lock
// is free).
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.cancel()       // opens under way stop early (a database connect)
	s.opening.Wait() // and close what they opened
	s.wg.Wait()
	var errs []error
	for _, t := range s.tenants {
		errs = append(errs, s.detach(t, false))
	}
	return errors.Join(errs...)
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}
