package main

import (
	"encoding/json"
	"io"
	"time"

	"github.com/recallhq/recall/store"
)

// The JSON form of an entry is shared by `get --json`, `ls --json` (without
// content) and `import` of a .jsonl file (read by importer.ParseRecord), so
// that what get prints can be imported again:
//
//	{"category":"trips","name":"三亚之行","content":"…","meta":{"tags":["海边"],"created":"2024-03-02T09:15:00Z","mood":"sunny"}}
//
// meta holds tags (a list of strings), created and updated (RFC 3339
// times), and every other key of store.Meta.Extra beside them.

const (
	metaTags    = "tags"
	metaCreated = "created"
	metaUpdated = "updated"
)

// metaObject flattens m into one JSON object; nil when m is empty.
func metaObject(m store.Meta) map[string]any {
	if m.IsZero() {
		return nil
	}
	obj := make(map[string]any, len(m.Extra)+3)
	for k, v := range m.Extra {
		obj[k] = v
	}
	if len(m.Tags) > 0 {
		obj[metaTags] = m.Tags
	}
	if !m.Created.IsZero() {
		obj[metaCreated] = m.Created.Format(time.RFC3339Nano)
	}
	if !m.Updated.IsZero() {
		obj[metaUpdated] = m.Updated.Format(time.RFC3339Nano)
	}
	return obj
}

type entryJSON struct {
	Category string         `json:"category"`
	Name     string         `json:"name"`
	Content  string         `json:"content"`
	Meta     map[string]any `json:"meta,omitempty"`
}

// writeJSON writes v as JSON and a newline, with <, > and & left readable
// (no \u003c), as are CJK characters. indent "" writes one line.
func writeJSON(w io.Writer, v any, indent string) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	return enc.Encode(v)
}
