package httpapi

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"log"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// MaxBodyBytes bounds a request body. An entry's content is at most 1 MiB;
// a client that escapes every non-ASCII character (Python's json.dumps
// does by default) needs up to three times that.
const MaxBodyBytes = 4 << 20

// Options configure a Handler. The zero value serves without a token,
// to loopback clients only.
type Options struct {
	// Token, when set, is the bearer token every endpoint but /healthz
	// requires. It must not have surrounding whitespace (New fails).
	Token string
	// AllowHosts are host names (without port) accepted in the Host and
	// Origin headers besides loopback ones, when there is no Token: the
	// names a reverse proxy or /etc/hosts gives this machine.
	AllowHosts []string
	// AllowOrigins are web origins ("http://localhost:3000") whose pages
	// may call the API when there is no Token, besides the server's own
	// (a loopback origin on the port the request was sent to) and those
	// of AllowHosts. A loopback origin on another port is another site
	// (any local dev server), refused unless listed here.
	AllowOrigins []string
	// Log, when set, gets one line per request.
	Log *log.Logger
	// WriteTimeout bounds how long a client may take to read one answer,
	// from when it is ready: a client that has not read it all by then is
	// cut off (its connection closed) and the answer freed. Zero means
	// DefaultWriteTimeout; negative, no bound. It needs a server whose
	// ResponseWriter takes write deadlines (net/http's does).
	WriteTimeout time.Duration
	// MaxPendingBytes bounds the bytes of large answers (LargeAnswerBytes
	// or more) being sent at once; a large answer beyond it is replaced by
	// 503 with Retry-After, and smaller ones are always sent. An answer
	// larger than the bound is sent when no other large one is. Zero means
	// DefaultMaxPendingBytes; negative, no bound.
	MaxPendingBytes int64
}

// Handler is the HTTP JSON API over a service.Memory. It is safe for
// concurrent use.
type Handler struct {
	m          *service.Memory
	tokenHash  []byte // SHA-256 of the bearer token; nil: none required
	allowHosts map[string]bool
	allowOrigs map[string]bool // normalised: scheme://host:port
	reqLog     *log.Logger
	mux        *http.ServeMux
	answers    answers
}

var _ http.Handler = (*Handler)(nil)

// New returns the API over m.
func New(m *service.Memory, opts Options) (*Handler, error) {
	if opts.Token != "" && strings.TrimSpace(opts.Token) != opts.Token {
		return nil, errors.New("the bearer token has surrounding whitespace, which no client can send back; remove it")
	}
	h := &Handler{m: m, reqLog: opts.Log, mux: http.NewServeMux(), allowHosts: map[string]bool{}, answers: newAnswers(opts)}
	if opts.Token != "" {
		sum := sha256.Sum256([]byte(opts.Token))
		h.tokenHash = sum[:]
	}
	for _, a := range opts.AllowHosts {
		h.allowHosts[strings.ToLower(strings.TrimSuffix(a, "."))] = true
	}
	h.allowOrigs = map[string]bool{}
	for _, o := range opts.AllowOrigins {
		n, ok := normalOrigin(o)
		if !ok {
			return nil, fmt.Errorf("allowed origin %q is not an origin such as http://localhost:3000 (scheme, host and optional port, no path)", o)
		}
		h.allowOrigs[n] = true
	}
	mux := h.mux
	mux.HandleFunc("POST /v1/retrieve", h.retrieve)
	mux.HandleFunc("GET /v1/entries", h.list)
	mux.HandleFunc("GET /v1/categories", h.categories)
	mux.HandleFunc("GET /v1/entries/{category}/{name}", h.get)
	mux.HandleFunc("PUT /v1/entries/{category}/{name}", h.put)
	mux.HandleFunc("DELETE /v1/entries/{category}/{name}", h.delete)
	mux.HandleFunc("POST /v1/entries/{category}/{name}/append", h.append)
	mux.HandleFunc("POST /v1/entries/{category}/{name}/edit", h.edit)
	mux.HandleFunc("GET /v1/backup", h.backup)
	mux.HandleFunc("GET /healthz", h.healthz)
	// The mux would answer these in plain text; clients get JSON.
	mux.HandleFunc("/v1/retrieve", methodNotAllowed("POST"))
	mux.HandleFunc("/v1/entries", methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("/v1/categories", methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("/v1/entries/{category}/{name}", methodNotAllowed("GET, HEAD, PUT, DELETE"))
	mux.HandleFunc("/v1/entries/{category}/{name}/append", methodNotAllowed("POST"))
	mux.HandleFunc("/v1/entries/{category}/{name}/edit", methodNotAllowed("POST"))
	mux.HandleFunc("/v1/backup", methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("/healthz", methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, notFoundError(r.URL.EscapedPath()))
	})
	return h, nil
}

// Handle mounts another endpoint on the API, behind the same checks
// (token, Host and Origin) and request log, for example the web page's
// GET /v1/links (package web). Call it before serving.
func (h *Handler) Handle(pattern string, handler http.Handler) {
	h.mux.Handle(pattern, handler)
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rc := http.NewResponseController(w)
	// A deadline left by the connection's previous request must not cut
	// this one: none until the answer is ready (boundedWriter).
	_ = rc.SetWriteDeadline(time.Time{})
	bw := &boundedWriter{ResponseWriter: w, a: &h.answers, rc: rc, status: http.StatusOK}
	defer bw.release()
	switch {
	case h.tokenHash == nil && !h.localHost(r.Host):
		writeError(bw, &Error{Status: http.StatusForbidden, Field: "Host",
			Message: fmt.Sprintf("Host %q is not this machine's loopback name or address; without a token only those (and --allow-host names) are served", r.Host)})
	case h.tokenHash == nil && !h.localOrigin(r):
		writeError(bw, &Error{Status: http.StatusForbidden, Field: "Origin",
			Message: fmt.Sprintf("requests from a web page at %q are refused: without a token only the server's own origin (a loopback name on this port) and allowed origins are served", r.Header.Get("Origin"))})
	case r.URL.Path != "/healthz" && !h.authorized(r):
		bw.Header().Set("WWW-Authenticate", `Bearer realm="recall"`)
		writeError(bw, &Error{Status: http.StatusUnauthorized, Message: "missing or wrong bearer token (send Authorization: Bearer TOKEN)"})
	default:
		h.mux.ServeHTTP(bw, r)
	}
	if h.reqLog != nil {
		h.reqLog.Printf("%s %s %d %v", r.Method, r.URL.EscapedPath(), bw.status, time.Since(start).Round(time.Microsecond))
	}
}

// localHost reports whether a Host header names this machine: a loopback
// address, "localhost" (or a name under .localhost), or an allowed host.
func (h *Handler) localHost(hostport string) bool {
	host := hostport
	if hh, _, err := net.SplitHostPort(hostport); err == nil {
		host = hh
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if host == "" {
		return false
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || h.allowHosts[host] {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// localOrigin reports whether the request's Origin headers, if any, are
// the server's own, an allowed host's or an allowed origin. Command-line
// clients send none; a browser sends the page's, "null" for opaque ones.
// A loopback origin counts as the server's own only on the port the
// request was sent to: another port is another site (SPEC §9).
func (h *Handler) localOrigin(r *http.Request) bool {
	for _, o := range r.Header.Values("Origin") {
		n, ok := normalOrigin(o)
		if !ok {
			return false
		}
		if h.allowOrigs[n] {
			continue
		}
		u, _ := url.Parse(n)
		host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
		if h.allowHosts[host] {
			continue // a name the operator gave: trusted on every port
		}
		if !h.localHost(u.Host) || u.Port() != requestPort(r) {
			return false
		}
	}
	return true
}

// normalOrigin is an origin as scheme://host:port, lower-case, with the
// scheme's default port made explicit; ok is false for anything else
// ("null", a path, no host).
func normalOrigin(o string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(o))
	if err != nil || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	switch {
	case port != "":
	case scheme == "http":
		port = "80"
	case scheme == "https":
		port = "443"
	default:
		return "", false
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port), true
}

// requestPort is the port the request was sent to, from its Host header.
func requestPort(r *http.Request) string {
	if _, p, err := net.SplitHostPort(r.Host); err == nil && p != "" {
		return p
	}
	if r.TLS != nil {
		return "443"
	}
	return "80"
}

// authorized compares the request's bearer token with the server's in
// constant time; hashing first makes the comparison independent of the
// length too.
func (h *Handler) authorized(r *http.Request) bool {
	if h.tokenHash == nil {
		return true
	}
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(sum[:], h.tokenHash) == 1
}

func (h *Handler) retrieve(w http.ResponseWriter, r *http.Request) {
	var p service.RetrieveParams
	if err := decodeBody(w, r, &p); err != nil {
		writeError(w, err)
		return
	}
	res, _, err := h.m.Retrieve(r.Context(), p)
	if err != nil {
		writeError(w, err)
		return
	}
	err = service.WithResultJSON(res, func(b []byte) error {
		writeBody(w, http.StatusOK, b)
		return nil
	})
	if err != nil {
		writeError(w, err)
	}
}

// putBody is the body of PUT /v1/entries/{category}/{name}. Tags left out
// (or null) keep the entry's tags; a list, even empty, replaces them.
// date ("2024-05-03" or RFC 3339) sets the event date; left out, an
// update keeps it. supersedes (a list of links such as
// "[[places:Paris flat]]") replaces the entries it supersedes, [] removes
// them, left out an update keeps them; expires (a date or RFC 3339) sets
// when it stops being a hit (docs/validity.md).
type putBody struct {
	Content    *string  `json:"content"`
	Tags       []string `json:"tags"`
	Date       string   `json:"date"`
	Supersedes []string `json:"supersedes"`
	Expires    string   `json:"expires"`
}

func (h *Handler) put(w http.ResponseWriter, r *http.Request) {
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
		writeError(w, &service.ParamError{Field: "content", Reason: "is required"})
		return
	}
	req := service.AddRequest{Category: category, Name: name, Content: *b.Content, Tags: b.Tags, Supersedes: b.Supersedes}
	switch inm := r.Header.Values("If-None-Match"); {
	case len(inm) == 0:
	case len(inm) == 1 && strings.TrimSpace(inm[0]) == "*":
		req.IfAbsent = true
	default:
		writeError(w, &Error{Status: http.StatusBadRequest, Field: "If-None-Match",
			Message: fmt.Sprintf(`If-None-Match must be "*" (write only when the entry does not exist), got %q`, strings.Join(inm, ", "))})
		return
	}
	if b.Date != "" {
		d, err := service.ParseDate("date", b.Date)
		if err != nil {
			writeError(w, err)
			return
		}
		req.Date = d
	}
	if b.Expires != "" {
		t, err := service.ParseExpires("expires", b.Expires)
		if err != nil {
			writeError(w, err)
			return
		}
		req.Expires = t
	}
	c, err := h.m.Add(r.Context(), req)
	if err != nil {
		writeError(w, err)
		return
	}
	c.Replaced = nil // the answer stays {category, name, status}
	status := http.StatusOK
	if c.Status == service.StatusAdded {
		status = http.StatusCreated
		w.Header().Set("Location", entryPath(category, name))
	}
	writeValue(w, status, c, "")
}

// notFoundError answers a path no endpoint serves. A path under
// /v1/entries/ with too many segments is most likely a category path
// ("projects/harbor") sent with its "/" unescaped: say how to send it.
func notFoundError(path string) *Error {
	rest, ok := strings.CutPrefix(path, "/v1/entries/")
	segs := strings.Split(rest, "/")
	suffix := ""
	if n := len(segs); n > 3 && (segs[n-1] == "append" || segs[n-1] == "edit") {
		suffix, segs = "/"+segs[n-1], segs[:n-1]
	}
	if !ok || len(segs) < 3 || slices.Contains(segs, "") {
		return &Error{Status: http.StatusNotFound, Message: "no such endpoint: " + path}
	}
	n := len(segs)
	return &Error{Status: http.StatusNotFound, Message: fmt.Sprintf(
		"no such endpoint: %s; a category or name holding \"/\" must have it escaped as %%2F in the path, e.g. /v1/entries/%s/%s%s",
		path, strings.Join(segs[:n-1], "%2F"), segs[n-1], suffix)}
}

func entryPath(category, name string) string {
	return "/v1/entries/" + url.PathEscape(category) + "/" + url.PathEscape(name)
}

// appendBody is the body of POST .../append.
type appendBody struct {
	Text *string `json:"text"`
}

func (h *Handler) append(w http.ResponseWriter, r *http.Request) {
	var b appendBody
	if err := decodeBody(w, r, &b); err != nil {
		writeError(w, err)
		return
	}
	if b.Text == nil {
		writeError(w, &service.ParamError{Field: "text", Reason: "is required"})
		return
	}
	c, err := h.m.Append(r.Context(), r.PathValue("category"), r.PathValue("name"), *b.Text)
	if err != nil {
		writeError(w, err)
		return
	}
	writeValue(w, http.StatusOK, c, "")
}

// editBody is the body of POST .../edit.
type editBody struct {
	OldText *string `json:"old_text"`
	NewText *string `json:"new_text"`
}

func (h *Handler) edit(w http.ResponseWriter, r *http.Request) {
	var b editBody
	if err := decodeBody(w, r, &b); err != nil {
		writeError(w, err)
		return
	}
	switch {
	case b.OldText == nil:
		writeError(w, &service.ParamError{Field: "old_text", Reason: "is required"})
		return
	case b.NewText == nil:
		writeError(w, &service.ParamError{Field: "new_text", Reason: "is required (\"\" deletes old_text)"})
		return
	}
	c, err := h.m.Edit(r.Context(), r.PathValue("category"), r.PathValue("name"), *b.OldText, *b.NewText)
	if err != nil {
		writeError(w, err)
		return
	}
	writeValue(w, http.StatusOK, c, "")
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) {
	e, err := h.m.Get(r.Context(), r.PathValue("category"), r.PathValue("name"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeValue(w, http.StatusOK, service.EntryFor(e), "")
}

func (h *Handler) delete(w http.ResponseWriter, r *http.Request) {
	if _, err := h.m.Delete(r.Context(), r.PathValue("category"), r.PathValue("name")); err != nil {
		writeError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// list answers GET /v1/entries[?category=C&limit=N&cursor=X] with the
// page's entries as a JSON array (what `recall ls --json` prints); the
// count and the next page are in headers: X-Total-Count, and X-Next-Cursor
// with a Link rel="next" when there is more.
func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	req := service.ListRequest{Category: q.Get("category"), Cursor: q.Get("cursor")}
	for k, v := range q {
		switch {
		case k != "category" && k != "limit" && k != "cursor":
			writeError(w, &Error{Status: http.StatusBadRequest, Field: k, Message: fmt.Sprintf("unknown query parameter %q (known: category, limit, cursor)", k)})
			return
		case len(v) > 1:
			writeError(w, &Error{Status: http.StatusBadRequest, Field: k, Message: fmt.Sprintf("query parameter %q is given %d times", k, len(v))})
			return
		}
	}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			writeError(w, &service.ParamError{Field: "limit", Reason: fmt.Sprintf("must be a whole number between 1 and %d, got %q", service.MaxListLimit, s)})
			return
		}
		req.Limit = n
	}
	page, err := h.m.List(r.Context(), req)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(page.Total))
	if page.NextCursor != "" {
		next := url.Values{"cursor": {page.NextCursor}}
		if req.Category != "" {
			next.Set("category", req.Category)
		}
		if req.Limit != 0 {
			next.Set("limit", strconv.Itoa(req.Limit))
		}
		w.Header().Set("X-Next-Cursor", page.NextCursor)
		w.Header().Set("Link", "</v1/entries?"+next.Encode()+`>; rel="next"`)
	}
	writeValue(w, http.StatusOK, page.Entries, "  ")
}

func (h *Handler) categories(w http.ResponseWriter, r *http.Request) {
	cats, err := h.m.Categories(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	writeValue(w, http.StatusOK, cats, "  ")
}

// healthz answers {"status":"ok","revision":N,"indexed":true,"unreadable":N},
// or 503 with the reason when the store is unavailable.
func (h *Handler) healthz(w http.ResponseWriter, r *http.Request) {
	hl, err := h.m.Health(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	writeValue(w, http.StatusOK, struct {
		Status string `json:"status"`
		service.Health
	}{"ok", hl}, "")
}

func methodNotAllowed(allow string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, &Error{Status: http.StatusMethodNotAllowed,
			Message: fmt.Sprintf("method %s not allowed on %s (allowed: %s)", r.Method, r.URL.EscapedPath(), allow)})
	}
}

// isJSON reports whether a Content-Type is application/json (parameters
// such as charset allowed).
func isJSON(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}
