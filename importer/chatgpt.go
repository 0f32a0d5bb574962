package importer

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/recallhq/recall/store"
)

// A ChatGPT conversation as conversations.json holds it (see FormatChatGPT).
type chatGPTConversation struct {
	Title          *string                `json:"title"`
	CreateTime     *float64               `json:"create_time"`
	UpdateTime     *float64               `json:"update_time"`
	Mapping        map[string]chatGPTNode `json:"mapping"`
	CurrentNode    string                 `json:"current_node"`
	ConversationID string                 `json:"conversation_id"`
	ID             string                 `json:"id"`
}

type chatGPTNode struct {
	ID       string          `json:"id"`
	Message  *chatGPTMessage `json:"message"`
	Parent   *string         `json:"parent"`
	Children []string        `json:"children"`
}

type chatGPTMessage struct {
	Author struct {
		Role string `json:"role"`
	} `json:"author"`
	CreateTime *float64 `json:"create_time"`
	Content    struct {
		ContentType string            `json:"content_type"`
		Parts       []json.RawMessage `json:"parts"`
		Text        string            `json:"text"`
		Language    string            `json:"language"`
	} `json:"content"`
	Metadata struct {
		Hidden bool `json:"is_visually_hidden_from_conversation"`
	} `json:"metadata"`
}

// chatGPTEntry makes one entry of a conversation: its title (and id) as
// the name, create_time and update_time as created and updated, and as
// content the messages of the branch the user last saw (current_node up
// to the root, in order), system messages and hidden ones left out.
// Text parts are kept; other parts (images, files) are noted as
// "[image]" or "[file]".
func chatGPTEntry(raw json.RawMessage, category string) (store.Entry, error) {
	var c chatGPTConversation
	if err := json.Unmarshal(raw, &c); err != nil {
		return store.Entry{}, jsonReason(err)
	}
	if c.Mapping == nil {
		return store.Entry{}, errors.New("no mapping: not a ChatGPT conversation")
	}
	id := c.ConversationID
	if id == "" {
		id = c.ID
	}
	title := ""
	if c.Title != nil {
		title = *c.Title
	}
	var t transcript
	for _, m := range chatGPTBranch(c) {
		if m.Author.Role == "system" || m.Metadata.Hidden {
			continue
		}
		t.add(speaker(m.Author.Role), unixTime(m.CreateTime), chatGPTText(m))
	}
	e := store.Entry{
		Category: category,
		Name:     conversationName(title, id),
		Content:  t.String(),
		Meta: store.Meta{
			Created: unixTime(c.CreateTime),
			Updated: unixTime(c.UpdateTime),
			Extra:   map[string]any{"source": "chatgpt", "title": title},
		},
	}
	if id != "" {
		e.Meta.Extra["conversation_id"] = id
	}
	if e.Meta.Updated.IsZero() {
		e.Meta.Updated = e.Meta.Created
	}
	return e, nil
}

// chatGPTBranch is the messages from the root to current_node (else to
// the last child at each step), each node once.
func chatGPTBranch(c chatGPTConversation) []*chatGPTMessage {
	var ids []string
	seen := map[string]bool{}
	if _, ok := c.Mapping[c.CurrentNode]; ok {
		for id := c.CurrentNode; id != "" && !seen[id]; {
			seen[id] = true
			ids = append(ids, id)
			n := c.Mapping[id]
			if n.Parent == nil {
				break
			}
			id = *n.Parent
		}
		for i, j := 0, len(ids)-1; i < j; i, j = i+1, j-1 {
			ids[i], ids[j] = ids[j], ids[i]
		}
	} else {
		root := ""
		for id, n := range c.Mapping {
			if n.Parent == nil || *n.Parent == "" {
				if root == "" || id < root { // one root; the least id if the file has several
					root = id
				}
			}
		}
		for id := root; id != "" && !seen[id]; {
			seen[id] = true
			ids = append(ids, id)
			ch := c.Mapping[id].Children
			if len(ch) == 0 {
				break
			}
			id = ch[len(ch)-1]
		}
	}
	var out []*chatGPTMessage
	for _, id := range ids {
		if m := c.Mapping[id].Message; m != nil {
			out = append(out, m)
		}
	}
	return out
}

// chatGPTText is a message's text: its string parts, or its code (as a
// fenced block), with non-text parts noted.
func chatGPTText(m *chatGPTMessage) string {
	switch m.Content.ContentType {
	case "code":
		return "```" + m.Content.Language + "\n" + m.Content.Text + "\n```"
	case "text", "multimodal_text", "":
	default:
		if m.Content.Text != "" {
			return m.Content.Text
		}
	}
	var parts []string
	for _, p := range m.Content.Parts {
		var s string
		if json.Unmarshal(p, &s) == nil {
			parts = append(parts, s)
			continue
		}
		var obj struct {
			ContentType string `json:"content_type"`
			Text        string `json:"text"`
		}
		if json.Unmarshal(p, &obj) == nil {
			switch {
			case obj.Text != "":
				parts = append(parts, obj.Text)
			case strings.Contains(obj.ContentType, "image"):
				parts = append(parts, "[image]")
			case obj.ContentType != "":
				parts = append(parts, fmt.Sprintf("[%s]", obj.ContentType))
			}
		}
	}
	return strings.Join(parts, "\n")
}
