package service

import (
	"encoding/json"
	"io"
	"time"

	"github.com/recallhq/recall/store"
)

// Metadata keys of an entry's JSON form.
const (
	MetaTags    = "tags"
	MetaCreated = "created"
	MetaUpdated = "updated"
	MetaDate    = "date"
)

// Entry is the JSON form of an entry, shared by `recall get --json`, the
// HTTP API, the MCP get tool and `.jsonl` import, so that what one prints
// the other reads:
//
//	{"category":"trips","name":"三亚之行","content":"…","meta":{"tags":["海边"],"created":"2024-03-02T09:15:00Z","mood":"sunny"}}
//
// meta holds tags (a list of strings), created and updated (RFC 3339
// times), date (the event date: "2024-05-03" for a date without a time of
// day, else RFC 3339; absent when the entry has none) and every other key
// of store.Meta.Extra beside them.
type Entry struct {
	Category string         `json:"category"`
	Name     string         `json:"name"`
	Content  string         `json:"content"`
	Meta     map[string]any `json:"meta,omitempty"`
}

// EntryFor is the JSON form of e.
func EntryFor(e store.Entry) Entry {
	return Entry{Category: e.Category, Name: e.Name, Content: e.Content, Meta: MetaObject(e.Meta)}
}

// MetaObject flattens m into one JSON object; nil when m is empty.
func MetaObject(m store.Meta) map[string]any {
	if m.IsZero() {
		return nil
	}
	obj := make(map[string]any, len(m.Extra)+3)
	for k, v := range m.Extra {
		obj[k] = v
	}
	if len(m.Tags) > 0 {
		obj[MetaTags] = m.Tags
	}
	if !m.Created.IsZero() {
		obj[MetaCreated] = m.Created.Format(time.RFC3339Nano)
	}
	if !m.Updated.IsZero() {
		obj[MetaUpdated] = m.Updated.Format(time.RFC3339Nano)
	}
	if !m.Date.IsZero() {
		obj[MetaDate] = store.FormatDate(m.Date)
	}
	return obj
}

// WriteJSON writes v as JSON and a newline, with <, > and & left readable
// (no \u003c), as are CJK characters. indent "" writes one line.
func WriteJSON(w io.Writer, v any, indent string) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	return enc.Encode(v)
}
