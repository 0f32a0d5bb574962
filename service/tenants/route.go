package tenants

import (
	"net/http"
	"strings"
	"time"

	"github.com/recallhq/recall/service/httpapi"
)

// kind is which of a memory's handlers a path goes to.
type kind int

const (
	api    kind = iota // /v1/m/NAME/...
	single             // /v1/... and /healthz, the default memory's
	mcp                // /mcp/NAME, /mcp
)

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	s.serve(sw, r)
	if s.reqLog != nil {
		s.reqLog.Printf("%s %s %d %v", r.Method, r.URL.EscapedPath(), sw.status, time.Since(start).Round(time.Microsecond))
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if s.guard != nil {
		if err := s.guard.CheckOrigin(r); err != nil {
			httpapi.WriteError(w, err)
			return
		}
	}
	name, k, ok := route(r.URL.Path)
	switch {
	case !ok:
		httpapi.WriteError(w, &httpapi.Error{Status: http.StatusNotFound, Message: "no such endpoint: " + r.URL.EscapedPath() +
			"; this server holds several memories, at /v1/m/NAME/... (the JSON API) and /mcp/NAME"})
		return
	case name == "" && s.def == nil:
		if r.URL.Path == "/healthz" {
			writeOK(w)
			return
		}
		httpapi.WriteError(w, &httpapi.Error{Status: http.StatusNotFound, Message: "no such endpoint: " + r.URL.EscapedPath() +
			"; this server holds several memories and no default one: use /v1/m/NAME/... (the JSON API) and /mcp/NAME"})
		return
	case name == "":
		name = s.def.name
	}
	// Authorise first, then look the memory up: a token that does not
	// grant name is answered as an unknown name is, by the same code,
	// before any memory is opened.
	if s.grants != nil && !(k == single && r.URL.Path == "/healthz") {
		tok, ok := httpapi.BearerToken(r)
		granted, admin, known := "", false, false
		if ok {
			granted, admin, known = s.grants.lookup(tok)
		}
		if !known {
			w.Header().Set("WWW-Authenticate", `Bearer realm="recall"`)
			httpapi.WriteError(w, httpapi.ErrUnauthorized())
			return
		}
		if !admin && granted != name {
			noMemory(w)
			return
		}
	}
	t := s.tenants[name]
	if t == nil {
		noMemory(w)
		return
	}
	l, err := s.acquire(r.Context(), t)
	if err != nil {
		// The store cannot be opened (gone, locked, a database down), the
		// client went away, or the server is shutting down.
		httpapi.WriteError(w, &httpapi.Error{Status: http.StatusServiceUnavailable, Message: err.Error()})
		return
	}
	defer t.release(l)
	switch k {
	case api:
		l.api.ServeHTTP(w, r)
	case single:
		l.single.ServeHTTP(w, r)
	case mcp:
		l.mcp().ServeHTTP(w, r)
	}
}

// noMemory is the one answer, byte for byte, for a memory that does not
// exist and for one the request's token does not grant.
func noMemory(w http.ResponseWriter) {
	httpapi.WriteError(w, &httpapi.Error{Status: http.StatusNotFound,
		Message: "no memory of that name is served to this request (check the name in the path, and the token)"})
}

func writeOK(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Write([]byte("{\"status\":\"ok\"}\n"))
}

// route reads a path: the memory it names ("" for the default memory's
// routes) and which handler serves it; ok is false for a path of no
// memory.
func route(path string) (name string, k kind, ok bool) {
	if rest, found := strings.CutPrefix(path, "/v1/m/"); found {
		name, _, _ = strings.Cut(rest, "/")
		return name, api, name != ""
	}
	if rest, found := strings.CutPrefix(path, "/mcp/"); found {
		return rest, mcp, rest != "" && !strings.Contains(rest, "/")
	}
	switch {
	case path == "/mcp":
		return "", mcp, true
	case path == "/healthz", strings.HasPrefix(path, "/v1/"):
		return "", single, true
	}
	return "", 0, false
}

// statusWriter notes the status for the request log. Unwrap lets
// http.ResponseController (write deadlines, flushes) reach the
// connection's writer.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
