package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	fsstore "github.com/recallhq/recall/store/fs"
)

// The long-running servers (mcp, serve) share what is in this file: one
// retrieve engine over one open store, the operations both expose, and the
// watch that keeps a folder store fresh.

// maxLimit bounds the hits one retrieve may ask for, and maxListLimit the
// entries one MCP list returns: enough for any prompt, not enough for a
// client to make the server render the whole store by mistake.
const (
	maxLimit         = 1000
	defaultListLimit = 200
	maxListLimit     = 10000
)

// engineFlags are the flags that shape a server's Engine.
type engineFlags struct {
	analysis analyzerFlags
	embedder embedderFlags
}

func (f *engineFlags) register(cmd *cobra.Command) {
	f.analysis.register(cmd,
		"CJK segmentation `MODE`: auto, on or off (off keeps results identical to `recall retrieve`'s default; the gse dictionary is loaded lazily, on the first Chinese text)")
	f.embedder.register(cmd, true)
}

func (f *engineFlags) validate(cmd *cobra.Command) error {
	return f.analysis.validate(cmd, nil)
}

// watcher is a store that can notice edits made behind its back (another
// process, an editor, git) and raise its revision for them: store/fs.
type watcher interface {
	Watch(ctx context.Context, onChange func()) error
}

// memory is the store a server serves, with its engine. All methods are
// safe for concurrent use.
type memory struct {
	st   store.Store
	eng  *retrieve.Engine
	desc string      // "/path/to/memory (fs)", for log lines
	log  *log.Logger // diagnostics, to stderr

	// vectors, with an embedder, is the engine's vector cache, which the
	// server fills in the background (bg: the server's lifetime): a bolt
	// file it holds cannot be reached by `recall embed` meanwhile, and
	// entries added through the server need vectors too.
	vectors *cache.Cache
	bg      context.Context
}

// openMemory opens the store the command line names (creating it: a
// server is where entries get added) and the engine over it.
func (a *app) openMemory(ctx context.Context, f *engineFlags, logger *log.Logger) (*memory, error) {
	path, err := a.storeLocation()
	if err != nil {
		return nil, err
	}
	st, err := a.openStore(create)
	if err != nil {
		return nil, err
	}
	m, err := a.newMemory(ctx, st, f, logger)
	if err != nil {
		st.Close()
		return nil, err
	}
	b := backendFS
	if _, ok := st.(*fsstore.Store); !ok {
		b = backendBolt
	}
	m.desc = fmt.Sprintf("%s (%s)", path, b)
	return m, nil
}

// newMemory wraps an open store. A store that can watch its folder starts
// watching now, for as long as ctx lives or until the store is closed, so
// a long-running server never answers from a stale index. No entry is
// read, and no dictionary or model loaded, until the first retrieve or
// warm; the watch only stats the files.
func (a *app) newMemory(ctx context.Context, st store.Store, f *engineFlags, logger *log.Logger) (*memory, error) {
	an, err := f.analysis.build(a)
	if err != nil {
		return nil, err
	}
	opts, err := f.embedder.engineOptions(a, st, retrieve.Options{Analyzer: an})
	if err != nil {
		return nil, err
	}
	if logger == nil {
		logger = log.New(io.Discard, "", 0)
	}
	m := &memory{st: st, eng: retrieve.New(st, opts), log: logger, desc: "store", bg: ctx}
	m.vectors, _ = opts.Vectors.(*cache.Cache)
	if w, ok := st.(watcher); ok {
		if err := w.Watch(ctx, func() { m.changed(ctx) }); err != nil {
			return nil, fmt.Errorf("watch the store: %w", err)
		}
	}
	return m, nil
}

func (m *memory) close() error { return m.st.Close() }

func (m *memory) logf(format string, args ...any) { m.log.Printf(format, args...) }

// changed runs when the watch saw an outside edit: the revision has moved,
// so the next retrieve would rebuild; rebuilding now spares it the wait.
func (m *memory) changed(ctx context.Context) {
	m.logf("store changed outside the server; re-indexing")
	go m.warm(ctx)
}

// warm builds the index ahead of the first retrieve, then, with an
// embedder, embeds the entries that have no vector yet.
func (m *memory) warm(ctx context.Context) {
	start := time.Now()
	snap, err := m.eng.Fresh(ctx)
	switch {
	case err != nil && ctx.Err() == nil && !errors.Is(err, store.ErrClosed):
		m.logf("index: %v", err)
		return
	case err != nil:
		return
	}
	m.logf("indexed %s in %v", plural(snap.Count(), "entry", "entries"), time.Since(start).Round(10*time.Microsecond))
	if m.vectors == nil {
		return
	}
	var texts []string
	snap.Docs(func(d *index.Doc) bool {
		texts = append(texts, d.Name+" "+d.Content)
		return true
	})
	start = time.Now()
	st, err := m.vectors.Sync(ctx, texts, nil)
	if err != nil {
		if ctx.Err() == nil {
			m.logf("embed (%s): %v; retrieve answers with BM25 for entries without a vector", m.vectors.Model(), err)
		}
		return
	}
	if st.Embedded > 0 || st.Pruned > 0 {
		m.logf("embedded %s with %s in %v (%d already cached, %d stale dropped)",
			plural(st.Embedded, "entry", "entries"), m.vectors.Model(), time.Since(start).Round(time.Millisecond), st.Cached, st.Pruned)
	}
}

// fill embeds one written entry in the background, so that it takes part
// in fused retrieves without waiting for the next sync.
func (m *memory) fill(name, content string) {
	if m.vectors == nil {
		return
	}
	go func() {
		if _, err := m.vectors.Embed(m.bg, []string{name + " " + content}); err != nil && m.bg.Err() == nil {
			m.logf("embed %s: %v", name, err)
		}
	}()
}

// paramError is a request parameter out of range. Both servers report it
// naming the parameter.
type paramError struct {
	field  string
	reason string
}

func (e *paramError) Error() string { return e.field + " " + e.reason }

// retrieveParams are the arguments of a retrieve, as MCP's retrieve tool and
// POST /v1/retrieve take them. The descriptions are what a model reads.
type retrieveParams struct {
	Query        string `json:"query" jsonschema:"What to look for, in the user's own words or yours (any language; Chinese works). Keywords and short phrases match best, e.g. 'trip to the seaside' or '想去海边玩'."`
	Limit        *int   `json:"limit,omitempty" jsonschema:"At most this many matching entries (hits), 1-1000. Linked entries come on top of them. Default 10."`
	BudgetTokens *int   `json:"budget_tokens,omitempty" jsonschema:"Cap on the estimated tokens of everything returned: entries are kept in order until the next one would exceed it (the first is always kept). Default 800. 0 means no cap."`
	ExpandLinks  *bool  `json:"expand_links,omitempty" jsonschema:"Also return the entries each hit links to with [[category:name]], right after it (one hop). Default true."`
	Explain      bool   `json:"explain,omitempty" jsonschema:"Also list the entries the token budget dropped, so you can ask again with a larger budget_tokens. Default false."`
}

// request turns the parameters into a retrieve.Request, applying the
// defaults of SPEC §7.
func (p retrieveParams) request() (retrieve.Request, error) {
	if strings.TrimSpace(p.Query) == "" {
		return retrieve.Request{}, &paramError{"query", "must not be empty"}
	}
	req := retrieve.Request{Query: p.Query, Limit: retrieve.DefaultLimit, Budget: retrieve.DefaultBudget, Explain: p.Explain}
	if p.Limit != nil {
		if *p.Limit < 1 || *p.Limit > maxLimit {
			return req, &paramError{"limit", fmt.Sprintf("must be between 1 and %d, got %d", maxLimit, *p.Limit)}
		}
		req.Limit = *p.Limit
	}
	if p.BudgetTokens != nil {
		switch b := *p.BudgetTokens; {
		case b < 0:
			return req, &paramError{"budget_tokens", fmt.Sprintf("must be 0 (no cap) or more, got %d", b)}
		case b == 0:
			req.Budget = retrieve.Unlimited
		default:
			req.Budget = b
		}
	}
	if p.ExpandLinks != nil && !*p.ExpandLinks {
		req.NoLinks = true
	}
	return req, nil
}

func (m *memory) retrieve(ctx context.Context, p retrieveParams) (*retrieve.Result, retrieve.Request, error) {
	req, err := p.request()
	if err != nil {
		return nil, req, err
	}
	res, err := m.eng.Retrieve(ctx, req)
	return res, req, err
}

// add writes an entry, like `recall add`: an update keeps the entry's
// metadata (created time, extra front matter keys) and its tags, unless
// tags is non-nil, which replaces them. It reports whether the entry is
// new. The write goes through the engine, so the index is patched, not
// rebuilt.
func (m *memory) add(ctx context.Context, category, name, content string, tags []string) (added bool, err error) {
	if err := store.ValidateKey(category, name); err != nil {
		return false, err
	}
	if err := store.ValidateContent(content); err != nil {
		return false, err
	}
	if tags != nil {
		if tags, err = cleanTagList(tags); err != nil {
			return false, err
		}
	}
	old, err := m.st.Get(ctx, category, name)
	switch {
	case errors.Is(err, store.ErrNotFound):
		added = true
	case errors.Is(err, fsstore.ErrMalformed):
		// A hand-edited file that cannot be parsed: replacing it is the
		// fix, but there is no metadata to keep.
		old = store.Entry{}
	case err != nil:
		return false, err
	}
	e := store.Entry{Category: category, Name: name, Content: content, Meta: old.Meta}
	e.Meta.Updated = time.Time{} // the backend stamps the write
	if tags != nil {
		e.Meta.Tags = tags
	}
	if err := m.eng.Put(ctx, e); err != nil {
		return false, err
	}
	m.fill(name, content)
	return added, nil
}

// cleanTagList rejects empty tags and drops repeats, keeping the first
// spelling's position.
func cleanTagList(tags []string) ([]string, error) {
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		if strings.TrimSpace(t) == "" {
			return nil, &paramError{"tags", "must not contain an empty tag"}
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, nil
}

func (m *memory) get(ctx context.Context, category, name string) (store.Entry, error) {
	if err := store.ValidateKey(category, name); err != nil {
		return store.Entry{}, err
	}
	e, err := m.st.Get(ctx, category, name)
	if errors.Is(err, store.ErrNotFound) {
		return e, notFound(category, name)
	}
	return e, err
}

func (m *memory) remove(ctx context.Context, category, name string) error {
	if err := store.ValidateKey(category, name); err != nil {
		return err
	}
	err := m.eng.Delete(ctx, category, name)
	if errors.Is(err, store.ErrNotFound) {
		return notFound(category, name)
	}
	return err
}

// list returns the entries (of one category, when category is not empty)
// sorted by category, then name, as `recall ls` does. Entries the store
// cannot read are logged and left out; skipped counts them.
func (m *memory) list(ctx context.Context, category string) (items []lsItem, skipped int, err error) {
	if category != "" {
		if err := store.ValidateName("category", category); err != nil {
			return nil, 0, err
		}
	}
	var entries []store.Entry
	err = eachEntry(ctx, m.st, func(e store.Entry) {
		if category == "" || e.Category == category {
			entries = append(entries, e)
		}
	}, func(err error) {
		skipped++
		m.logf("list: skipped %s", oneLine(err.Error()))
	})
	if err != nil {
		return nil, skipped, err
	}
	slices.SortFunc(entries, func(a, b store.Entry) int {
		return cmp.Or(strings.Compare(a.Category, b.Category), strings.Compare(a.Name, b.Name))
	})
	items = make([]lsItem, 0, len(entries))
	for _, e := range entries {
		items = append(items, lsItem{e.Category, e.Name, tokensEst(e), metaObject(e.Meta)})
	}
	return items, skipped, nil
}
