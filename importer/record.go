package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/recallhq/recall/store"
)

// This file is the writing half of recall's JSONL codec; ParseRecord
// (jsonl.go) is the reading half. Everything that writes an entry as JSON
// (`recall export`, backups, `get --json`, the HTTP API and MCP through
// service.MetaObject) goes through MetaObject, so that what one writes the
// other reads, a metadata field included.

// MetaObject flattens m into the JSON object of a line's "meta": tags (a
// list of strings), created and updated (RFC 3339 with nanoseconds, in the
// time's own zone) and every key of m.Extra beside them. It is nil when m
// carries nothing. ParseRecord reads it back into an equal Meta.
func MetaObject(m store.Meta) map[string]any {
	if m.IsZero() {
		return nil
	}
	obj := make(map[string]any, len(m.Extra)+4)
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
	if !m.Date.IsZero() {
		obj[metaDate] = store.FormatDate(m.Date)
	}
	return obj
}

// line is one JSONL line as written: the four keys ParseRecord accepts.
type line struct {
	Category string         `json:"category"`
	Name     string         `json:"name"`
	Content  string         `json:"content"`
	Meta     map[string]any `json:"meta,omitempty"`
}

// AppendRecord appends e to dst as one JSONL line, newline included:
//
//	{"category":"trips","name":"三亚之行","content":"…","meta":{"created":"2024-03-02T09:15:00Z","tags":["海边"]}}
//
// Keys of meta are sorted, and <, > and & stay as they are (no \u003c),
// as do CJK characters. ParseRecord reads the line back into an entry
// equal to e (Equal). An error means a value of e.Meta.Extra that JSON
// cannot hold (a channel, a NaN), which no store yields.
func AppendRecord(dst []byte, e store.Entry) ([]byte, error) {
	buf := bytes.NewBuffer(dst)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(line{Category: e.Category, Name: e.Name, Content: e.Content, Meta: MetaObject(e.Meta)}); err != nil {
		return dst, fmt.Errorf("%s: %w", e.Key(), err)
	}
	return buf.Bytes(), nil
}
