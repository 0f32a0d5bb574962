package setup

import (
	"fmt"
	"time"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// List is a listing's settings as a person gives them (recall ls's
// argument and flags).
type List struct {
	Category   string // the one category listed; "" lists all
	Long, JSON bool   // --long, --json: the columns need whole entries
	// Limit and Cursor (--limit, --cursor) ask for one page of the list;
	// LimitGiven says --limit was given.
	Limit      int
	LimitGiven bool
	Cursor     string
	Time       Time // --after, --before (and --tz)
	Expired    bool // --expired
}

// Paged reports whether l asks for one page (service.Memory.List) rather
// than the whole list.
func (l List) Paged() bool { return l.LimitGiven || l.Cursor != "" }

// Listing checks l and returns the whole list's settings; with Paged, the
// page's are l.Category, l.Limit and l.Cursor. A category that is not a
// valid name is the store's error (store.ValidateName); a setting at fault
// is an *Error naming its flag.
func (l List) Listing() (service.Listing, error) {
	category := l.Category
	if category != "" {
		if err := store.ValidateName("category", category); err != nil {
			return service.Listing{}, err
		}
		category, _ = store.NormalizeKey(category, "") // NFC, as stored
	}
	zone, dates, err := l.Time.Parse()
	if err != nil {
		return service.Listing{}, err
	}
	switch {
	case (l.Time.After != "" || l.Time.Before != "") && l.Paged():
		return service.Listing{}, &Error{"--after", "--after and --before do not combine with --limit or --cursor"}
	case l.Expired && l.Paged():
		return service.Listing{}, &Error{"--expired", "--expired does not combine with --limit or --cursor"}
	case !dates.From.IsZero() && !dates.To.IsZero() && !dates.From.Before(dates.To):
		return service.Listing{}, &Error{"--before", fmt.Sprintf("--before (%s) must be later than --after (%s)", l.Time.Before, l.Time.After)}
	case l.Paged() && (l.Limit < 1 || l.Limit > service.MaxListLimit):
		return service.Listing{}, &Error{"--limit", fmt.Sprintf("--limit must be between 1 and %d, got %d", service.MaxListLimit, l.Limit)}
	}
	// Names only, unless the columns need the entries: no entry is read
	// where the store can list them.
	// One now for the listing, in its zone (--tz): the --expired filter and
	// the expiry columns, of the whole list or of a page.
	now := time.Now()
	if zone != nil {
		now = now.In(zone)
	}
	return service.Listing{Category: category, Read: l.JSON || l.Long, Range: dates, Zone: zone, Expired: l.Expired,
		Now: now, Long: l.Long && !l.JSON}, nil
}
