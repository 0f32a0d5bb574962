package service

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/timeexpr"
)

// Change is the outcome of a write.
type Change struct {
	Category string `json:"category"`
	Name     string `json:"name"`
	// Status is "added", "updated" or "deleted".
	Status string `json:"status" jsonschema:"added, updated or deleted."`
	// Replaced, set by Add on an update, describes the entry the write
	// replaced.
	Replaced *Replaced `json:"replaced,omitempty" jsonschema:"What an update replaced: check it is what you meant to overwrite."`
	// Duplicates, set by Add, names the entries ("category:name", in
	// identity order) whose content duplicates the written one's, exactly
	// or nearly (docs/duplicates.md). The write is never refused for it.
	Duplicates []string `json:"duplicates,omitempty" jsonschema:"Entries whose content is the same as (or nearly the same as) what you wrote. Nothing was refused or deleted; consider whether one of them should be updated, superseded or removed instead."`
}

// Replaced describes an entry as it was before Add replaced it.
type Replaced struct {
	// Bytes is the size of its content.
	Bytes int `json:"bytes" jsonschema:"The size of the replaced content, in bytes."`
	// FirstLine is its content's first non-blank line, cut to
	// MaxFirstLineBytes.
	FirstLine string `json:"first_line" jsonschema:"The first line of the replaced content."`
	// Tags are its tags.
	Tags []string `json:"tags,omitempty" jsonschema:"The tags the entry had."`
	// Unreadable is set when the store could not read it (a damaged
	// file): nothing is known about it but that it was there.
	Unreadable bool `json:"unreadable,omitempty" jsonschema:"True when the replaced entry could not be read."`
}

// MaxFirstLineBytes bounds Replaced.FirstLine.
const MaxFirstLineBytes = 200

func replacedFrom(e store.Entry) *Replaced {
	r := &Replaced{Bytes: len(e.Content), Tags: slices.Clone(e.Meta.Tags)}
	for l := range strings.Lines(e.Content) {
		if l = strings.TrimSpace(l); l != "" {
			r.FirstLine = l
			break
		}
	}
	if len(r.FirstLine) > MaxFirstLineBytes {
		cut := MaxFirstLineBytes
		for cut > 0 && !utf8.RuneStart(r.FirstLine[cut]) {
			cut--
		}
		r.FirstLine = r.FirstLine[:cut] + "…"
	}
	return r
}

// Statuses of a Change.
const (
	StatusAdded   = "added"
	StatusUpdated = "updated"
	StatusDeleted = "deleted"
)

// AddRequest is an upsert of one entry.
type AddRequest struct {
	Category, Name, Content string
	// Tags replace the entry's tags when non-nil (even empty); nil keeps
	// them on an update.
	Tags []string
	// IfAbsent makes Add fail with ErrExists, writing nothing, when the
	// entry exists (readable or not), instead of replacing it.
	IfAbsent bool
	// Date, when not zero, sets the entry's event date (store.Meta.Date:
	// when the thing happened); zero keeps the entry's date on an update.
	// ParseDate reads the forms users type.
	Date time.Time
	// Supersedes, when non-nil, replaces the entries this one supersedes
	// (store.MetaSupersedes: links such as "[[places:Paris flat]]", each
	// checked by store.SupersedesLink); empty removes the key, nil keeps
	// it on an update. See docs/validity.md.
	Supersedes []string
	// Expires, when not zero, sets the moment the entry stops being a hit
	// (store.MetaExpires; store.ParseExpires reads the forms users type);
	// zero keeps it on an update.
	Expires time.Time
}

// Add writes an entry: the upsert rule of recall, the one place it lives.
// A new entry gets the content and tags. An update replaces the content,
// keeps the created time and every metadata key recall does not interpret,
// and keeps the tags unless req.Tags is non-nil. The read and the write
// are one atomic store.Update, so a concurrent tag change is never lost.
// An existing entry the store cannot read (store.ErrUnreadable: a file
// with broken front matter, a bolt record that fails its checksum) is
// replaced outright: there is no metadata to keep.
// An update's Change says what was replaced (Replaced); with
// req.IfAbsent an existing entry is an error wrapping ErrExists instead.
func (m *Memory) Add(ctx context.Context, req AddRequest) (Change, error) {
	if err := store.ValidateKey(req.Category, req.Name); err != nil {
		return Change{}, err
	}
	if err := store.ValidateContent(req.Content); err != nil {
		return Change{}, err
	}
	tags := req.Tags
	if tags != nil {
		var err error
		if tags, err = store.CleanTags(tags); err != nil {
			return Change{}, err
		}
	}
	validity, err := validityMeta(req)
	if err != nil {
		return Change{}, err
	}
	var replaced *Replaced
	added, err := m.update(ctx, req.Category, req.Name, func(old store.Entry, found bool) (store.Entry, error) {
		replaced = nil // fn may run again: the last run's entry is the one replaced
		if found && req.IfAbsent {
			return store.Entry{}, existsError(req.Category, req.Name)
		}
		e := store.Entry{Category: req.Category, Name: req.Name, Content: req.Content}
		if found {
			replaced = replacedFrom(old)
			e.Meta = old.Meta
			e.Meta.Tags = slices.Clone(old.Meta.Tags)
		}
		e.Meta.Updated = time.Time{} // the backend stamps the write
		if tags != nil {
			e.Meta.Tags = tags
		}
		if !req.Date.IsZero() {
			e.Meta.Date = req.Date
			if _, ok := e.Meta.Extra[MetaDate]; ok {
				e.Meta.Extra = maps.Clone(e.Meta.Extra)
				delete(e.Meta.Extra, MetaDate)
			}
		}
		e.Meta.Extra = validity.apply(e.Meta.Extra)
		return e, nil
	})
	if unreadable(err) {
		if req.IfAbsent {
			return Change{}, fmt.Errorf("%w (and cannot be read: %w)", existsError(req.Category, req.Name), err)
		}
		e := store.Entry{Category: req.Category, Name: req.Name, Content: req.Content}
		e.Meta.Tags = tags
		e.Meta.Date = req.Date
		e.Meta.Extra = validity.apply(nil)
		if err = m.eng.Put(ctx, e); err == nil {
			added, replaced = false, &Replaced{Unreadable: true}
		}
	}
	if err != nil {
		return Change{}, err
	}
	c := m.changeFor(req.Category, req.Name, added)
	c.Replaced = replaced // nil when added: set only for an entry found
	c.Duplicates = m.duplicatesOf(ctx, req.Category, req.Name)
	return c, nil
}

// Append adds text at the end of an existing entry's content, as one
// atomic update; metadata is kept. When the content is not empty and does
// not end with a line break, a "\n" separates the two. Appending to a
// missing entry is an error wrapping store.ErrNotFound (use Add to create
// one), so a mistyped name does not start a stray entry.
func (m *Memory) Append(ctx context.Context, category, name, text string) (Change, error) {
	category, name, invalid := m.lookupKey(ctx, category, name)
	if err := store.ValidateKey(category, name); err != nil {
		return Change{}, notFoundAs(err, invalid)
	}
	if text == "" {
		return Change{}, paramf("text", "must not be empty")
	}
	if err := store.ValidateContent(text); err != nil {
		return Change{}, err
	}
	_, err := m.update(ctx, category, name, func(old store.Entry, found bool) (store.Entry, error) {
		if !found {
			return old, notFound(category, name)
		}
		e := old
		e.Meta.Tags = slices.Clone(old.Meta.Tags)
		e.Meta.Updated = time.Time{}
		sep := ""
		if e.Content != "" && !strings.HasSuffix(e.Content, "\n") {
			sep = "\n"
		}
		e.Content += sep + text
		return e, nil
	})
	if err != nil {
		return Change{}, notFoundAs(err, invalid)
	}
	return m.changeFor(category, name, false), nil
}

// Edit replaces the one occurrence of old in an entry's content by new,
// as one atomic update; metadata is kept. It fails, writing nothing, when
// old is empty, absent (ErrNoMatch) or occurs more than once
// (ErrAmbiguous; give more surrounding text), or the entry is missing.
func (m *Memory) Edit(ctx context.Context, category, name, old, new string) (Change, error) {
	category, name, invalid := m.lookupKey(ctx, category, name)
	if err := store.ValidateKey(category, name); err != nil {
		return Change{}, notFoundAs(err, invalid)
	}
	if old == "" {
		return Change{}, paramf("old_text", "must not be empty")
	}
	_, err := m.update(ctx, category, name, func(cur store.Entry, found bool) (store.Entry, error) {
		if !found {
			return cur, notFound(category, name)
		}
		switch n := strings.Count(cur.Content, old); {
		case n == 0:
			return cur, &ParamError{Field: "old_text", Reason: "does not occur in " + cur.Key().String() + "'s content", Err: ErrNoMatch}
		case n > 1:
			return cur, &ParamError{Field: "old_text", Reason: fmt.Sprintf("occurs %d times in %s's content; include more of the surrounding text so it occurs once", n, cur.Key()), Err: ErrAmbiguous}
		}
		e := cur
		e.Meta.Tags = slices.Clone(cur.Meta.Tags)
		e.Meta.Updated = time.Time{}
		e.Content = strings.Replace(cur.Content, old, new, 1)
		if err := store.ValidateContent(e.Content); err != nil {
			return cur, err
		}
		return e, nil
	})
	if err != nil {
		return Change{}, notFoundAs(err, invalid)
	}
	return m.changeFor(category, name, false), nil
}

// Delete removes an entry; a missing one is an error wrapping
// store.ErrNotFound.
func (m *Memory) Delete(ctx context.Context, category, name string) (Change, error) {
	category, name, invalid := m.lookupKey(ctx, category, name)
	if err := store.ValidateKey(category, name); err != nil {
		return Change{}, notFoundAs(err, invalid)
	}
	err := m.eng.Delete(ctx, category, name)
	if errors.Is(err, store.ErrNotFound) && invalid != nil {
		return Change{}, invalid
	}
	if errors.Is(err, store.ErrNotFound) {
		return Change{}, notFound(category, name)
	}
	if err != nil {
		return Change{}, err
	}
	return Change{Category: category, Name: name, Status: StatusDeleted}, nil
}

// changeFor reports a write. The vector fill hears of it from the
// engine's change hook, as of every other write.
func (m *Memory) changeFor(category, name string, added bool) Change {
	c := Change{Category: category, Name: name, Status: StatusUpdated}
	if added {
		c.Status = StatusAdded
	}
	return c
}

// ParseDate reads an event date as users write it: "2024-05-03" (a date
// without a time of day, kept as one: midnight UTC, see store.IsDateOnly)
// or an RFC 3339 time (timeexpr.ParseDate). The error names the field and
// what is wrong.
func ParseDate(field, s string) (time.Time, error) {
	t, err := timeexpr.ParseDate(s, time.UTC)
	if err != nil {
		return time.Time{}, &ParamError{Field: field, Reason: err.Error()}
	}
	return t, nil
}
