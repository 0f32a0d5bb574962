package service

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/timeexpr"
)

// Change is the outcome of a write.
type Change struct {
	Category string `json:"category"`
	Name     string `json:"name"`
	// Status is "added", "updated" or "deleted".
	Status string `json:"status" jsonschema:"added, updated or deleted."`
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
	// Date, when not zero, sets the entry's event date (store.Meta.Date:
	// when the thing happened); zero keeps the entry's date on an update.
	// ParseDate reads the forms users type.
	Date time.Time
}

// Add writes an entry: the upsert rule of recall, the one place it lives.
// A new entry gets the content and tags. An update replaces the content,
// keeps the created time and every metadata key recall does not interpret,
// and keeps the tags unless req.Tags is non-nil. The read and the write
// are one atomic store.Update, so a concurrent tag change is never lost.
// An existing file the store cannot parse (store/fs.ErrMalformed) is
// replaced outright: there is no metadata to keep.
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
		if tags, err = CleanTags(tags); err != nil {
			return Change{}, err
		}
	}
	added, err := m.update(ctx, req.Category, req.Name, func(old store.Entry, found bool) (store.Entry, error) {
		e := store.Entry{Category: req.Category, Name: req.Name, Content: req.Content}
		if found {
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
		return e, nil
	})
	if unreadable(err) {
		e := store.Entry{Category: req.Category, Name: req.Name, Content: req.Content}
		e.Meta.Tags = tags
		e.Meta.Date = req.Date
		if err = m.eng.Put(ctx, e); err == nil {
			added = false
		}
	}
	if err != nil {
		return Change{}, err
	}
	return m.changeFor(req.Category, req.Name, req.Content, added), nil
}

// Append adds text at the end of an existing entry's content, as one
// atomic update; metadata is kept. When the content is not empty and does
// not end with a line break, a "\n" separates the two. Appending to a
// missing entry is an error wrapping store.ErrNotFound (use Add to create
// one), so a mistyped name does not start a stray entry.
func (m *Memory) Append(ctx context.Context, category, name, text string) (Change, error) {
	if err := store.ValidateKey(category, name); err != nil {
		return Change{}, err
	}
	if text == "" {
		return Change{}, paramf("text", "must not be empty")
	}
	if err := store.ValidateContent(text); err != nil {
		return Change{}, err
	}
	var content string
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
		content = e.Content
		return e, nil
	})
	if err != nil {
		return Change{}, err
	}
	return m.changeFor(category, name, content, false), nil
}

// Edit replaces the one occurrence of old in an entry's content by new,
// as one atomic update; metadata is kept. It fails, writing nothing, when
// old is empty, absent (ErrNoMatch) or occurs more than once
// (ErrAmbiguous; give more surrounding text), or the entry is missing.
func (m *Memory) Edit(ctx context.Context, category, name, old, new string) (Change, error) {
	if err := store.ValidateKey(category, name); err != nil {
		return Change{}, err
	}
	if old == "" {
		return Change{}, paramf("old_text", "must not be empty")
	}
	var content string
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
		content = e.Content
		return e, nil
	})
	if err != nil {
		return Change{}, err
	}
	return m.changeFor(category, name, content, false), nil
}

// Delete removes an entry; a missing one is an error wrapping
// store.ErrNotFound.
func (m *Memory) Delete(ctx context.Context, category, name string) (Change, error) {
	if err := store.ValidateKey(category, name); err != nil {
		return Change{}, err
	}
	err := m.eng.Delete(ctx, category, name)
	if errors.Is(err, store.ErrNotFound) {
		return Change{}, notFound(category, name)
	}
	if err != nil {
		return Change{}, err
	}
	return Change{Category: category, Name: name, Status: StatusDeleted}, nil
}

// changeFor reports a write and hands the new text to the vector fill.
func (m *Memory) changeFor(category, name, content string, added bool) Change {
	if m.fill != nil {
		m.fill.add(IndexedText(name, content))
	}
	c := Change{Category: category, Name: name, Status: StatusUpdated}
	if added {
		c.Status = StatusAdded
	}
	return c
}

// CleanTags rejects empty tags and drops repeats, keeping the first
// spelling's position: the rule of every entry point.
func CleanTags(tags []string) ([]string, error) {
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		if strings.TrimSpace(t) == "" {
			return nil, paramf("tags", "must not contain an empty tag")
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, nil
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
