package service

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/timeexpr"
)

// Listing is one listing of a store's entries as `recall ls` makes it:
// whole (List) without --limit or --cursor, all entries or one exact
// category's, optionally only those dated in a range or only the expired
// ones; or one page at a time (Page, over Memory.List).
type Listing struct {
	// Category, when set, is the one category listed.
	Category string
	// Read reads each entry whole, for the columns that need them; else
	// only names are listed where the store can (ListAll). A range or
	// Expired always reads.
	Read bool
	// Range keeps the entries whose effective date lies in it (ListDated).
	Range timeexpr.Range
	// Zone reads the dates in that zone; nil means the local zone.
	Zone *time.Location
	// Expired keeps only the entries whose expiry has passed.
	Expired bool
	// Now is the moment Expired and the expiry columns go by, one for the
	// whole listing; zero means the clock. It is read in Zone.
	Now time.Time
	// Long asks Page for the validity of the entries too, for the
	// columns of `recall ls --long`.
	Long bool
}

func (l Listing) zone() *time.Location { return cmp.Or(l.Zone, time.Local) }

func (l Listing) now() time.Time {
	if l.Now.IsZero() {
		return time.Now().In(l.zone())
	}
	return l.Now.In(l.zone())
}

// partial reports whether the listing can leave entries out, or lists
// them without their metadata.
func (l Listing) partial() bool {
	return !l.Read || l.Category != "" || l.Expired || !l.Range.From.IsZero() || !l.Range.To.IsZero()
}

// List returns the listing's entries, sorted by category, then name. The
// entries that cannot be read go to skip; only a failure of the walk as
// a whole is an error.
func (l Listing) List(ctx context.Context, st store.Store, skip func(error)) ([]store.Entry, error) {
	if l.Range.From.IsZero() && l.Range.To.IsZero() && !l.Expired {
		return ListAll(ctx, st, l.Category, l.Read, skip)
	}
	now := l.now()
	list, err := ListDated(ctx, st, l.Category, l.Range, l.zone(), skip)
	if err != nil || !l.Expired {
		return list, err
	}
	return slices.DeleteFunc(list, func(e store.Entry) bool { return !store.IsExpired(e.Meta, now) }), nil
}

// Validity is the validity of the listed entries (which supersede which,
// which have expired: retrieve.ValidityOf), worked out over the whole
// store when the listing can leave some out (an entry outside it can
// supersede one inside) or did not read them. Entries that cannot be read are left out of
// that walk silently (List has reported them). The time is the listing's
// now in its zone, for the expiry columns.
func (l Listing) Validity(ctx context.Context, st store.Store, entries []store.Entry) (*retrieve.Validity, time.Time, error) {
	all := entries
	if l.partial() {
		all = nil
		if err := EachEntry(ctx, st, func(e store.Entry) { all = append(all, e) }, func(error) {}); err != nil {
			return nil, time.Time{}, err
		}
	}
	return retrieve.ValidityOf(all), l.now(), nil
}

// Page returns one page of the listing (Memory.List of the listing's
// category, limit and cursor) and, with Long, the validity of the store's
// entries, the same as Validity works out for the whole listing: from m's
// index (retrieve.Engine.Validity), so that a page costs no walk of the
// store when the index is built or persisted. The validity is nil
// without Long, or when no entry carries a validity key.
func (l Listing) Page(ctx context.Context, m *Memory, limit int, cursor string) (ListPage, *retrieve.Validity, error) {
	p, err := m.List(ctx, ListRequest{Category: l.Category, Limit: limit, Cursor: cursor})
	if err != nil || !l.Long {
		return p, nil, err
	}
	snap, err := m.eng.Snapshot(ctx)
	if err != nil {
		return ListPage{}, nil, err
	}
	return p, m.eng.Validity(snap), nil
}
