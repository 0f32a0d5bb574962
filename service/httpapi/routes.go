package httpapi

import (
	"net/http"
	"strings"
)

// Route is one endpoint of the API: a method and a path pattern in
// net/http's syntax, as a Handler made with the zero Options.Path serves
// it ("/v1/entries/{category}/{name}", "/healthz").
type Route struct {
	Method  string
	Pattern string
}

// route is a Route with the method of Handler that answers it.
type route struct {
	Route
	serve func(*Handler, http.ResponseWriter, *http.Request)
}

// routeTable is every endpoint, in the order of the package doc. It is
// the one list: New mounts it, Routes returns it, and the 405 answers'
// Allow headers are made from it.
var routeTable = []route{
	{Route{"POST", "/v1/retrieve"}, (*Handler).retrieve},
	{Route{"GET", "/v1/entries"}, (*Handler).list},
	{Route{"GET", "/v1/categories"}, (*Handler).categories},
	{Route{"GET", "/v1/entries/{category}/{name}"}, (*Handler).get},
	{Route{"PUT", "/v1/entries/{category}/{name}"}, (*Handler).put},
	{Route{"DELETE", "/v1/entries/{category}/{name}"}, (*Handler).delete},
	{Route{"POST", "/v1/entries/{category}/{name}/append"}, (*Handler).append},
	{Route{"POST", "/v1/entries/{category}/{name}/edit"}, (*Handler).edit},
	{Route{"GET", "/v1/backup"}, (*Handler).backup},
	{Route{"GET", "/healthz"}, (*Handler).healthz},
}

// Routes returns the API's endpoints (a GET also answers HEAD), for
// servers and tests that mount or cover every one; endpoints mounted
// with Handler.Handle are not among them.
func Routes() []Route {
	rs := make([]Route, len(routeTable))
	for i, r := range routeTable {
		rs[i] = r.Route
	}
	return rs
}

// path is where a Route's pattern lives on h: under h.base instead of
// /v1, and /healthz at h.health.
func (h *Handler) path(pattern string) string {
	if pattern == "/healthz" {
		return h.health
	}
	return h.base + strings.TrimPrefix(pattern, "/v1")
}

// routes mounts routeTable on h's mux, each path's other methods
// answered 405 with the path's Allow list (in JSON: the mux would answer
// in plain text), and every other path 404.
func (h *Handler) routes() {
	var paths []string
	allow := map[string][]string{}
	for _, rt := range routeTable {
		serve := rt.serve
		p := h.path(rt.Pattern)
		h.mux.HandleFunc(rt.Method+" "+p, func(w http.ResponseWriter, r *http.Request) { serve(h, w, r) })
		if allow[p] == nil {
			paths = append(paths, p)
		}
		allow[p] = append(allow[p], rt.Method)
		if rt.Method == "GET" {
			allow[p] = append(allow[p], "HEAD")
		}
	}
	for _, p := range paths {
		h.mux.HandleFunc(p, methodNotAllowed(strings.Join(allow[p], ", ")))
	}
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, h.notFoundError(r.URL.EscapedPath()))
	})
}
