package service

import (
	"encoding/json"
	"io"

	"github.com/recallhq/recall/importer"
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
//
// display_name, present only for a name mapped by SPEC §1's name mapping
// ("What is it%3F"), is the key as written ("Questions:What is it?",
// store.DisplayKey).
type Entry struct {
	Category    string         `json:"category"`
	Name        string         `json:"name"`
	DisplayName string         `json:"display_name,omitempty"`
	Content     string         `json:"content"`
	Meta        map[string]any `json:"meta,omitempty"`
}

// EntryFor is the JSON form of e.
func EntryFor(e store.Entry) Entry {
	return Entry{Category: e.Category, Name: e.Name, DisplayName: DisplayName(e.Key()), Content: e.Content, Meta: MetaObject(e.Meta)}
}

// DisplayName is k as written (store.DisplayKey) when that differs from
// its identity, else "": the display_name of JSON answers.
func DisplayName(k store.Key) string { return store.MappedDisplayKey(k) }

// MetaObject flattens m into one JSON object; nil when m is empty. It
// is importer.MetaObject, the one writer of recall's JSON metadata, so that
// what is printed here `recall import` reads back.
func MetaObject(m store.Meta) map[string]any { return importer.MetaObject(m) }

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
