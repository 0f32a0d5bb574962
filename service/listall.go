package service

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/timeexpr"
)

// ListAll returns every entry of st, or of one exact category when
// category is not empty, sorted by category, then name (bytewise), as
// `recall ls` lists them without --limit. With read, each entry is read
// whole (EachEntry) and those that cannot be read go to skip; without, only
// identities are listed (EachKey: no entry is read where the store can
// list names, so a damaged one is listed too) and each entry holds only
// its Category and Name. Only a failure of the walk as a whole is an
// error. For one page at a time, see Memory.List.
func ListAll(ctx context.Context, st store.Store, category string, read bool, skip func(error)) ([]store.Entry, error) {
	var (
		entries []store.Entry
		err     error
	)
	if read {
		err = EachEntry(ctx, st, func(e store.Entry) {
			if category == "" || e.Category == category {
				entries = append(entries, e)
			}
		}, skip)
	} else {
		err = EachKey(ctx, st, category, func(k store.Key) {
			entries = append(entries, store.Entry{Category: k.Category, Name: k.Name})
		}, skip)
	}
	if err != nil {
		return nil, err
	}
	sortEntries(entries)
	return entries, nil
}

// ListDated returns the entries of st, or of one exact category when
// category is not empty, whose effective date read in loc
// (store.EffectiveDate: the event date, else the created time) lies in r,
// sorted as ListAll sorts them (`recall ls --after/--before`). Every entry
// is read; those that cannot be read go to skip. Only a failure of the
// walk as a whole is an error.
func ListDated(ctx context.Context, st store.Store, category string, r timeexpr.Range, loc *time.Location, skip func(error)) ([]store.Entry, error) {
	var entries []store.Entry
	err := EachEntry(ctx, st, func(e store.Entry) {
		if (category == "" || e.Category == category) && store.InRange(e.Meta, r.From, r.To, loc) {
			entries = append(entries, e)
		}
	}, skip)
	if err != nil {
		return nil, err
	}
	sortEntries(entries)
	return entries, nil
}

// sortEntries sorts by category, then name, bytewise.
func sortEntries(entries []store.Entry) {
	slices.SortFunc(entries, func(a, b store.Entry) int {
		return cmp.Or(strings.Compare(a.Category, b.Category), strings.Compare(a.Name, b.Name))
	})
}

// ListItemOf is e as a listing shows it (`recall ls --json`, a page of
// Memory.List).
func ListItemOf(e store.Entry) ListItem {
	return ListItem{Category: e.Category, Name: e.Name, DisplayName: DisplayName(e.Key()), TokensEst: TokensEst(e), Meta: listMeta(e.Content, e.Meta)}
}

// listMeta is the metadata a listing shows of an entry with content and
// meta: MetaObject(meta) with the tags a tag filter goes by
// (store.EntryTags: meta's, then the content's inline #tags). It is
// MetaObject(meta) itself for content without inline tags.
func listMeta(content string, meta store.Meta) map[string]any {
	meta.Tags = store.EntryTags(store.Entry{Content: content, Meta: meta})
	return MetaObject(meta)
}
