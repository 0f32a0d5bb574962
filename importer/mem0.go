package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/recallhq/recall/store"
)

// A mem0 memory as get_all returns it (see FormatMem0).
type mem0Memory struct {
	ID         *string        `json:"id"`
	Memory     *string        `json:"memory"`
	UserID     string         `json:"user_id"`
	AgentID    string         `json:"agent_id"`
	Metadata   map[string]any `json:"metadata"`
	Categories []string       `json:"categories"`
	CreatedAt  string         `json:"created_at"`
	UpdatedAt  string         `json:"updated_at"`
}

// readMem0 reads mem0 memories, an array or {"results": [...]}: each is
// an entry named by its id, the memory text its content, its categories
// its tags, created_at and updated_at its times, and user_id, agent_id
// and metadata kept as metadata keys.
func readMem0(ctx context.Context, r io.Reader, name, category string) (*Plan, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		var wrapped struct {
			Results json.RawMessage `json:"results"`
		}
		if err := json.Unmarshal(t, &wrapped); err != nil {
			return nil, fmt.Errorf("%s: %w", name, jsonReason(err))
		}
		if wrapped.Results == nil {
			return nil, fmt.Errorf("%s: an object without \"results\": not mem0's memories", name)
		}
		data = wrapped.Results
	}
	return readArray(ctx, bytes.NewReader(data), name, func(raw json.RawMessage) (store.Entry, error) {
		var m mem0Memory
		if err := json.Unmarshal(raw, &m); err != nil {
			return store.Entry{}, jsonReason(err)
		}
		if m.ID == nil || *m.ID == "" {
			return store.Entry{}, errors.New("memory without an id")
		}
		if m.Memory == nil {
			return store.Entry{}, errors.New("no memory text")
		}
		created, err := parseRFC3339("created_at", m.CreatedAt)
		if err != nil {
			return store.Entry{}, err
		}
		updated, err := parseRFC3339("updated_at", m.UpdatedAt)
		if err != nil {
			return store.Entry{}, err
		}
		if updated.IsZero() {
			updated = created
		}
		tags, err := cleanTags(m.Categories)
		if err != nil {
			return store.Entry{}, fmt.Errorf("categories: %w", err)
		}
		extra := map[string]any{"source": "mem0"}
		if m.UserID != "" {
			extra["user_id"] = m.UserID
		}
		if m.AgentID != "" {
			extra["agent_id"] = m.AgentID
		}
		if len(m.Metadata) > 0 {
			extra["metadata"] = m.Metadata
		}
		return store.Entry{Category: category, Name: *m.ID, Content: *m.Memory,
			Meta: store.Meta{Tags: tags, Created: created, Updated: updated, Extra: extra}}, nil
	})
}
