package service

import (
	"cmp"
	"container/heap"
	"context"
	"encoding/base64"
	"errors"
	"iter"
	"slices"
	"strings"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/store"
)

// List bounds. A page is small enough for a prompt and cheap to build at
// any store size; the cursor walks the rest.
const (
	DefaultListLimit = 200
	MaxListLimit     = 10000
)

// Get returns one entry.
func (m *Memory) Get(ctx context.Context, category, name string) (store.Entry, error) {
	category, name, invalid := m.lookupKey(ctx, category, name)
	if err := store.ValidateKey(category, name); err != nil {
		return store.Entry{}, notFoundAs(err, invalid)
	}
	e, err := m.st.Get(ctx, category, name)
	if errors.Is(err, store.ErrNotFound) && invalid != nil {
		return e, invalid
	}
	if errors.Is(err, store.ErrNotFound) {
		if aerr := m.available(); aerr != nil {
			return e, aerr
		}
		return e, notFound(category, name)
	}
	return e, err
}

// ListRequest asks for one page of entries.
type ListRequest struct {
	// Category, when not empty, keeps the entries of exactly that category.
	Category string
	// Limit caps the page; 0 means DefaultListLimit, at most MaxListLimit.
	Limit int
	// Cursor continues after the page that returned it as NextCursor; ""
	// starts at the beginning.
	Cursor string
}

// ListItem is one entry of a list, without its content: the shape of
// `recall ls --json`.
type ListItem struct {
	Category string `json:"category"`
	Name     string `json:"name"`
	// DisplayName: see Entry.
	DisplayName string         `json:"display_name,omitempty"`
	TokensEst   int            `json:"tokens_est"`
	Meta        map[string]any `json:"meta,omitempty"`
}

// ListPage is one page of entries sorted by category, then name (byte
// order).
type ListPage struct {
	Entries []ListItem `json:"entries"`
	// Total counts the entries the request matches, on every page.
	Total int `json:"total"`
	// NextCursor, when not empty, fetches the next page.
	NextCursor string `json:"next_cursor,omitempty"`
	// Skipped counts entries the store could not read (a hand-edited file
	// with broken front matter); they are left out. See List for which
	// entries it covers.
	Skipped int `json:"skipped,omitempty"`
}

// List returns one page of entries. A server (after Start) pages its
// index: the cost is one pass over the index in memory plus a read of the
// page's metadata, whatever the store's size: one call when the store is
// a store.MetaReader (PostgreSQL: one query, no content read), else one
// Get per entry of the page. Without a built index
// List walks the store's keys (store.KeyLister: no entry read) and reads
// the page's entries; then Total counts entries whose content is damaged
// too, and Skipped the items that cannot be mapped plus the page's
// entries that cannot be read. A store without that capability is read
// whole, once.
func (m *Memory) List(ctx context.Context, req ListRequest) (ListPage, error) {
	if req.Category != "" {
		if err := store.ValidateName("category", req.Category); err != nil {
			return ListPage{}, err
		}
		req.Category, _ = store.NormalizeKey(req.Category, "") // NFC, as stored
	}
	limit := req.Limit
	switch {
	case limit == 0:
		limit = DefaultListLimit
	case limit < 1 || limit > MaxListLimit:
		return ListPage{}, paramf("limit", "must be between 1 and %d, got %d", MaxListLimit, limit)
	}
	after, err := parseCursor(req.Cursor)
	if err != nil {
		return ListPage{}, err
	}
	if err := m.available(); err != nil {
		return ListPage{}, err
	}
	sel := &keyHeap{limit: limit}
	var page ListPage
	match := func(k store.Key) bool {
		if req.Category != "" && k.Category != req.Category {
			return false
		}
		page.Total++
		return req.Cursor == "" || compareKeys(k, after) > 0
	}
	if m.indexed.Load() {
		snap, err := m.eng.Snapshot(ctx)
		if err != nil {
			return ListPage{}, err
		}
		snap.Docs(func(d *index.Doc) bool {
			if k := (store.Key{Category: d.Category, Name: d.Name}); match(k) {
				sel.offer(pageEntry{key: k, tokens: d.TokensEst(), content: d.Content})
			}
			return true
		})
		page.Skipped = m.eng.Unreadable()
		sorted := sel.sorted()
		metas, err := m.pageMetas(ctx, sorted)
		if err != nil {
			return ListPage{}, err
		}
		for i, p := range sorted {
			switch err := metas[i].Err; {
			case err == nil:
				page.Entries = append(page.Entries, ListItem{p.key.Category, p.key.Name, DisplayName(p.key), p.tokens, listMeta(p.content, metas[i].Meta)})
			case errors.Is(err, store.ErrNotFound): // deleted since the snapshot
			case unreadable(err):
				page.Skipped++
				m.logf("list: skipped %s", OneLine(err.Error()))
			default:
				return ListPage{}, err
			}
		}
	} else if _, ok := m.st.(store.KeyLister); ok {
		// No index yet: list the keys without reading the entries, then
		// read the page's.
		err := EachKey(ctx, m.st, req.Category, func(k store.Key) {
			if match(k) {
				sel.offer(pageEntry{key: k})
			}
		}, func(err error) {
			page.Skipped++
			m.logf("list: skipped %s", OneLine(err.Error()))
		})
		if err != nil {
			return ListPage{}, err
		}
		for _, p := range sel.sorted() {
			e, err := m.st.Get(ctx, p.key.Category, p.key.Name)
			switch {
			case err == nil:
				page.Entries = append(page.Entries, ListItem{p.key.Category, p.key.Name, DisplayName(p.key), TokensEst(e), listMeta(e.Content, e.Meta)})
			case errors.Is(err, store.ErrNotFound): // deleted since the listing
			case unreadable(err):
				page.Skipped++
				m.logf("list: skipped %s", OneLine(err.Error()))
			default:
				return ListPage{}, err
			}
		}
	} else {
		err := EachEntry(ctx, m.st, func(e store.Entry) {
			if match(e.Key()) {
				sel.offer(pageEntry{key: e.Key(), tokens: TokensEst(e), meta: e.Meta})
			}
		}, func(err error) {
			page.Skipped++
			m.logf("list: skipped %s", OneLine(err.Error()))
		})
		if err != nil {
			return ListPage{}, err
		}
		for _, p := range sel.sorted() {
			page.Entries = append(page.Entries, ListItem{p.key.Category, p.key.Name, DisplayName(p.key), p.tokens, MetaObject(p.meta)})
		}
	}
	if page.Entries == nil {
		page.Entries = []ListItem{}
	}
	if sel.more && len(sel.items) > 0 {
		last := sel.items[len(sel.items)-1].key
		page.NextCursor = makeCursor(last)
	}
	return page, nil
}

// CategoryCount is a category and how many entries it holds.
type CategoryCount struct {
	Category string `json:"category"`
	Count    int    `json:"count"`
}

// Categories lists every category with its number of entries, sorted by
// category. Like List, a server counts from its index.
func (m *Memory) Categories(ctx context.Context) ([]CategoryCount, error) {
	if err := m.available(); err != nil {
		return nil, err
	}
	counts := map[string]int{}
	if m.indexed.Load() {
		snap, err := m.eng.Snapshot(ctx)
		if err != nil {
			return nil, err
		}
		snap.Docs(func(d *index.Doc) bool {
			counts[d.Category]++
			return true
		})
	} else if err := EachEntry(ctx, m.st, func(e store.Entry) { counts[e.Category]++ }, func(error) {}); err != nil {
		return nil, err
	}
	out := make([]CategoryCount, 0, len(counts))
	for c, n := range counts {
		out = append(out, CategoryCount{c, n})
	}
	slices.SortFunc(out, func(a, b CategoryCount) int { return strings.Compare(a.Category, b.Category) })
	return out, nil
}

// pageMetas reads the metadata of a page's entries: in one call when the
// store reads metadata apart from content (store.MetaReader: PostgreSQL,
// one query per page), else with one Get each.
func (m *Memory) pageMetas(ctx context.Context, page []pageEntry) ([]store.MetaResult, error) {
	keys := make([]store.Key, len(page))
	for i, p := range page {
		keys[i] = p.key
	}
	if mr, ok := m.st.(store.MetaReader); ok {
		return mr.Metas(ctx, keys)
	}
	out := make([]store.MetaResult, len(keys))
	for i, k := range keys {
		e, err := m.st.Get(ctx, k.Category, k.Name)
		out[i] = store.MetaResult{Meta: e.Meta, Err: err}
		if err != nil && !errors.Is(err, store.ErrNotFound) && !unreadable(err) {
			return nil, err
		}
	}
	return out, nil
}

// TokensEst is the estimate retrieve charges against the budget for e.
func TokensEst(e store.Entry) int { return index.EstTokens(e.Name + "\n" + e.Content) }

// EachEntry walks the store, passing entries to fn and unreadable ones to
// skip. Only a failure of the walk as a whole (a cancelled context, a
// closed or unavailable store) ends it with an error.
func EachEntry(ctx context.Context, st store.Store, fn func(store.Entry), skip func(error)) error {
	return each(ctx, st.All(ctx), fn, skip)
}

// each passes the items of seq to fn and its error items to skip, and
// ends with the error of a walk that failed as a whole (a cancelled
// context, a closed store).
func each[T any](ctx context.Context, seq iter.Seq2[T, error], fn func(T), skip func(error)) error {
	for v, err := range seq {
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, store.ErrClosed) || errors.Is(err, store.ErrUnavailable) {
				return err // the walk as a whole failed: not one item
			}
			skip(err)
			continue
		}
		fn(v)
	}
	return ctx.Err()
}

// EachKey walks the identities of the store, or of one exact category
// when category is not empty, passing them to fn and the items that cannot
// be mapped to skip. It reads no entry where the store is a
// store.KeyLister (every backend of this module), so an entry whose content
// is damaged is passed to fn like any other; elsewhere it walks All and
// skips those too. Only a failure of the walk as a whole (a cancelled
// context, a closed or unavailable store) ends it with an error.
func EachKey(ctx context.Context, st store.Store, category string, fn func(store.Key), skip func(error)) error {
	l, ok := st.(store.KeyLister)
	if !ok {
		return EachEntry(ctx, st, func(e store.Entry) {
			if category == "" || e.Category == category {
				fn(e.Key())
			}
		}, skip)
	}
	return each(ctx, l.Keys(ctx, category), fn, skip)
}

func compareKeys(a, b store.Key) int {
	return cmp.Or(strings.Compare(a.Category, b.Category), strings.Compare(a.Name, b.Name))
}

// A cursor is the last key of a page, category and name joined by a NUL
// (which neither may hold), base64url-encoded: opaque to clients, stable
// across writes (the next page starts after that key, wherever it is).
func makeCursor(k store.Key) string {
	return base64.RawURLEncoding.EncodeToString([]byte(k.Category + "\x00" + k.Name))
}

func parseCursor(c string) (store.Key, error) {
	if c == "" {
		return store.Key{}, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	cat, name, ok := strings.Cut(string(b), "\x00")
	if err != nil || !ok || cat == "" || name == "" {
		return store.Key{}, paramf("cursor", "is not a cursor a list returned")
	}
	return store.Key{Category: cat, Name: name}, nil
}

type pageEntry struct {
	key     store.Key
	tokens  int
	meta    store.Meta
	content string // the indexed content, for its inline tags (listMeta)
}

// keyHeap keeps the limit smallest keys offered: a max-heap whose top is
// the largest kept key. more records that a key was left out.
type keyHeap struct {
	limit int
	items []pageEntry
	more  bool
}

func (h *keyHeap) Len() int           { return len(h.items) }
func (h *keyHeap) Less(i, j int) bool { return compareKeys(h.items[i].key, h.items[j].key) > 0 }
func (h *keyHeap) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *keyHeap) Push(x any)         { h.items = append(h.items, x.(pageEntry)) }
func (h *keyHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

func (h *keyHeap) offer(p pageEntry) {
	if len(h.items) < h.limit {
		heap.Push(h, p)
		return
	}
	h.more = true
	if compareKeys(p.key, h.items[0].key) < 0 {
		h.items[0] = p
		heap.Fix(h, 0)
	}
}

// sorted returns the kept keys in ascending order (and leaves them so).
func (h *keyHeap) sorted() []pageEntry {
	slices.SortFunc(h.items, func(a, b pageEntry) int { return compareKeys(a.key, b.key) })
	return h.items
}
