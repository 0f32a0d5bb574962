package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html/template"
	iofs "io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

//go:embed assets
var assets embed.FS

// Options describe the server to the page. The zero value is a server
// without an embedder.
type Options struct {
	// Embedder is the embedding model identity, shown beside the query
	// form; empty means BM25 only.
	Embedder string
	// Alpha is the BM25 weight of the fused score as configured; 0 means
	// the embedder's default.
	Alpha float64
}

// Page returns a handler that serves the page at `/` and its assets under
// `/assets/`, for GET and HEAD, and passes every other request to api.
// It is safe for concurrent use.
func Page(api http.Handler, opts Options) http.Handler {
	files, csp := loadAssets(opts)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			api.ServeHTTP(w, r)
			return
		}
		p := r.URL.Path
		if p == "/" || p == "/index.html" {
			p = "/assets/index.html"
		}
		f, ok := files[p]
		if !ok {
			api.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", f.ctype)
		h.Set("ETag", f.etag)
		// Revalidate every time: a new binary must not show an old page.
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Frame-Options", "DENY")
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
	})
}

// cspFormat lets the page load its own files, its one inline stylesheet
// (by hash) and talk to its own origin, and nothing else: no inline
// script, no other host, no framing.
const cspFormat = "default-src 'none'; script-src 'self'; style-src 'self' '%s'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// stylesheetLink is replaced in index.html by the stylesheet itself: one
// request less before the first paint.
const stylesheetLink = `<link rel="stylesheet" href="/assets/app.css">`

type asset struct {
	body  []byte
	ctype string
	etag  string
}

// loadAssets reads the embedded files once, rendering index.html with opts
// and the stylesheet inlined, and returns them with the page's
// Content-Security-Policy.
func loadAssets(opts Options) (map[string]asset, string) {
	files := map[string]asset{}
	css, err := assets.ReadFile("assets/app.css")
	if err != nil {
		panic("web: embedded assets: " + err.Error())
	}
	cssSum := sha256.Sum256(css)
	csp := fmt.Sprintf(cspFormat, "sha256-"+base64.StdEncoding.EncodeToString(cssSum[:]))
	err = iofs.WalkDir(assets, "assets", func(p string, d iofs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := assets.ReadFile(p)
		if err != nil {
			return err
		}
		if p == "assets/index.html" {
			body, err = renderIndex(body, opts)
			if err != nil {
				return err
			}
			if !bytes.Contains(body, []byte(stylesheetLink)) {
				return fmt.Errorf("index.html has no %s", stylesheetLink)
			}
			body = bytes.Replace(body, []byte(stylesheetLink), []byte("<style>"+string(css)+"</style>"), 1)
		}
		ctype := mime.TypeByExtension(path.Ext(p))
		if ctype == "" || strings.HasSuffix(p, ".js") {
			// Some systems map .js to text/plain; a module must be JavaScript.
			ctype = map[string]string{".js": "text/javascript; charset=utf-8"}[path.Ext(p)]
		}
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		sum := sha256.Sum256(body)
		files["/"+p] = asset{body: body, ctype: ctype, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		return nil
	})
	if err != nil {
		panic("web: embedded assets: " + err.Error()) // the files are compiled in
	}
	return files, csp
}

func renderIndex(src []byte, opts Options) ([]byte, error) {
	t, err := template.New("index").Delims("{{", "}}").Parse(string(src))
	if err != nil {
		return nil, err
	}
	alpha := ""
	if opts.Alpha > 0 {
		alpha = strconv.FormatFloat(opts.Alpha, 'g', -1, 64)
	}
	var buf bytes.Buffer
	err = t.Execute(&buf, struct{ Embedder, Alpha string }{opts.Embedder, alpha})
	return buf.Bytes(), err
}
