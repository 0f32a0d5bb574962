package importer

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/recallhq/recall/store"
)

// A claude.ai conversation as conversations.json holds it (see
// FormatClaude).
type claudeConversation struct {
	UUID         string          `json:"uuid"`
	Name         string          `json:"name"`
	CreatedAt    string          `json:"created_at"`
	UpdatedAt    string          `json:"updated_at"`
	ChatMessages []claudeMessage `json:"chat_messages"`
}

type claudeMessage struct {
	Sender    string `json:"sender"`
	CreatedAt string `json:"created_at"`
	Text      string `json:"text"`
	Content   []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Attachments []struct {
		FileName         string `json:"file_name"`
		ExtractedContent string `json:"extracted_content"`
	} `json:"attachments"`
}

// claudeEntry makes one entry of a conversation: its name (and uuid) as
// the entry's name, created_at and updated_at as created and updated,
// its messages in order as content (a message's text blocks, else its
// text; an attachment's extracted text in a fenced block after it).
func claudeEntry(raw json.RawMessage, category string) (store.Entry, error) {
	var c claudeConversation
	if err := json.Unmarshal(raw, &c); err != nil {
		return store.Entry{}, jsonReason(err)
	}
	if c.ChatMessages == nil && c.UUID == "" {
		return store.Entry{}, errors.New("no uuid and no chat_messages: not a Claude conversation")
	}
	created, err := parseRFC3339("created_at", c.CreatedAt)
	if err != nil {
		return store.Entry{}, err
	}
	updated, err := parseRFC3339("updated_at", c.UpdatedAt)
	if err != nil {
		return store.Entry{}, err
	}
	if updated.IsZero() {
		updated = created
	}
	var t transcript
	for i, m := range c.ChatMessages {
		at, err := parseRFC3339(fmt.Sprintf("chat_messages[%d].created_at", i), m.CreatedAt)
		if err != nil {
			return store.Entry{}, err
		}
		var text []string
		for _, b := range m.Content {
			if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
				text = append(text, b.Text)
			}
		}
		if len(text) == 0 && m.Text != "" {
			text = append(text, m.Text)
		}
		for _, a := range m.Attachments {
			text = append(text, "Attachment: "+a.FileName)
			if a.ExtractedContent != "" {
				text = append(text, "```\n"+strings.TrimRight(a.ExtractedContent, "\n")+"\n```")
			}
		}
		t.add(speaker(m.Sender), at, strings.Join(text, "\n\n"))
	}
	e := store.Entry{
		Category: category,
		Name:     conversationName(c.Name, c.UUID),
		Content:  t.String(),
		Meta: store.Meta{
			Created: created,
			Updated: updated,
			Extra:   map[string]any{"source": "claude", "title": c.Name},
		},
	}
	if c.UUID != "" {
		e.Meta.Extra["conversation_id"] = c.UUID
	}
	return e, nil
}

func parseRFC3339(field, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: %q is not an RFC 3339 time", field, s)
	}
	return t, nil
}
