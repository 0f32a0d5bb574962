// Package web is the page `recall serve` shows at `/`: a person tending an
// agent's memory tries a query and sees why each entry would enter the
// prompt (hit or link, via which hit, matched terms, BM25, cosine and fused
// scores, tokens, where the token budget cut), browses the categories and
// entries, follows links and backlinks, and adds, edits and deletes entries.
//
// # Basics
//
// The page is plain HTML, CSS and JavaScript embedded with go:embed: it
// works offline and loads nothing from elsewhere (no CDN, no web fonts, no
// library). It talks to the JSON API only, through one module,
// assets/api.js, so that the paths it uses are in one place.
//
// Page wraps the API handler: it answers GET and HEAD for `/` and
// `/assets/...` itself and hands every other request to the API unchanged,
// so the API's own checks (bearer token, Host and Origin, JSON bodies) apply
// to everything the page asks for. The assets hold no data and are served
// without a token; the page asks for the token when the API first answers
// 401, keeps it in the tab's sessionStorage and sends it as
// "Authorization: Bearer TOKEN". Bodies are JSON with Content-Type
// application/json; the browser adds the page's own Origin to writes, which
// the API's Origin check must accept as not foreign.
//
//	api := newAPI(...)                       // the JSON API, an http.Handler
//	mux.Handle("GET /v1/links/{category}/{name}", web.Links(engine)) // inside the API
//	srv := &http.Server{Handler: web.Page(api, web.Options{Embedder: "hash-v2"})}
//
// Links is a small read-only endpoint the page needs and the API does not
// have: an entry's outgoing wiki-links, each resolved or not, and its
// backlinks. Mount it inside the API's handler (behind its checks), at
// GET /v1/links/{category}/{name}.
//
// Entries are shown by their names as written: the identity of a note whose
// file name SPEC §1 refuses for new entries ("What is it%3F") is decoded
// in the page (asWritten, store.UnescapeName's rule, which a test keeps
// the two agreeing on); links, data-ident and the API calls keep the
// identity.
//
// # Caveats
//
// The page never writes on a GET and never writes without a click: adding
// refuses an identity that already exists, editing sends the text it
// started from so that a concurrent change is refused rather than
// overwritten, and deleting asks first. Link resolution is the engine's (an
// exact category:name lookup, as retrieve injects links); backlinks are
// computed once per index snapshot, in time linear in the store's size.
package web
