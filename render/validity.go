package render

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// WriteLongValidity is WriteLong with each entry's validity
// (docs/validity.md) in more columns, on the entries that have one:
// "superseded-by category:name", "supersedes a:x,b:y", and "expires
// DATE" or, when now is at or past it, "expired DATE". v is the validity
// of the entries (retrieve.ValidityOf); nil writes what WriteLong writes.
func WriteLongValidity(w io.Writer, entries []store.Entry, v *retrieve.Validity, now time.Time) error {
	for _, e := range entries {
		if _, err := fmt.Fprintln(w, longLine(e)+validityColumns(e.Category, e.Name, e.Meta, v, now)); err != nil {
			return err
		}
	}
	return nil
}

// validityColumns are the columns WriteLongValidity adds to the line of
// category:name, whose metadata m holds its expiry (an entry's, or a
// listed item's metadata object as Extra), each after a tab; "" for an
// entry without validity.
func validityColumns(category, name string, m store.Meta, v *retrieve.Validity, now time.Time) string {
	var line string
	if by, ok := v.SupersededBy(category, name); ok {
		line += "\tsuperseded-by " + service.Visible(by.String())
	}
	if xs := v.Supersedes(category, name); len(xs) > 0 {
		keys := make([]string, len(xs))
		for i, x := range xs {
			keys[i] = x.String()
		}
		line += "\tsupersedes " + service.Visible(strings.Join(keys, ","))
	}
	if t, err := store.Expires(m); err == nil && !t.IsZero() {
		word := "expires "
		if store.ExpiredAt(t, now) {
			word = "expired "
		}
		line += "\t" + word + store.FormatDate(t)
	}
	return line
}

// WriteValidityProblems writes one line per supersession cycle and per
// validity problem of v (a supersedes link to no entry, a key that could
// not be read), as `recall reindex` and `recall ls --long` report them:
//
//	supersession cycle: notes:a, notes:b; kept notes:b (most recently updated)
//	notes:c: supersedes [[notes:gone]], which names no entry
//
// It writes nothing for a nil v.
func WriteValidityProblems(w io.Writer, v *retrieve.Validity) error {
	for _, c := range v.Cycles() {
		names := make([]string, len(c.Entries))
		for i, k := range c.Entries {
			names[i] = service.Visible(k.String())
		}
		if _, err := fmt.Fprintf(w, "supersession cycle: %s; kept %s (most recently updated)\n",
			strings.Join(names, ", "), service.Visible(c.Kept.String())); err != nil {
			return err
		}
	}
	for _, p := range v.Problems() {
		var err error
		if p.Link != "" {
			_, err = fmt.Fprintf(w, "%s: supersedes %s, which names no entry\n", service.Visible(p.Entry.String()), service.Visible(p.Link))
		} else {
			_, err = fmt.Fprintf(w, "%s: ignored: %s\n", service.Visible(p.Entry.String()), service.Visible(p.Reason))
		}
		if err != nil {
			return err
		}
	}
	return nil
}
