package importer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/recallhq/recall/store"
)

// Format is a kind of input `recall import` reads from a file.
type Format string

// The file formats. Each names where its definition comes from; the
// tests' fixtures are written from the same sources.
const (
	// FormatJSONL is recall's own JSON lines (ReadJSONL).
	FormatJSONL Format = "jsonl"
	// FormatMCPMemory is the knowledge graph of the reference MCP memory
	// server (github.com/modelcontextprotocol/servers, src/memory): JSON
	// lines of {"type":"entity","name","entityType","observations"} and
	// {"type":"relation","from","to","relationType"}, in memory.jsonl
	// (memory.json before the server renamed it).
	FormatMCPMemory Format = "mcp-memory"
	// FormatChatGPT is conversations.json of a ChatGPT data export
	// (Settings → Data controls → Export data): a JSON array of
	// conversations, each with title, create_time and update_time (Unix
	// seconds), current_node and mapping, the tree of message nodes (id,
	// message, parent, children), a message with author.role,
	// create_time and content {content_type, parts}.
	FormatChatGPT Format = "chatgpt"
	// FormatClaude is conversations.json of a claude.ai data export
	// (Settings → Privacy → Export data): a JSON array of conversations
	// with uuid, name, created_at and updated_at (RFC 3339) and
	// chat_messages, each with sender ("human" or "assistant"),
	// created_at, text, content blocks ({"type":"text","text"}) and
	// attachments (file_name, extracted_content).
	FormatClaude Format = "claude"
	// FormatMem0 is the JSON mem0's get_all returns (docs.mem0.ai, "Export
	// Stored Memories"): an array of memories, or {"results": [...]},
	// each with id, memory, created_at, updated_at and optionally
	// user_id, agent_id, metadata and categories. (mem0's export jobs
	// take a schema of the caller's choosing, so they have no one format.)
	FormatMem0 Format = "mem0"
)

// Formats lists the formats ReadFile reads, for help texts.
var Formats = []Format{FormatJSONL, FormatMCPMemory, FormatChatGPT, FormatClaude, FormatMem0}

// ParseFormat reads a format's name as --format gives it.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("unknown format %q: want one of %s", s, strings.Join(names, ", "))
}

// FileOptions tune ReadFile. The zero value is the default.
type FileOptions struct {
	// Format forces the format; empty means DetectFormat.
	Format Format
	// Category is the category of the entries a conversation export
	// makes (default: the format's name, "chatgpt", "claude", "mem0").
	// The MCP memory graph puts each entity in its entityType.
	Category string
}

// detectBytes is how much of a file DetectFormat looks at.
const detectBytes = 1 << 20

// DetectFormat tells a file's format from its first bytes: JSON lines
// whose first object has "type" "entity" or "relation" are FormatMCPMemory,
// other JSON lines FormatJSONL; a JSON array whose first element has
// "mapping" is FormatChatGPT, "chat_messages" FormatClaude, "memory"
// FormatMem0; an object with "results" is FormatMem0.
func DetectFormat(head []byte) (Format, error) {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	dec := json.NewDecoder(bytes.NewReader(head))
	tok, err := dec.Token()
	if err != nil {
		return "", errors.New("not JSON: cannot tell its format (use --format)")
	}
	inArray := tok == json.Delim('[')
	if inArray {
		if tok, err = dec.Token(); err != nil || tok != json.Delim('{') {
			return "", errors.New("a JSON array whose first element is not an object: not a format recall reads")
		}
	} else if tok != json.Delim('{') {
		return "", errors.New("neither JSON lines nor a JSON array: cannot tell its format (use --format)")
	}
	keys := map[string]string{} // top-level key → its value when a string
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			break
		}
		k, _ := kt.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			keys[k] = ""
			break // the head ends inside this value
		}
		var s string
		_ = json.Unmarshal(v, &s)
		keys[k] = s
	}
	has := func(k string) bool { _, ok := keys[k]; return ok }
	switch {
	case inArray && has("mapping"):
		return FormatChatGPT, nil
	case inArray && (has("chat_messages") || has("uuid") && has("account")):
		return FormatClaude, nil
	case inArray && has("memory"):
		return FormatMem0, nil
	case !inArray && has("results"):
		return FormatMem0, nil
	case !inArray && (keys["type"] == "entity" || keys["type"] == "relation"):
		return FormatMCPMemory, nil
	case !inArray && (has("category") || has("name") || has("content")):
		return FormatJSONL, nil
	}
	return "", errors.New("JSON of no format recall reads (recall's JSONL, an MCP memory graph, a ChatGPT or Claude conversations.json, mem0's memories); use --format")
}

// ReadFile reads a file in any of the Formats into a Plan: the format
// opts.Format names, else the one DetectFormat finds. name tells reports
// where records came from. Every record becomes an item or a skip with
// its reason, as for ReadJSONL.
func ReadFile(ctx context.Context, r io.Reader, name string, opts FileOptions) (*Plan, Format, error) {
	br := bufio.NewReaderSize(r, detectBytes)
	format := opts.Format
	if format == "" {
		head, _ := peekUpTo(br, detectBytes)
		f, err := DetectFormat(head)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", name, err)
		}
		format = f
	}
	category := opts.Category
	if category == "" && format != FormatMCPMemory {
		category = string(format)
	}
	if category != "" {
		if err := store.ValidateKey(category, "x"); err != nil {
			return nil, format, fmt.Errorf("category %q: %w", category, err)
		}
	}
	var (
		p   *Plan
		err error
	)
	switch format {
	case FormatJSONL:
		p, err = ReadJSONL(ctx, br, name)
	case FormatMCPMemory:
		p, err = readMCPMemory(ctx, br, name)
	case FormatChatGPT:
		p, err = readArray(ctx, br, name, func(raw json.RawMessage) (store.Entry, error) {
			return chatGPTEntry(raw, category)
		})
	case FormatClaude:
		p, err = readArray(ctx, br, name, func(raw json.RawMessage) (store.Entry, error) {
			return claudeEntry(raw, category)
		})
	case FormatMem0:
		p, err = readMem0(ctx, br, name, category)
	default:
		_, err = ParseFormat(string(format))
	}
	return p, format, err
}

// peekUpTo returns up to n bytes from br without consuming them.
func peekUpTo(br *bufio.Reader, n int) ([]byte, error) {
	if n > br.Size() { // Peek cannot look beyond the buffer
		n = br.Size()
	}
	b, err := br.Peek(n)
	if errors.Is(err, io.EOF) || errors.Is(err, bufio.ErrBufferFull) {
		err = nil
	}
	return b, err
}

// readArray reads a JSON array of records one at a time, turning each
// into an entry with conv; a record conv refuses is skipped with the
// reason. where is "name: item N".
func readArray(ctx context.Context, r io.Reader, name string, conv func(raw json.RawMessage) (store.Entry, error)) (*Plan, error) {
	p := newPlan()
	dec := json.NewDecoder(r)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, fmt.Errorf("%s: not a JSON array", name)
	}
	for n := 1; dec.More(); n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("%s: item %d: %w", name, n, jsonReason(err))
		}
		where := fmt.Sprintf("%s: item %d", name, n)
		e, err := conv(raw)
		if err != nil {
			p.skip(where, err, "")
			continue
		}
		p.add(where, e)
	}
	return p, nil
}

// conversationName is an entry name for a conversation: its title made
// acceptable (SuggestName) with the first 8 characters of its id, so that
// conversations of the same title ("New chat") stay apart and a re-import
// finds the same identity.
func conversationName(title, id string) string {
	title = strings.TrimSpace(strings.Join(strings.Fields(title), " "))
	if title == "" {
		title = "Untitled"
	}
	if s := SuggestName(title); s != "" {
		title = s
	}
	short := id
	if len(short) > 8 {
		short = short[:8]
	}
	if short == "" {
		return title
	}
	suffix := " (" + short + ")"
	for len(title)+len(suffix) > store.MaxNameBytes {
		_, size := utf8.DecodeLastRuneInString(title)
		title = title[:len(title)-size]
	}
	return strings.TrimRight(title, " .") + suffix
}

// transcript renders messages as markdown: a heading per message with its
// speaker and time (UTC), then its text.
type transcript struct{ b strings.Builder }

func (t *transcript) add(speaker string, at time.Time, text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	if t.b.Len() > 0 {
		t.b.WriteString("\n\n")
	}
	t.b.WriteString("### " + speaker)
	if !at.IsZero() {
		t.b.WriteString(" (" + at.UTC().Format("2006-01-02 15:04") + ")")
	}
	t.b.WriteString("\n\n" + text)
}

func (t *transcript) String() string {
	if t.b.Len() == 0 {
		return ""
	}
	return t.b.String() + "\n"
}

// unixTime turns seconds since 1970 (with a fraction, as ChatGPT writes
// them) into a time, to the microsecond.
func unixTime(s *float64) time.Time {
	if s == nil || *s <= 0 {
		return time.Time{}
	}
	sec := int64(*s)
	usec := int64((*s - float64(sec)) * 1e6)
	return time.Unix(sec, usec*1000).UTC()
}

// speaker is a role as a heading: "user" → "User".
func speaker(role string) string {
	switch role {
	case "human":
		return "User"
	case "":
		return "Unknown"
	}
	r, size := utf8.DecodeRuneInString(role)
	return string(unicode.ToUpper(r)) + role[size:]
}
