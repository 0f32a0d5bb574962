package httpapi

import (
	"errors"
	"fmt"
	"log"
	"mime"
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
	// Path, when set, is where the API's /v1 routes are served instead of
	// /v1, with /healthz at Path+"/healthz": "/v1/m/alice" serves
	// /v1/m/alice/retrieve and /v1/m/alice/healthz (service/tenants
	// mounts one memory's API so). It must start with "/" and not end
	// with one. The Location and Link headers the API sends use it.
	Path string
	// Authorized says that whoever mounts the Handler has checked every
	// request before it (service/tenants, which holds several memories'
	// tokens, with a Guard of its own when there are none): the Handler
	// then checks no token, Host or Origin, and Token, AllowHosts and
	// AllowOrigins are unused (Token must be empty).
	Authorized bool
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
	// Pending, when set, is the bound on large answers this Handler shares
	// with others (NewPending); MaxPendingBytes is then unused.
	Pending *Pending
}

// Handler is the HTTP JSON API over a service.Memory. It is safe for
// concurrent use.
type Handler struct {
	m       *service.Memory
	guard   *Guard // nil: Options.Authorized
	base    string // the path of /v1's routes: "/v1", or Options.Path
	health  string // the path of /healthz
	reqLog  *log.Logger
	mux     *http.ServeMux
	answers answers
}

var _ http.Handler = (*Handler)(nil)

// New returns the API over m.
func New(m *service.Memory, opts Options) (*Handler, error) {
	h := &Handler{m: m, reqLog: opts.Log, mux: http.NewServeMux(), answers: newAnswers(opts), base: "/v1", health: "/healthz"}
	if opts.Path != "" {
		if !validPath(opts.Path) {
			return nil, fmt.Errorf("API path %q must start with \"/\" and not end with one, e.g. /v1/m/alice", opts.Path)
		}
		h.base, h.health = opts.Path, opts.Path+"/healthz"
	}
	if opts.Authorized {
		if opts.Token != "" {
			return nil, errors.New("a handler whose requests are authorised before it takes no token of its own")
		}
	} else {
		g, err := NewGuard(opts)
		if err != nil {
			return nil, err
		}
		h.guard = g
	}
	h.routes()
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
	if err := h.check(r); err != nil {
		if err.Status == http.StatusUnauthorized {
			bw.Header().Set("WWW-Authenticate", `Bearer realm="recall"`)
		}
		writeError(bw, err)
	} else {
		h.mux.ServeHTTP(bw, r)
	}
	if h.reqLog != nil {
		h.reqLog.Printf("%s %s %d %v", r.Method, r.URL.EscapedPath(), bw.status, time.Since(start).Round(time.Microsecond))
	}
}

// check runs the Guard, if any: Host and Origin (without a token), then
// the token, which /healthz does not need.
func (h *Handler) check(r *http.Request) *Error {
	if h.guard == nil {
		return nil
	}
	if err := h.guard.CheckOrigin(r); err != nil {
		return err
	}
	if r.URL.Path == h.health {
		return nil
	}
	return h.guard.CheckToken(r)
}

// validPath reports whether p can be Options.Path: "/" then segments,
// no trailing "/".
func validPath(p string) bool {
	return strings.HasPrefix(p, "/") && !strings.HasSuffix(p, "/") && !strings.Contains(p, "//")
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
		w.Header().Set("Location", h.entryPath(category, name))
	}
	writeValue(w, status, c, "")
}

// notFoundError answers a path no endpoint serves. A path under
// /v1/entries/ with too many segments is most likely a category path
// ("projects/harbor") sent with its "/" unescaped: say how to send it.
func (h *Handler) notFoundError(path string) *Error {
	rest, ok := strings.CutPrefix(path, h.base+"/entries/")
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
		"no such endpoint: %s; a category or name holding \"/\" must have it escaped as %%2F in the path, e.g. %s/entries/%s/%s%s",
		path, h.base, strings.Join(segs[:n-1], "%2F"), segs[n-1], suffix)}
}

func (h *Handler) entryPath(category, name string) string {
	return h.base + "/entries/" + url.PathEscape(category) + "/" + url.PathEscape(name)
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
		w.Header().Set("Link", "<"+h.base+"/entries?"+next.Encode()+`>; rel="next"`)
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
