package importer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/recallhq/recall/store"
)

// batchSize is how many new entries go to the store in one PutBatch.
const batchSize = 1024

// WriteOptions tune Plan.Write. The zero value is the default.
type WriteOptions struct {
	// Progress, when set, is called after each item with how many of the
	// plan's items are done. It runs on Write's goroutine.
	Progress func(done, total int)
}

// Report is what Write did.
type Report struct {
	Added     int // new identities
	Updated   int // existing entries that differed, replaced
	Unchanged int // existing entries equal to the item: not written
	// Rejected are items the store refused at write time (a limit only a
	// backend knows, such as the folder store's front matter size).
	Rejected []Skip
}

// Imported is Added + Updated.
func (r Report) Imported() int { return r.Added + r.Updated }

// Outcome is the verdict of an import of plan that wrote rep: an error
// when items were skipped and none was imported or found unchanged (an
// input that held nothing is not one), else nil.
func (p *Plan) Outcome(rep Report) error {
	skipped := len(p.Skipped) + len(rep.Rejected)
	if rep.Imported()+rep.Unchanged > 0 || skipped == 0 {
		return nil
	}
	if skipped == 1 {
		return errors.New("import: nothing imported, all 1 item was skipped")
	}
	return fmt.Errorf("import: nothing imported, all %d items were skipped", skipped)
}

// Write writes the plan's items to st, in order.
//
// An item whose identity exists is compared with the stored entry first
// (a folder store's file that cannot be parsed is simply replaced),
// inside store.Update: when content, tags, created, updated and the other
// metadata are all equal it is left alone (store.ErrNoChange: nothing
// written, the revision does not move), else it replaces the entry. A zero
// created or updated in the item means "whatever the store holds": an
// import that carries no times rewrites nothing on a second run, and an
// update keeps the entry's created time (updated is stamped by the store).
// Times an item took from its file (Item.CreatedFromFile,
// UpdatedFromFile: a note without them in its front matter) are no
// change either, so a copied, cloned or restored vault imported again
// rewrites nothing; an update keeps the stored created time unless the
// file's is earlier, so created never moves later.
// New identities go through store.Batcher when st offers it, a thousand
// per batch, else through Update one by one. Which identities are new is
// found by one listing of the store's keys (store.KeyLister) for a plan
// larger than a batch, else by a Get per item. (Between that check and
// the batch another writer may create the identity; the batch then
// replaces it, as Put would.)
//
// An item the store refuses as invalid is reported in Report.Rejected and
// the rest goes on; any other error (disk full, ctx cancelled, a closed
// store) stops the import and is returned, with the report of what was
// done before it.
func (p *Plan) Write(ctx context.Context, st store.Store, opts WriteOptions) (Report, error) {
	var (
		rep     Report
		done    int
		pending []Item // new identities waiting for a batch
	)
	total := len(p.Items)
	progress := func(n int) {
		done += n
		if opts.Progress != nil && n > 0 {
			opts.Progress(done, total)
		}
	}
	batcher, _ := st.(store.Batcher)
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		items := pending
		pending = pending[:0:0]
		entries := make([]store.Entry, len(items))
		for i, it := range items {
			entries[i] = it.Entry
		}
		err := batcher.PutBatch(ctx, entries)
		switch {
		case err == nil:
			rep.Added += len(items)
			progress(len(items))
			return nil
		case !errors.Is(err, store.ErrInvalid) || ctx.Err() != nil:
			return fmt.Errorf("import stopped at %s: %w", items[0].Where, err)
		}
		// One entry the store refuses refuses the batch: write these one by
		// one, so that the others land and the bad one is named.
		for _, it := range items {
			if err := p.writeOne(ctx, st, it, &rep); err != nil {
				return err
			}
			progress(1)
		}
		return nil
	}
	var known map[store.Key]bool
	if batcher != nil {
		var err error
		if known, err = listKeys(ctx, st, len(p.Items)); err != nil {
			return rep, err
		}
	}
	for i, it := range p.Items {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		if batcher != nil {
			isNew := false
			if known != nil {
				c, n := store.NormalizeKey(it.Entry.Category, it.Entry.Name)
				isNew = !known[store.Key{Category: c, Name: n}]
			} else {
				_, err := st.Get(ctx, it.Entry.Category, it.Entry.Name)
				isNew = errors.Is(err, store.ErrNotFound)
			}
			if isNew {
				pending = append(pending, it)
				if len(pending) == batchSize {
					if err := flush(); err != nil {
						return rep, err
					}
				}
				continue
			}
			// Found, or unreadable (a damaged file, say): Update decides.
		}
		if err := p.writeOne(ctx, st, it, &rep); err != nil {
			return rep, fmt.Errorf("%w (item %d of %d)", err, i+1, total)
		}
		progress(1)
	}
	if batcher != nil {
		if err := flush(); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// listKeys returns the identities st holds, listed once through
// store.KeyLister (no entry read), when st offers it and the plan of n
// items is larger than one batch; nil means "ask Get for each item".
// Items that map to no identity (a folder store's badly named file) are
// passed over: no item can clash with them.
func listKeys(ctx context.Context, st store.Store, n int) (map[store.Key]bool, error) {
	l, ok := st.(store.KeyLister)
	if !ok || n <= batchSize {
		return nil, nil
	}
	known := map[store.Key]bool{}
	for k, err := range l.Keys(ctx, "") {
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, store.ErrClosed) || errors.Is(err, store.ErrUnavailable) {
				return nil, fmt.Errorf("import: %w", err)
			}
			continue
		}
		known[k] = true
	}
	return known, nil
}

// keptCreated reports whether m keeps a created its file gives that
// recall cannot read (store.UnparsedKeys).
func keptCreated(m store.Meta) bool {
	vals, _ := store.UnparsedValues(m)
	_, ok := vals["created"]
	return ok
}

// writeOne adds, replaces or leaves one entry, counting it in rep.
func (p *Plan) writeOne(ctx context.Context, st store.Store, it Item, rep *Report) error {
	var outcome *int
	e := it.Entry
	err := st.Update(ctx, e.Category, e.Name, func(old store.Entry, found bool) (store.Entry, error) {
		if !found {
			outcome = &rep.Added
			return e, nil
		}
		want := e
		_, unparsed := e.Meta.Extra[store.UnparsedFrontMatter]
		unparsed = unparsed || keptCreated(e.Meta)
		if want.Meta.Created.IsZero() || it.CreatedFromFile && !old.Meta.Created.IsZero() && !old.Meta.Created.After(want.Meta.Created) ||
			it.CreatedFromFile && unparsed && old.Meta.Created.IsZero() {
			// (A folder store keeps no created for a note whose front
			// matter it keeps verbatim: the file's time is no change.)
			// A file's birth time is when this copy of the note was
			// made: never a reason to move created later.
			want.Meta.Created = old.Meta.Created
		}
		if want.Meta.Updated.IsZero() || it.UpdatedFromFile {
			// Nor is a modification time, without a change, a change.
			want.Meta.Updated = old.Meta.Updated
		}
		if Equal(old, want) {
			outcome = &rep.Unchanged
			return store.Entry{}, store.ErrNoChange
		}
		outcome = &rep.Updated
		next := e
		next.Meta.Created = want.Meta.Created
		return next, nil
	})
	if errors.Is(err, store.ErrUnreadable) && ctx.Err() == nil {
		// A stored entry that cannot be read (a bad hand edit, a damaged record): the
		// imported note replaces it, as `recall add` would.
		outcome = &rep.Updated
		err = st.Put(ctx, e)
	}
	switch {
	case err == nil:
		*outcome++
		return nil
	case errors.Is(err, store.ErrInvalid) && ctx.Err() == nil:
		rep.Rejected = append(rep.Rejected, Skip{Where: it.Where, Reason: oneLine(err.Error()), Rename: renameFor(err, e)})
		return nil
	default:
		return fmt.Errorf("import stopped at %s: %w", it.Where, err)
	}
}

// Equal reports whether two entries hold the same identity, content and
// metadata. Times compare as instants (a zone is no change); Extra values
// compare as JSON, so that the number types a backend's codec yields (5 as
// int or float64) are no change either.
func Equal(a, b store.Entry) bool {
	return a.Category == b.Category && a.Name == b.Name && a.Content == b.Content &&
		slices.Equal(a.Meta.Tags, b.Meta.Tags) &&
		a.Meta.Created.Equal(b.Meta.Created) && a.Meta.Updated.Equal(b.Meta.Updated) &&
		a.Meta.Date.Equal(b.Meta.Date) && store.IsDateOnly(a.Meta.Date) == store.IsDateOnly(b.Meta.Date) &&
		sameExtra(a.Meta.Extra, b.Meta.Extra)
}

func sameExtra(a, b map[string]any) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	if len(a) != len(b) {
		return false
	}
	a, b = keptText(a), keptText(b)
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	if errA != nil || errB != nil {
		return reflect.DeepEqual(a, b)
	}
	return string(ja) == string(jb)
}

// keptText is extra with the values kept under store.UnparsedKeys as
// their text alone: the line they were read from is where a file has
// them, which a folder store writing the note elsewhere changes, and no
// change of the note.
func keptText(extra map[string]any) map[string]any {
	vals, err := store.UnparsedValues(store.Meta{Extra: extra})
	if err != nil || vals == nil {
		return extra
	}
	texts := make(map[string]any, len(vals))
	for k, v := range vals {
		texts[k] = v.YAML
	}
	out := maps.Clone(extra)
	out[store.UnparsedKeys] = texts
	return out
}
