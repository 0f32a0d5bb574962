package web

import (
	"cmp"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
)

// LinksResult is the answer of GET /v1/links/{category}/{name}.
type LinksResult struct {
	Category string `json:"category"`
	Name     string `json:"name"`
	// Links are the entry's links in order of appearance, each once: its
	// property links (front matter), then the wiki-links and markdown
	// links to notes of its content.
	Links []Link `json:"links"`
	// Backlinks are the entries whose resolved links point here, sorted by
	// category, then name; the entry itself is left out.
	Backlinks []retrieve.Ref `json:"backlinks"`
	// Supersedes are the entries this one supersedes (its supersedes
	// key, resolved; docs/validity.md), and SupersededBy the entries that
	// supersede it, each sorted by category, then name; left out when
	// none.
	Supersedes   []retrieve.Ref `json:"supersedes,omitempty"`
	SupersededBy []retrieve.Ref `json:"superseded_by,omitempty"`
}

// Link is one outgoing wiki-link of an entry.
type Link struct {
	Raw      string `json:"raw"` // as written: "[[trips:三亚之行|Sanya]]"
	Category string `json:"category"`
	Name     string `json:"name"`
	Label    string `json:"label,omitempty"`
	// Resolved tells whether the target exists, that is whether retrieve
	// would inject it; an unresolved link is one retrieve reports in
	// unresolved_links.
	Resolved bool `json:"resolved"`
}

// Links returns the handler of GET /v1/links/{category}/{name}: the
// entry's outgoing links, resolved as retrieve resolves them, and its
// backlinks, from the engine's current index snapshot. Mount it inside the
// API so that its checks apply. It is safe for concurrent use.
func Links(eng *retrieve.Engine) http.Handler {
	l := &linker{eng: eng}
	return http.HandlerFunc(l.serve)
}

type linker struct {
	eng  *retrieve.Engine
	last atomic.Pointer[backlinkIndex]
}

// backlinkIndex maps each entry to the entries linking to it, for one
// snapshot.
type backlinkIndex struct {
	snap *index.Snapshot
	to   map[retrieve.Ref][]retrieve.Ref
}

func (l *linker) serve(w http.ResponseWriter, r *http.Request) {
	category, name := r.PathValue("category"), r.PathValue("name")
	if err := store.ValidateKey(category, name); err != nil {
		var fe *store.FieldError
		field := ""
		if errors.As(err, &fe) {
			field = fe.Field
		}
		writeJSON(w, http.StatusBadRequest, apiError{Message: err.Error(), Field: field})
		return
	}
	// Fresh, not Snapshot: the entry view follows an edit, and must not
	// show links from before it while a rebuild runs.
	snap, err := l.eng.Fresh(r.Context())
	if err != nil {
		writeJSON(w, http.StatusServiceUnavailable, apiError{Message: "read the index: " + err.Error()})
		return
	}
	d := snap.Lookup(category, name)
	if d == nil {
		writeJSON(w, http.StatusNotFound, apiError{Message: store.Key{Category: category, Name: name}.String() + ": " + store.ErrNotFound.Error()})
		return
	}
	res := LinksResult{Category: d.Category, Name: d.Name, Links: []Link{}}
	seen := map[string]bool{}
	lk := l.eng.Links(snap)
	for _, pl := range lk.Of(d) {
		if seen[pl.Raw] {
			continue
		}
		seen[pl.Raw] = true
		t, isLink := lk.Resolve(d, pl)
		if !isLink {
			continue // a heading of this entry, an attachment
		}
		l := Link{Raw: pl.Raw, Category: pl.Category, Name: pl.Name, Label: pl.Label}
		if t != nil {
			l.Category, l.Name, l.Resolved = t.Category, t.Name, true
		}
		res.Links = append(res.Links, l)
	}
	res.Backlinks = l.backlinks(snap).to[retrieve.Ref{Category: d.Category, Name: d.Name}]
	if res.Backlinks == nil {
		res.Backlinks = []retrieve.Ref{}
	}
	v := l.eng.Validity(snap)
	res.Supersedes = refs(v.Supersedes(d.Category, d.Name))
	res.SupersededBy = refs(v.Successors(d.Category, d.Name))
	writeJSON(w, http.StatusOK, res)
}

// backlinks returns the backlink index of snap, building it when the last
// one was made for another snapshot. Concurrent callers may build it twice;
// either result is right.
func (l *linker) backlinks(snap *index.Snapshot) *backlinkIndex {
	if b := l.last.Load(); b != nil && b.snap == snap {
		return b
	}
	b := &backlinkIndex{snap: snap, to: map[retrieve.Ref][]retrieve.Ref{}}
	lk := l.eng.Links(snap)
	snap.Docs(func(d *index.Doc) bool {
		from := retrieve.Ref{Category: d.Category, Name: d.Name}
		for _, pl := range lk.Of(d) {
			t, _ := lk.Resolve(d, pl)
			if t == nil {
				continue
			}
			to := retrieve.Ref{Category: t.Category, Name: t.Name}
			if to == from || slices.Contains(b.to[to], from) {
				continue
			}
			b.to[to] = append(b.to[to], from)
		}
		return true
	})
	for _, refs := range b.to {
		slices.SortFunc(refs, func(x, y retrieve.Ref) int {
			return cmp.Or(strings.Compare(x.Category, y.Category), strings.Compare(x.Name, y.Name))
		})
	}
	l.last.Store(b)
	return b
}

// apiError is the API's error body.
type apiError struct {
	Message string `json:"error"`
	Field   string `json:"field,omitempty"`
}

// refs are keys as Refs; nil for none.
func refs(keys []store.Key) []retrieve.Ref {
	var out []retrieve.Ref
	for _, k := range keys {
		out = append(out, retrieve.Ref{Category: k.Category, Name: k.Name})
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"encode response"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}
