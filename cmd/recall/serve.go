package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/store"
	fsstore "github.com/recallhq/recall/store/fs"
	"github.com/recallhq/recall/web"
)

const (
	defaultServeAddr = "127.0.0.1:7411"
	// maxBodyBytes bounds a request body. An entry's content is at most
	// 1 MiB; a client that escapes every non-ASCII character (Python's
	// json.dumps does by default) needs up to three times that.
	maxBodyBytes = 4 << 20
	// shutdownTimeout is how long a stopping server waits for requests in
	// flight before it gives up on them.
	shutdownTimeout = 10 * time.Second
)

type serveOptions struct {
	app    *app
	engine engineFlags
	addr   string
	token  string
	quiet  bool
}

func newServeCmd(a *app) *cobra.Command {
	o := &serveOptions{app: a}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the memory over an HTTP JSON API",
		Long: `Serve answers HTTP requests on --addr (default ` + defaultServeAddr + `, loopback only):

  POST   /v1/retrieve                   {"query": "...", "limit": 10, "budget_tokens": 800,
                                         "expand_links": true, "explain": false}
                                        → the same JSON object as 'recall retrieve --json'
  PUT    /v1/entries/CATEGORY/NAME      {"content": "...", "tags": ["..."]} → 201 added, 200 updated
  GET    /v1/entries/CATEGORY/NAME      → the entry, as 'recall get --json' prints it
  DELETE /v1/entries/CATEGORY/NAME      → 204
  GET    /v1/entries[?category=C]       → the list, as 'recall ls --json' prints it
  GET    /healthz                       → {"status": "ok"}
  GET    /v1/links/CATEGORY/NAME        → the entry's links and backlinks
  GET    /                              → a web page over all of the above

Only query is required; budget_tokens 0 means no budget. PUT is an upsert: an
update keeps the entry's metadata, and its tags unless "tags" is given.
Categories and names in paths are URL-escaped. Errors are JSON objects,
{"error": "...", "field": "..."}, with status 400 (bad JSON, unknown field,
invalid name or value), 401 (token), 404, 405, 413 (body over 4 MiB) or 503.

Binding anything but a loopback address requires a bearer token (--token, else
$RECALL_TOKEN): clients send "Authorization: Bearer TOKEN". With a token set,
every endpoint but /healthz requires it.

A folder store is watched: edits made by the CLI, an editor or git are visible
to the next retrieve within about a second. A bolt store is held by the server
while it runs; other recall commands on it fail with "locked": send them here.
SIGINT or SIGTERM stops the server gracefully: requests in flight finish (for
up to 10 s), and every write that was answered is on disk.`,
		Example: `  recall --store ~/memory serve
  curl -s localhost:7411/v1/retrieve -d '{"query": "想去海边玩"}'
  curl -s -X PUT localhost:7411/v1/entries/preferences/coffee -d '{"content": "Flat white, no sugar."}'
  RECALL_TOKEN=s3cret recall serve --addr 0.0.0.0:7411`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.engine.validate(cmd); err != nil {
				return err
			}
			if o.token == "" {
				o.token = a.getenv("RECALL_TOKEN")
			}
			if !isLoopback(o.addr) && o.token == "" {
				return usagef(cmd, "--addr %s is not a loopback address: set a bearer token with --token or $RECALL_TOKEN", o.addr)
			}
			return o.run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", defaultServeAddr, "listen on `HOST:PORT` (port 0 picks a free one)")
	f.StringVar(&o.token, "token", "", "require this bearer `TOKEN` (default $RECALL_TOKEN); needed off loopback")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "do not log one line per request on stderr")
	o.engine.register(cmd)
	return cmd
}

// isLoopback reports whether addr only listens on this machine. An empty
// host (":7411") means every interface.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (o *serveOptions) run(ctx context.Context) error {
	a := o.app
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	logger := log.New(a.stderr, "recall serve: ", 0)
	m, err := a.openMemory(ctx, &o.engine, logger)
	if err != nil {
		return err
	}
	defer m.close() // a second Close after the one below only fails quietly

	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	reqLog := logger
	if o.quiet {
		reqLog = nil
	}
	srv := &http.Server{
		Handler:           web.Page(newAPI(m, o.token, reqLog), webOptions(m, o.engine.embedder.alpha)),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          logger,
	}
	m.logf("listening on http://%s, serving %s", ln.Addr(), m.desc)
	go m.warm(ctx)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}

	m.logf("shutting down")
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		m.logf("requests still running after %v are cut off", shutdownTimeout)
		srv.Close()
	}
	<-served
	// Every answered write is already durable (each Put syncs before it
	// returns); closing releases a bolt file's lock for the next process.
	if err := m.close(); err != nil {
		return fmt.Errorf("close store: %w", err)
	}
	m.logf("stopped")
	return nil
}

// webOptions describes the engine to the page at / (package web).
func webOptions(m *memory, alpha float64) web.Options {
	if m.vectors == nil {
		return web.Options{}
	}
	return web.Options{Embedder: m.vectors.Model(), Alpha: alpha}
}

// api is the HTTP face of a memory. It is an http.Handler, safe for
// concurrent use.
type api struct {
	m         *memory
	tokenHash []byte      // SHA-256 of the bearer token; nil: none required
	reqLog    *log.Logger // one line per request; nil: quiet
	mux       *http.ServeMux
}

func newAPI(m *memory, token string, reqLog *log.Logger) *api {
	s := &api{m: m, reqLog: reqLog, mux: http.NewServeMux()}
	if token != "" {
		sum := sha256.Sum256([]byte(token))
		s.tokenHash = sum[:]
	}
	s.mux.HandleFunc("POST /v1/retrieve", s.retrieve)
	s.mux.HandleFunc("GET /v1/entries", s.list)
	s.mux.HandleFunc("GET /v1/entries/{category}/{name}", s.get)
	s.mux.HandleFunc("PUT /v1/entries/{category}/{name}", s.put)
	s.mux.HandleFunc("DELETE /v1/entries/{category}/{name}", s.delete)
	s.mux.HandleFunc("GET /healthz", s.healthz)
	s.mux.Handle("GET /v1/links/{category}/{name}", web.Links(m.eng)) // for the page (package web)
	// The mux would answer these in plain text; clients get JSON.
	s.mux.HandleFunc("/v1/retrieve", methodNotAllowed("POST"))
	s.mux.HandleFunc("/v1/entries", methodNotAllowed("GET, HEAD"))
	s.mux.HandleFunc("/v1/entries/{category}/{name}", methodNotAllowed("GET, HEAD, PUT, DELETE"))
	s.mux.HandleFunc("/healthz", methodNotAllowed("GET, HEAD"))
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &apiError{status: http.StatusNotFound, Message: "no such endpoint: " + r.URL.EscapedPath()})
	})
	return s
}

func (s *api) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	if r.URL.Path != "/healthz" && !s.authorized(r) {
		rec.Header().Set("WWW-Authenticate", `Bearer realm="recall"`)
		writeError(rec, &apiError{status: http.StatusUnauthorized, Message: "missing or wrong bearer token (send Authorization: Bearer TOKEN)"})
	} else {
		s.mux.ServeHTTP(rec, r)
	}
	if s.reqLog != nil {
		s.reqLog.Printf("%s %s %d %v", r.Method, r.URL.EscapedPath(), rec.status, time.Since(start).Round(time.Microsecond))
	}
}

// authorized compares the request's bearer token with the server's in
// constant time; hashing first makes the comparison independent of the
// length too.
func (s *api) authorized(r *http.Request) bool {
	if s.tokenHash == nil {
		return true
	}
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(sum[:], s.tokenHash) == 1
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (s *api) retrieve(w http.ResponseWriter, r *http.Request) {
	var p retrieveParams
	if err := decodeBody(w, r, &p); err != nil {
		writeError(w, err)
		return
	}
	res, _, err := s.m.retrieve(r.Context(), p)
	if err != nil {
		writeError(w, err)
		return
	}
	err = withResultJSON(res, func(b []byte) error {
		writeBody(w, http.StatusOK, b)
		return nil
	})
	if err != nil {
		writeError(w, err)
	}
}

// putBody is the body of PUT /v1/entries/{category}/{name}. Tags left out
// (or null) keep the entry's tags; a list, even empty, replaces them.
type putBody struct {
	Content *string  `json:"content"`
	Tags    []string `json:"tags"`
}

func (s *api) put(w http.ResponseWriter, r *http.Request) {
	category, name := r.PathValue("category"), r.PathValue("name")
	if err := store.ValidateKey(category, name); err != nil {
		writeError(w, err)
		return
	}
	var b putBody
	if err := decodeBody(w, r, &b); err != nil {
		writeError(w, err)
		return
	}
	if b.Content == nil {
		writeError(w, &paramError{"content", "is required"})
		return
	}
	added, err := s.m.add(r.Context(), category, name, *b.Content, b.Tags)
	if err != nil {
		writeError(w, err)
		return
	}
	out, status := changeResult{Category: category, Name: name, Status: "updated"}, http.StatusOK
	if added {
		out.Status, status = "added", http.StatusCreated
		w.Header().Set("Location", "/v1/entries/"+url.PathEscape(category)+"/"+url.PathEscape(name))
	}
	writeValue(w, status, out, "")
}

func (s *api) get(w http.ResponseWriter, r *http.Request) {
	e, err := s.m.get(r.Context(), r.PathValue("category"), r.PathValue("name"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeValue(w, http.StatusOK, entryJSON{Category: e.Category, Name: e.Name, Content: e.Content, Meta: metaObject(e.Meta)}, "")
}

func (s *api) delete(w http.ResponseWriter, r *http.Request) {
	if err := s.m.remove(r.Context(), r.PathValue("category"), r.PathValue("name")); err != nil {
		writeError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *api) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	for k := range q {
		if k != "category" {
			writeError(w, &apiError{status: http.StatusBadRequest, Field: k, Message: fmt.Sprintf("unknown query parameter %q (known: category)", k)})
			return
		}
	}
	items, _, err := s.m.list(r.Context(), q.Get("category"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeValue(w, http.StatusOK, items, "  ")
}

func (s *api) healthz(w http.ResponseWriter, r *http.Request) {
	if _, err := s.m.st.Revision(r.Context()); err != nil {
		writeError(w, err)
		return
	}
	writeValue(w, http.StatusOK, map[string]string{"status": "ok"}, "")
}

func methodNotAllowed(allow string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, &apiError{status: http.StatusMethodNotAllowed,
			Message: fmt.Sprintf("method %s not allowed on %s (allowed: %s)", r.Method, r.URL.EscapedPath(), allow)})
	}
}

// apiError is the JSON body of every failed request.
type apiError struct {
	status  int
	Message string `json:"error"`
	Field   string `json:"field,omitempty"`
}

func (e *apiError) Error() string { return e.Message }

// errorFor maps an error of the memory or of decoding onto a status code.
func errorFor(err error) *apiError {
	var (
		ae *apiError
		pe *paramError
		fe *store.FieldError
	)
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.As(err, &pe):
		return &apiError{status: http.StatusBadRequest, Field: pe.field, Message: pe.Error()}
	case errors.As(err, &fe):
		return &apiError{status: http.StatusBadRequest, Field: fe.Field, Message: fe.Error()}
	case errors.Is(err, store.ErrInvalid):
		return &apiError{status: http.StatusBadRequest, Message: err.Error()}
	case errors.Is(err, store.ErrNotFound):
		return &apiError{status: http.StatusNotFound, Message: err.Error()}
	case errors.Is(err, store.ErrClosed), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &apiError{status: http.StatusServiceUnavailable, Message: "the server is shutting down: " + err.Error()}
	case errors.Is(err, fsstore.ErrMalformed):
		return &apiError{status: http.StatusInternalServerError, Message: "the entry's file cannot be read: " + err.Error()}
	default:
		return &apiError{status: http.StatusInternalServerError, Message: err.Error()}
	}
}

func writeError(w http.ResponseWriter, err error) {
	ae := errorFor(err)
	writeValue(w, ae.status, ae, "")
}

// writeValue encodes v the way the CLI prints JSON (see writeJSON) and
// sends it; indent "" is one line.
func writeValue(w http.ResponseWriter, status int, v any, indent string) {
	var buf bytes.Buffer
	if err := writeJSON(&buf, v, indent); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		fmt.Fprintf(&buf, "{\"error\":%q}\n", "encode response: "+err.Error())
	}
	writeBody(w, status, buf.Bytes())
}

func writeBody(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(body)
}

// decodeBody reads one JSON object into v, strictly: at most maxBodyBytes,
// valid UTF-8 (encoding/json would quietly replace bad bytes, and SPEC §1
// wants them rejected), no unknown fields, nothing after the object.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &apiError{status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("request body is larger than %d bytes", mbe.Limit)}
		}
		return &apiError{status: http.StatusBadRequest, Message: "read request body: " + err.Error()}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return &apiError{status: http.StatusBadRequest, Message: "request body is empty; send a JSON object"}
	}
	if !utf8.Valid(body) {
		return &apiError{status: http.StatusBadRequest, Message: "request body is not valid UTF-8"}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return bodyError(err, v)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &apiError{status: http.StatusBadRequest, Message: "request body holds more than one JSON value"}
	}
	return nil
}

// bodyError rewrites encoding/json's errors, which speak of Go types, into
// what the client sent wrong, naming the field.
func bodyError(err error, v any) *apiError {
	var (
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
	)
	bad := func(field, msg string) *apiError {
		return &apiError{status: http.StatusBadRequest, Field: field, Message: msg}
	}
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return bad("", "request body is not valid JSON: it ends too early")
	case errors.As(err, &syn):
		return bad("", fmt.Sprintf("request body is not valid JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: ")))
	case errors.As(err, &typ):
		if typ.Field == "" {
			return bad("", fmt.Sprintf("request body is a JSON %s, want an object", typ.Value))
		}
		want := typ.Type
		if ft, ok := fieldType(v, typ.Field); ok {
			want = ft // for a list, the list's type, not its element's
		}
		return bad(typ.Field, fmt.Sprintf("%s must be %s, got a JSON %s", typ.Field, jsonTypeName(want), typ.Value))
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		name = strings.Trim(name, `"`)
		return bad(name, fmt.Sprintf("unknown field %q (known: %s)", name, strings.Join(jsonFields(v), ", ")))
	}
	return bad("", "request body: "+strings.TrimPrefix(err.Error(), "json: "))
}

// jsonTypeName names the JSON a Go type decodes from.
func jsonTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list of " + strings.TrimPrefix(strings.TrimPrefix(jsonTypeName(t.Elem()), "a "), "an ") + "s"
	default:
		return "an object"
	}
}

// jsonFields lists the JSON field names of the struct v points to.
func jsonFields(v any) []string {
	var names []string
	for f := range structFields(v) {
		names = append(names, f)
	}
	return names
}

// fieldType is the type of the field of v's struct named name in JSON.
func fieldType(v any, name string) (reflect.Type, bool) {
	for f, t := range structFields(v) {
		if f == name {
			return t, true
		}
	}
	return nil, false
}

// structFields yields the JSON names and types of the fields of the
// struct v points to.
func structFields(v any) iter.Seq2[string, reflect.Type] {
	return func(yield func(string, reflect.Type) bool) {
		t := reflect.TypeOf(v)
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		for f := range t.Fields() {
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
				if !yield(name, f.Type) {
					return
				}
			}
		}
	}
}
