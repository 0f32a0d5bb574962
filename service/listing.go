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

// Listing is one listing of a store's entries, whole (not a page), as
// `recall ls` makes it without --limit or --cursor: all entries or one
// exact category's, optionally only those dated in a range or only the
// expired ones. For one page at a time, see Memory.List.
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
}

func (l Listing) zone() *time.Location { return cmp.Or(l.Zone, time.Local) }

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
	now := time.Now().In(l.zone())
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
// that walk silently (List has reported them). The time is now in the
// listing's zone, for the expiry columns.
func (l Listing) Validity(ctx context.Context, st store.Store, entries []store.Entry) (*retrieve.Validity, time.Time, error) {
	all := entries
	if l.partial() {
		all = nil
		if err := EachEntry(ctx, st, func(e store.Entry) { all = append(all, e) }, func(error) {}); err != nil {
			return nil, time.Time{}, err
		}
	}
	return retrieve.ValidityOf(all), time.Now().In(l.zone()), nil
}
